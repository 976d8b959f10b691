// The 2n-point real transforms under the collective convolutions (src/collective/LineConvolver.hh):
// FFTW on the host (the CPU backend; src/collective/LineConvolver.cc) and cuFFT on the GPU (the CUDA
// backend; kernels/cuda/CudaLineFft.cu), chosen by CollectiveKernels::make_fft. Both unnormalized.
#pragma once

#include <complex>
#include <memory>
#include <string>

namespace gt {

class LineFft {
  public:
    virtual ~LineFft() = default;
    //! spectrum[m], m = 0 ... n, of the 2n values real[0 .. 2n) (host arrays).
    virtual void forward(int n, double const* real, std::complex<double>* spectrum) = 0;
    //! The 2n real values of the Hermitian spectrum[0 .. n] (host arrays), unnormalized: 2n times the inverse.
    virtual void inverse(int n, std::complex<double> const* spectrum, double* real) = 0;
    virtual std::string name() const = 0;
};

//! FFTW_ESTIMATE plans (the same input gives the same bits).
std::unique_ptr<LineFft> make_fftw_line_fft();
//! cuFFT D2Z / Z2D plans on the current GPU; throws when gtrack was built without CUDA.
std::unique_ptr<LineFft> make_cufft_line_fft();

}  // namespace gt
