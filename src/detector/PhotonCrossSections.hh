// Macroscopic photon cross sections of a material from its composition (set-up time, host):
// Compton and pair production summed over the elements, and the photoelectric fit merged into one
// set of material intervals (kernels/physics/Photoelectric.hh).
#pragma once

#include <string>
#include <vector>

#include "detector/MaterialComposition.hh"
#include "kernels/physics/Photoelectric.hh"

namespace gt {

//! [1/m]
double compton_macroscopic(std::vector<ElementComponent> const& elements, double E);
double pair_macroscopic(std::vector<ElementComponent> const& elements, double E);
//! The material's photoelectric intervals in [MeV^k / m]; throws std::invalid_argument naming the
//! material and the element when an element has no photoelectric fit.
std::vector<PhotoelectricInterval> photoelectric_intervals(std::vector<ElementComponent> const& elements,
                                                           std::string const& material);
//! Photoelectric macroscopic cross section [1/m] from those intervals.
double photoelectric_macroscopic(std::vector<PhotoelectricInterval> const& intervals, double E);

}  // namespace gt
