// The CUDA collective factory for a build without the CUDA backend: a clear error, never a silent CPU.
#include <stdexcept>

#include "kernels/collective/CollectiveKernels.hh"
#include "kernels/collective/LineFft.hh"

namespace gt {

std::unique_ptr<CollectiveKernels> make_cuda_collective()
{
    throw std::runtime_error(
        "this gtrack was built without CUDA (GTRACK_CUDA=OFF): no GPU collective effects; rebuild with "
        "-DGTRACK_CUDA=ON or run on the CPU backend");
}

std::unique_ptr<LineFft> make_cufft_line_fft()
{
    throw std::runtime_error("this gtrack was built without CUDA (GTRACK_CUDA=OFF): no cuFFT; rebuild with -DGTRACK_CUDA=ON");
}

}  // namespace gt
