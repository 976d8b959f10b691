// An analytic axially symmetric field tabulated once on an (r, z) grid (field.tabulate): each step
// then interpolates bilinearly (kernels/field/FieldMap.hh, RzFieldMap) instead of evaluating the
// finite solenoid's elliptic integrals, on the CPU and the GPU alike.
#pragma once

#include <vector>

#include "kernels/field/FieldMap.hh"
#include "kernels/field/SolenoidField.hh"

namespace gt {

//! Most nodes a tabulated field may have (16 bytes each: 800 MB).
inline constexpr double k_max_tabulated_nodes = 5.0e7;

//! Tabulates `solenoid` at spacings no larger than `spacing` [m] over the box |x|, |y| <= half[0],
//! half[1], |z| <= half[2] about the origin (the world), one node beyond on every side. The radial
//! spacing divides the coil's radius, so that the current sheet lies on a node column (the jump of
//! Bz across it is smeared over one cell on either side, not over the cell it would cut); the ends
//! of the sheet lie halfway between node rows, where the field's edge singularity is not evaluated.
//! Fills `values` ((Br, Bz) per node, RzFieldMap's layout) and returns the map (its values pointer
//! unset: the backend sets it). Throws std::invalid_argument for a grid beyond
//! k_max_tabulated_nodes.
RzFieldMap tabulate_solenoid(SolenoidField const& solenoid, double const half[3], double spacing,
                             std::vector<double>& values);

}  // namespace gt
