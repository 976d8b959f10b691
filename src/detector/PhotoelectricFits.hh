// The per-element photoelectric fits (kernels/physics/Photoelectric.hh), generated from NIST XCOM
// by scripts/em/fit_photoelectric.py into PhotoelectricFits.cc.
#pragma once

#include <span>
#include <vector>

#include "kernels/physics/Photoelectric.hh"

namespace gt {

//! The fit's intervals for atomic number z, per atom ([barn MeV^k]); empty when z has no fit.
std::span<PhotoelectricInterval const> photoelectric_fit(int z);
//! The atomic numbers that have a fit.
std::vector<int> photoelectric_fit_elements();

}  // namespace gt
