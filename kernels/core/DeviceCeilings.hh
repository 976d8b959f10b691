// Ceilings of the GPU that need kernels of their own (kernels/cuda/DeviceCeilings.cu); without
// CUDA every call throws.
#pragma once

namespace gt::device {

//! [FLOP/s] PeakFlops over enough threads to fill the GPU (CUDA events, best of several).
double measure_fp64_peak();
//! [s] one empty kernel launch, launch to completion, averaged over many.
double measure_launch_latency();
//! Streaming multiprocessors of device 0.
int multiprocessors();

}  // namespace gt::device
