// Host side of the t-code: which elements are tracked in time (the `tracking` key and the `auto`
// rule), and the TimeCode entry with its time step from the deck or from the accuracy rule.
#pragma once

#include <string>

#include "kernels/core/ReferenceParticle.hh"
#include "kernels/elements/TimeCode.hh"

namespace gt {

//! The `auto` rule (docs/physics.md, "t-code"): t-code where the field changes over a distance
//! shorter than this many rms bunch lengths, so that head and tail see different fields at one time.
inline constexpr double k_auto_bunch_lengths = 4.0;
//! The accuracy rule's largest phase per step: of the cyclotron rotation, the betatron phase in a
//! quadrupole and the RF; Boris' phase error per step is about this squared over 12, RK4's its fifth power.
inline constexpr double k_max_phase_per_step = 0.02;
//! Fewest time steps the reference takes through an element.
inline constexpr int k_min_time_steps = 32;
//! A particle still inside after this many times the reference's transit counts as stopped.
inline constexpr double k_max_transit_factor = 10.0;

//! One element's choice and why, as `gtrack check` prints it.
struct TrackingChoice {
    bool time = false;
    std::string why;
};

//! Resolves `mode` (z, t or auto) for an element whose field varies over `field_scale` [m] (0: no
//! field) for a bunch of rms length `sigma_s` [m] at the element.
TrackingChoice choose_tracking(std::string const& mode, double field_scale, double sigma_s);

//! What a TimeCode entry is made from.
struct TimeCodeRequest {
    TimeField field = TimeField::none;
    double length = 0;           //!< [m]
    double k1 = 0;               //!< [1/m^2]
    double ks = 0;               //!< [1/m]
    AxialFieldMap map{};         //!< for axial_map: the one slice built by the z-code builder
    FieldMap3D grid_map{};       //!< for grid_map: the one slice built by the z-code builder
    double peak_field = 0;       //!< for axial_map: max |profile| x scale [T or V/m]
    double peak_e = 0;           //!< for grid_map: max |E| over the nodes [V/m]
    double peak_b = 0;           //!< for grid_map: max |B| over the nodes [T]
    double profile_dz = 0;       //!< for axial_map and grid_map: the map's spacing along z [m]
    double time_step = 0;        //!< [s] 0: the accuracy rule
    std::string integrator;      //!< boris, rk4, or empty: boris without E, rk4 with
};

//! A t-code entry whose beam is emitted from rest at its entrance plane, and the reference after it.
struct CathodeTimeCode {
    TimeCode code{};
    ReferenceParticle after;
    double crest_phase = 0;  //!< [rad] the phase at the reference's emission that is on crest (RF)
};

//! The first element of a beam emitted from a cathode (docs/physics.md, "Beams emitted from a
//! cathode"): `normalization` is the beam's reference at the start, of momentum m c; the request's
//! map (axial_map or grid_map) must hold kappa = q / (m c^2). The reference is emitted at rest at sigma = 0 and
//! tracked through the entry by the same push as the beam; for a cavity its phase of maximum
//! energy gain is the crest and `phase` is relative to it. Throws std::invalid_argument when the
//! reference does not leave the element (no accelerating field at any phase).
CathodeTimeCode make_cathode_time_code(TimeCodeRequest const& r, ReferenceParticle const& normalization,
                                       double phase);

//! The entry for a reference entering as `entry`. Throws std::invalid_argument when Boris is asked
//! for a field with E (a cavity, a 3D map holding E).
TimeCode make_time_code(TimeCodeRequest const& r, ReferenceParticle const& entry);

}  // namespace gt
