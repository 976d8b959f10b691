// Linear optics of a lattice from gtrack's own element maps: closed orbit, one-turn matrix, tunes,
// chromaticities, momentum compaction, and Twiss parameters and dispersion at every element exit.
//
// Everything is measured by tracking probe particles through the same track_element() the tracker
// runs (docs/optics.md): there is no second, hand-written linear model that could drift from the
// tracked one.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "beam/Lattice.hh"
#include "deck/Config.hh"
#include "optics/DampedModes.hh"

namespace gt::optics {

using Vec6 = std::array<double, 6>;
using Mat6 = std::array<std::array<double, 6>, 6>;

//! How the optics is computed.
struct OpticsOptions {
    //! true: a ring (periodic solution); false: a line from the deck's [beam.twiss].
    bool periodic = true;
    //! Centred-difference step of the matrices [m, rad, m, rad, m, 1] (docs/optics.md: why 1e-6).
    double step = 1e-6;
    //! Relative momentum step of the chromaticity (a five-point stencil in delta).
    double delta_step = 1e-4;
    //! The 4D model of a ring whose cavities are off the zero crossing: `lattice` was built with the
    //! cavities keeping the reference energy and their gain is left out, as MAD-X's TWISS does: no 6D
    //! orbit and no synchrotron tune (both need the radiation loss the gain replaces: `radiating`).
    bool rf_gain_left_out = false;
    //! The 6D model: a table of the same entries whose magnets radiate their mean loss and whose
    //! cavities keep the reference energy. The 6D closed orbit (at the synchronous phase), the
    //! synchrotron tune and the one-turn map's damping come from it; the transverse optics stays at the
    //! design energy without radiation (MAD-X's TWISS).
    Lattice const* radiating = nullptr;
};

//! Twiss parameters, dispersion and closed orbit at one element exit (row 0: the start).
struct OpticsRow {
    double s = 0;                                 //!< [m]
    std::string name;                             //!< deck element name ("start" for row 0)
    std::string type;                             //!< deck element type ("marker" for row 0)
    double beta_x = 0, alpha_x = 0, mu_x = 0;     //!< [m], [1], [2 pi]
    double beta_y = 0, alpha_y = 0, mu_y = 0;     //!< [m], [1], [2 pi]
    double d_x = 0, dp_x = 0, d_y = 0, dp_y = 0;  //!< dx/d delta [m], dpx/d delta [1], ...
    Vec6 orbit{};                                 //!< closed orbit (x, px, y, py, t, pt) [m, 1, m, 1, m, 1]
};

//! One occurrence of a deck element, for drawing the layout under beta and D.
struct LayoutRow {
    double s_start = 0;  //!< [m]
    double length = 0;   //!< [m]
    std::string type;
    double strength = 0;  //!< k1 [1/m^2] (quadrupole), angle [rad] (sbend), k2 [1/m^3] (sextupole), else 0
};

//! The radiation integrals over the sector bends (I1 ... I5, SI) and what follows for the deck's
//! particle: the energy loss per turn, the damping partition and the natural emittance
//! (RadiationIntegrals.hh).
struct RadiationIntegrals {
    double i1 = 0, i2 = 0, i3 = 0, i4 = 0, i5 = 0;
    double u0_ev = 0;  //!< [eV] energy radiated per turn, q^2 beta^3 gamma^4 I2 / (6 pi eps0)
    double j_x = 0;    //!< horizontal damping partition 1 - I4/I2
    double j_y = 0;    //!< vertical damping partition: 1 (no vertical bends)
    double j_e = 0;    //!< longitudinal damping partition 2 + I4/I2
    double tau_x = 0, tau_y = 0, tau_e = 0;  //!< [s] amplitude damping times 2 E0 T0 / (J U0) (0: no loss)
    double emittance = 0;                    //!< [m] natural horizontal emittance Cq gamma^2 I5 / (Jx I2)
    double energy_spread = 0;                //!< [1] natural rms sigma_E/E = sqrt(Cq gamma^2 I3 / (Je I2))
    double rf_voltage = 0;                   //!< [V] sum of the cavities' voltages (0: none)
    double synchronous_phase = 0;  //!< [rad] acos(U0 / (|q| V)) in gtrack's convention (NaN: V too low)
};

struct OpticsResult {
    bool periodic = true;
    std::string model = "4d";       //!< "4d" (RF's energy gain and radiation left out) or "6d" (with both)
    std::string model_note;         //!< the model in words, for the summary and the files
    bool rf_on = false;             //!< some cavity has a voltage: the closed orbit is 6D
    bool coupled = false;           //!< the one-turn (or line) matrix couples x and y
    double length = 0;              //!< [m]
    double tune_x = 0, tune_y = 0;  //!< with integer part, from the phase advance
    double chroma_x = 0, chroma_y = 0;  //!< dQ/d delta (delta = dp/p)
    double momentum_compaction = 0;     //!< alpha_c = eta + 1/gamma^2
    double slip_factor = 0;             //!< eta = (dT/T)/delta
    std::optional<double> synchrotron_tune;
    double gamma = 1, beta = 1;  //!< of the reference
    Mat6 one_turn{};             //!< about the closed orbit (RF on: 6D with RF; else RF off)
    Vec6 closed_orbit{};         //!< at the start
    int orbit_iterations = 0;
    double orbit_residual = 0;  //!< [m, rad] max |F(z) - z| at the end of the Newton iteration
    double matrix_error = 0;    //!< estimated error of the one-turn matrix entries (step halving)
    std::string mode_note;      //!< what is and is not computed for coupled lattices
    std::vector<OpticsRow> rows;
    std::vector<LayoutRow> layout;
    std::optional<RadiationIntegrals> radiation;  //!< a ring with bends (filled by radiation_integrals)
    //! The 6D model: the modes (x, y, longitudinal) of the one-turn map with RF and radiation.
    std::vector<DampedMode> damped;
};

//! The optics of `lattice`, built from `deck` for one pass. Throws std::runtime_error with a clear
//! message (naming the plane) when a ring has no closed orbit or no periodic solution, or when a
//! probe particle is lost.
OpticsResult compute_optics(DeckConfig const& deck, Lattice const& lattice, OpticsOptions const& options);

}  // namespace gt::optics
