// The survey of a lattice: the global frame (position and axes) of the reference orbit at every s, bends and
// rolls included, computed once from the element table; and a particle's global position, direction and
// kinetic energy from its beamline coordinates (docs/physics.md, "Survey").
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "beam/Lattice.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "kernels/geometry/Vec3.hh"

namespace gt {

//! A frame of the reference orbit in the global (survey) frame: the orbit's point and its local axes
//! e_x, e_y, e_s (e_s along the orbit), each a unit vector in global coordinates.
struct SurveyFrame {
    Vec3 position;                                                          //!< [m]
    std::array<Vec3, 3> axes{Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}};  //!< e_x, e_y, e_s
    double s = 0;  //!< [m] along the orbit from the lattice's entrance

    //! The global vector of local components (a, b, c) = a e_x + b e_y + c e_s.
    Vec3 to_global(Vec3 local) const;
    //! The global point at local offsets (x, y, along e_s) from the orbit's point.
    Vec3 point(Vec3 local) const { return position + to_global(local); }
};

//! A beam particle in the global frame.
struct GlobalParticle {
    Vec3 position;       //!< [m]
    Vec3 direction;      //!< unit vector of its momentum
    double kinetic = 0;  //!< [MeV]
};

//! The survey of one pass through a lattice. The global frame is MAD-X's SURVEY frame with its initial
//! conditions at zero: at s = 0 the orbit is at the origin heading along +Z, e_x = +X, e_y = +Y. A sector
//! bend of angle theta > 0 bends towards -x (centre of curvature at x = -rho, rho = L / theta, as the
//! tracker's SectorBend): over an arc length l, phi = l / rho, the orbit moves by
//! (rho (cos phi - 1), 0, rho sin phi) in the frame of its entrance, and its frame turns by -phi about e_y
//! (MAD-X Users' Guide, chapter SURVEY); a thin bend (a multipole with `angle`) turns the frame so where it
//! is. A bend's roll (its `tilt`) turns that bending plane about e_s,
//! and SROTATION rolls the frame about e_s by its angle (x' = x cos a + y sin a, as the tracker). Every
//! other entry (drifts, quadrupoles, cavities, field maps, ...) is straight; misalignments (dx, dy) are
//! errors of the magnets, not of the reference orbit, and do not move it (as MAD-X's EALIGN).
class Survey {
  public:
    explicit Survey(Lattice const& lattice);

    //! The frame at the entrance of entry `entry` (entry == number of entries: the lattice's exit).
    SurveyFrame const& entrance(std::size_t entry) const { return frames_[entry]; }
    //! The frame at the exit of the last entry.
    SurveyFrame const& exit() const { return frames_.back(); }
    //! The frame `along` metres into entry `entry` (0 <= along <= its length): on a bend's arc, inside it.
    SurveyFrame inside(std::size_t entry, double along) const;
    //! The frame at `s` [m] from the lattice's entrance: inside the entry that covers it, after the
    //! zero-length entries (rolls) at s when s is at an entry's boundary.
    SurveyFrame at(double s) const;

    //! A particle with beamline coordinates `p` (ParticleState.hh: x, y, px = P_x / p0, ..., pt) in the plane
    //! of `frame`, for the reference particle `ref`: its global position, direction and kinetic energy
    //! (E = E0 - pt p0 c; the longitudinal momentum P_s / p0 = sqrt(1 - 2 pt / beta0 + pt^2 - px^2 - py^2)).
    static GlobalParticle place(SurveyFrame const& frame, Particle const& p, ReferenceParticle const& ref);

    std::size_t entries() const { return frames_.size() - 1; }

  private:
    struct Piece {
        double length = 0;  //!< [m] of orbit
        double angle = 0;   //!< bend angle [rad] (0: straight)
        double tilt = 0;    //!< the bend's roll [rad]
        double roll = 0;    //!< SROTATION angle [rad]
    };
    std::vector<Piece> pieces_;
    std::vector<SurveyFrame> frames_;  //!< entrance of each entry, then the exit of the last
};

//! The frame `f` advanced by one piece of orbit: `length` metres along an arc of angle `angle` (0:
//! straight), bent in the plane rolled by `tilt`; then rolled by `roll` about the new e_s.
SurveyFrame advance_frame(SurveyFrame const& f, double length, double angle, double tilt, double roll);

}  // namespace gt
