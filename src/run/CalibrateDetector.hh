// `gtrack calibrate`'s detector terms (Ceilings::detector_*): built-in decks tracked with a backend's
// detector loop, their timed kernels against their counted steps, substeps, iterations and slots.
#pragma once

#include "perf/Calibration.hh"

namespace gt {

//! Measures the detector loop's costs on the CPU (the current thread count) or the GPU into `c`.
void measure_detector_costs(Ceilings& c, bool gpu);

//! The detector_* members of `from` into `to`.
inline void copy_detector_costs(Ceilings& to, Ceilings const& from)
{
    to.detector_step_seconds = from.detector_step_seconds;
    to.detector_shower_step_seconds = from.detector_shower_step_seconds;
    to.detector_uniform_substep_seconds = from.detector_uniform_substep_seconds;
    to.detector_solenoid_substep_seconds = from.detector_solenoid_substep_seconds;
    to.detector_slot_seconds = from.detector_slot_seconds;
    to.detector_hit_seconds = from.detector_hit_seconds;
    to.detector_shower_slot_seconds = from.detector_shower_slot_seconds;
    to.detector_iteration_seconds = from.detector_iteration_seconds;
    to.detector_shower_iteration_seconds = from.detector_shower_iteration_seconds;
    to.detector_warmup_seconds = from.detector_warmup_seconds;
}

}  // namespace gt
