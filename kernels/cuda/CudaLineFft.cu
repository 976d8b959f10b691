// cuFFT for the collective convolutions (kernels/collective/LineFft.hh): D2Z / Z2D plans of 2n points,
// the host arrays copied through device buffers (a few thousand values per transform).
#include <cufft.h>

#include <complex>
#include <memory>
#include <stdexcept>
#include <string>

#include "kernels/collective/LineFft.hh"
#include "kernels/core/Buffer.hh"
#include "kernels/core/Device.hh"
#include "kernels/cuda/Check.cuh"
#include "kernels/cuda/CufftCheck.cuh"

namespace gt {
namespace {

// std::complex<double> and cufftDoubleComplex are both two doubles, real then imaginary.
static_assert(sizeof(std::complex<double>) == sizeof(cufftDoubleComplex));

class CufftLineFft final : public LineFft {
  public:
    ~CufftLineFft() override { release(); }
    void forward(int n, double const* real, std::complex<double>* spectrum) override
    {
        plan(n);
        GT_CUDA_CHECK(cudaMemcpy(real_.data(), real, std::size_t(2 * n) * sizeof(double), cudaMemcpyHostToDevice));
        GT_CUFFT_CHECK(cufftExecD2Z(forward_, real_.data(), spectrum_data()));
        GT_CUDA_CHECK(cudaMemcpy(spectrum, spectrum_.data(), std::size_t(n + 1) * sizeof(cufftDoubleComplex),
                                 cudaMemcpyDeviceToHost));
    }
    void inverse(int n, std::complex<double> const* spectrum, double* real) override
    {
        plan(n);
        GT_CUDA_CHECK(cudaMemcpy(spectrum_.data(), spectrum, std::size_t(n + 1) * sizeof(cufftDoubleComplex),
                                 cudaMemcpyHostToDevice));
        GT_CUFFT_CHECK(cufftExecZ2D(inverse_, spectrum_data(), real_.data()));
        GT_CUDA_CHECK(cudaMemcpy(real, real_.data(), std::size_t(2 * n) * sizeof(double), cudaMemcpyDeviceToHost));
    }
    std::string name() const override { return "cuFFT"; }

  private:
    cufftDoubleComplex* spectrum_data() { return reinterpret_cast<cufftDoubleComplex*>(spectrum_.data()); }
    void release()
    {
        if (n_ == 0) return;
        cufftDestroy(forward_);
        cufftDestroy(inverse_);
        n_ = 0;
    }
    void plan(int n)
    {
        if (n == n_) return;
        release();
        real_ = Buffer<double>(std::size_t(2 * n), MemSpace::device);
        spectrum_ = Buffer<double>(std::size_t(2 * (n + 1)), MemSpace::device);
        GT_CUFFT_CHECK(cufftPlan1d(&forward_, 2 * n, CUFFT_D2Z, 1));
        GT_CUFFT_CHECK(cufftPlan1d(&inverse_, 2 * n, CUFFT_Z2D, 1));
        n_ = n;
    }
    int n_ = 0;
    cufftHandle forward_ = 0, inverse_ = 0;
    Buffer<double> real_, spectrum_;  //!< 2n reals; n + 1 complex values as 2 (n + 1) doubles
};

}  // namespace

std::unique_ptr<LineFft> make_cufft_line_fft()
{
    if (device::count() == 0) throw std::runtime_error("no GPU found: cuFFT needs one");
    return std::make_unique<CufftLineFft>();
}

}  // namespace gt
