// Host side of the profile elements: spline coefficients, slicing, the reference particle tracked
// through the map (the same kernel code as the beam), and the RF crest found by that tracking.
#pragma once

#include <stdexcept>
#include <vector>

#include "beam/OnAxisProfile.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "kernels/elements/AxialFieldMap.hh"

namespace gt {

//! What a deck's `profile` element asks for (SI).
struct AxialMapRequest {
    OnAxisProfile profile;
    double scale = 1.0;      //!< multiplies the profile's values
    bool rf = false;         //!< cavity (Ez) or solenoid (Bz)
    double frequency = 0.0;  //!< [Hz] cavities
    double phase = 0.0;      //!< [rad] relative to the crest (maximum energy gain of the reference)
    int slices = 1;
    int steps_per_slice = 0;  //!< RK4 steps per slice; 0: one per map interval
};

//! The slices of one occurrence and the reference after each.
struct AxialMapSlices {
    std::vector<AxialFieldMap> slices;
    std::vector<ReferenceParticle> reference_after;
    double crest_phase = 0.0;   //!< [rad] phase of the field at the reference's entry that is on crest
    double slice_length = 0.0;  //!< [m]
};

//! A problem with the request (the reference is reflected or stopped in the field): the message
//! says what happened; the lattice builder adds the deck key and line.
class AxialMapError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

//! Appends the spline coefficients of the scaled profile to `field_data`; the result points into it
//! as it is on return.
CubicSplineProfile append_axial_profile(AxialMapRequest const& request, std::vector<double>& field_data);

//! Appends the spline coefficients to `field_data` and builds the slices for a reference entering
//! as `entry`. The slices point into `field_data` as it is on return (rebind after it grows).
AxialMapSlices build_axial_field_map(AxialMapRequest const& request, ReferenceParticle const& entry,
                                     std::vector<double>& field_data);

}  // namespace gt
