// Space charge inside a t-code entry: the bunch pushed one common time step at a time, the
// space-charge field of the whole bunch at that time (lab positions, boosted with the mean velocity
// of the particles inside) kicking the particles inside over the step (docs/physics.md, "t-code").
#pragma once

#include <cstdint>
#include <functional>

#include "beam/Lattice.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/spacecharge/SpaceChargeKernels.hh"

namespace gt {

//! What one kick inside a t-code entry reports: the solver's diagnostics, the time of the kick
//! sigma = c (t - t_ref,entry) [m] and the distance beta_b c dt the bunch's frame moved [m].
//! The smallest beta_b gamma_b of the frame of a kick: near rest (just after emission from a cathode)
//! the mean Pz can be ~0, and the solver divides by beta_b; below this gamma_b - 1 < 1e-12, so the
//! boost is the identity to that and the field the lab's electrostatic one either way.
inline constexpr double k_min_frame_beta_gamma = 1e-6;

struct TimeCodeKick {
    SpaceChargeDiagnostics diagnostics;
    double sigma = 0;
    double ds = 0;
};

class TimeCodeSpaceCharge {
  public:
    //! `species` carries the charge, mass and macroparticle charge (beam_frame); its boost is
    //! replaced at each kick. `particles` lives in the memory of `kernels` and `solver`.
    TimeCodeSpaceCharge(Lattice const& lattice, BeamKernels& kernels, SpaceChargeKernels& solver,
                        SpaceChargeSettings const& settings, BeamFrame const& species, ParticleView particles);

    //! Pushes the beam through t-code entry `entry` in `turn`, calling `report` after each kick.
    void track(std::int64_t entry, std::int64_t turn, std::function<void(TimeCodeKick const&)> const& report);

  private:
    Lattice const& lattice_;
    BeamKernels& kernels_;
    SpaceChargeKernels& solver_;
    SpaceChargeSettings settings_;
    BeamFrame species_;
    ParticleView particles_;
    ParticleState positions_;
};

}  // namespace gt
