// `gtrack calibrate`'s detector terms (Ceilings::detector_*): built-in decks tracked with a backend's
// detector loop, their timed kernels against their counted steps, substeps, iterations and slots.
#pragma once

#include "perf/Calibration.hh"

namespace gt {

//! Measures the detector loop's costs on the CPU (the current thread count) or the GPU into `c`.
void measure_detector_costs(Ceilings& c, bool gpu);

}  // namespace gt
