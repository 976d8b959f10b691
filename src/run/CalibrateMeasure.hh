// The measurements of `gtrack calibrate`: each ceiling timed on this machine with gtrack's own
// executors and kernels (best or steady-state of repeated calls, after a warm-up call).
#pragma once

#include <vector>

#include "kernels/elements/Element.hh"
#include "perf/Calibration.hh"

namespace gt {

struct CalibrateSize {
    double particles;        //!< beam for the map, moments and sampling rates
    double sc_particles;     //!< beam for the space-charge stages
    std::vector<int> grids;  //!< space-charge node counts per axis (the doubled grid is 8 n^3)
    double copy_bytes;       //!< per array of the copy test
};

//! Full: 2e5 particles, grids 16, 32, 64, 256 MiB arrays; quick (--quick, tests): a tenth.
CalibrateSize calibrate_size(bool quick);

//! The CPU's ceilings with the current OpenMP thread count.
Ceilings measure_cpu_ceilings(CalibrateSize const& size);
//! The one-entry segments whose streaming bandwidth calibrates each element switch the GPU compiles
//! (Ceilings::track_bandwidth_cases, in ElementCases' order): a marker, a wide aperture, a thin kicker.
std::vector<Element> switch_entries();

//! The GPU's ceilings (throws without a GPU).
Ceilings measure_gpu_ceilings(CalibrateSize const& size);

}  // namespace gt
