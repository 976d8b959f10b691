// The CUDA detector backend in a build without CUDA: there is never a GPU.
#include <stdexcept>

#include "kernels/detector/DetectorKernels.hh"

namespace gt {

std::unique_ptr<DetectorKernels> make_cuda_detector_kernels()
{
    throw std::runtime_error("this gtrack was built without CUDA (GTRACK_CUDA=OFF): no GPU backend");
}

}  // namespace gt
