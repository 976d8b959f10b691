// The GPU beamline backend in a build without CUDA: asking for it is a clear error.
#include <stdexcept>

#include "kernels/beam/BeamKernels.hh"

namespace gt {

std::unique_ptr<BeamKernels> make_cuda_beam_kernels()
{
    throw std::runtime_error("this gtrack was built without CUDA (GTRACK_CUDA=OFF): no GPU backend");
}

}  // namespace gt
