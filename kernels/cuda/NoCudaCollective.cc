// The CUDA collective factory for a build without the CUDA backend: a clear error, never a silent CPU.
#include <stdexcept>

#include "kernels/collective/CollectiveKernels.hh"

namespace gt {

std::unique_ptr<CollectiveKernels> make_cuda_collective()
{
    throw std::runtime_error(
        "this gtrack was built without CUDA (GTRACK_CUDA=OFF): no GPU collective effects; rebuild with "
        "-DGTRACK_CUDA=ON or run on the CPU backend");
}

}  // namespace gt
