// The host copy of the shower physics tables (kernels/physics/EmTables.hh), as built by
// src/detector/EmTableBuilder.cc and uploaded by a backend as it is.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/physics/EmTables.hh"

namespace gt {

struct EmTableData {
    std::int32_t n_energy = 0;
    double log_e_min = 0, inv_dlog = 0, e_min = 0, e_max = 0;
    std::vector<double> values;
    std::vector<EmMaterial> materials;
    std::vector<PhotoelectricInterval> photoelectric;
};

}  // namespace gt
