// The GPU ceilings in a build without CUDA: there is no GPU to measure.
#include <stdexcept>

#include "kernels/core/DeviceCeilings.hh"

namespace gt::device {

double measure_fp64_peak() { throw std::runtime_error("built without CUDA: no GPU to calibrate"); }
double measure_launch_latency() { throw std::runtime_error("built without CUDA: no GPU to calibrate"); }
int multiprocessors() { return 0; }

}  // namespace gt::device
