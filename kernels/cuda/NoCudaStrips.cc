// The CUDA strip chain in a build without CUDA: there is never a GPU.
#include <stdexcept>

#include "kernels/detector/StripChain.hh"

namespace gt {

std::unique_ptr<StripKernels> make_cuda_strip_kernels()
{
    throw std::runtime_error("this gtrack was built without CUDA (GTRACK_CUDA=OFF): no GPU backend");
}

}  // namespace gt
