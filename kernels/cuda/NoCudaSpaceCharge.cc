// The CUDA space-charge factory for a build without the CUDA backend: a clear error, never a silent CPU.
#include <stdexcept>

#include "kernels/spacecharge/SpaceChargeKernels.hh"

namespace gt {

std::unique_ptr<SpaceChargeKernels> make_cuda_space_charge()
{
    throw std::runtime_error(
        "this gtrack was built without CUDA (GTRACK_CUDA=OFF): no GPU space-charge solver; rebuild with "
        "-DGTRACK_CUDA=ON or run space charge on the CPU backend");
}

}  // namespace gt
