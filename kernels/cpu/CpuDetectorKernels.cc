// The detector stepping loop on the CPU.
#include "kernels/cpu/CpuDetectorOps.hh"
#include "kernels/detector/DetectorBackend.hh"

namespace gt {

std::unique_ptr<DetectorKernels> make_cpu_detector_kernels()
{
    return std::make_unique<DetectorBackend<CpuDetectorOps>>();
}

}  // namespace gt
