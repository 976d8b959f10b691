// Zero-padded FFT convolutions on the longitudinal grid (see LineConvolver.hh).
#include "collective/LineConvolver.hh"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include <fftw3.h>

#include "collective/GaussLegendre.hh"

namespace gt {

namespace {

//! FFTW plans for one size at a time, on FFTW's aligned arrays (the arguments are copied through them).
class FftwLineFft final : public LineFft {
  public:
    ~FftwLineFft() override { release(); }
    void forward(int n, double const* real, std::complex<double>* spectrum) override
    {
        plan(n);
        std::copy(real, real + 2 * n, real_);
        fftw_execute(forward_);
        for (int m = 0; m <= n; ++m) spectrum[m] = {spectrum_[m][0], spectrum_[m][1]};
    }
    void inverse(int n, std::complex<double> const* spectrum, double* real) override
    {
        plan(n);
        for (int m = 0; m <= n; ++m) spectrum_[m][0] = spectrum[m].real(), spectrum_[m][1] = spectrum[m].imag();
        fftw_execute(inverse_);  // c2r overwrites its input: the copy above keeps the caller's
        std::copy(real_, real_ + 2 * n, real);
    }
    std::string name() const override { return "FFTW"; }

  private:
    void release()
    {
        if (forward_) fftw_destroy_plan(forward_);
        if (inverse_) fftw_destroy_plan(inverse_);
        fftw_free(real_);
        fftw_free(spectrum_);
        forward_ = inverse_ = nullptr;
        real_ = nullptr;
        spectrum_ = nullptr;
    }
    void plan(int n)
    {
        if (n == n_) return;
        release();
        real_ = fftw_alloc_real(std::size_t(2 * n));
        spectrum_ = fftw_alloc_complex(std::size_t(n + 1));
        // FFTW_ESTIMATE: the plan does not depend on timing, so the same input gives the same bits.
        forward_ = fftw_plan_dft_r2c_1d(2 * n, real_, spectrum_, FFTW_ESTIMATE);
        inverse_ = fftw_plan_dft_c2r_1d(2 * n, spectrum_, real_, FFTW_ESTIMATE);
        if (!forward_ || !inverse_) throw std::runtime_error("FFTW could not plan the collective-effect transforms");
        n_ = n;
    }
    int n_ = 0;
    fftw_plan forward_ = nullptr, inverse_ = nullptr;
    double* real_ = nullptr;
    fftw_complex* spectrum_ = nullptr;
};

}  // namespace

std::unique_ptr<LineFft> make_fftw_line_fft() { return std::make_unique<FftwLineFft>(); }

LineConvolver::LineConvolver(std::unique_ptr<LineFft> fft) : fft_(fft ? std::move(fft) : make_fftw_line_fft()) {}

LineConvolver::~LineConvolver() = default;

std::vector<double> LineConvolver::convolve(std::vector<double> const& kernel, std::vector<double> const& source)
{
    int const n = static_cast<int>(source.size());
    if (kernel.size() != 2 * source.size()) throw std::logic_error("LineConvolver: kernel is not 2n long");
    std::vector<std::complex<double>> k_spec(std::size_t(n + 1));
    fft_->forward(n, kernel.data(), k_spec.data());
    return filter(source, [&](int m) { return k_spec[std::size_t(m)]; });
}

std::vector<double> LineConvolver::filter(std::vector<double> const& source,
                                          std::function<std::complex<double>(int)> const& response)
{
    int const n = static_cast<int>(source.size());
    real_.assign(std::size_t(2 * n), 0.0);
    spectrum_.resize(std::size_t(n + 1));
    std::copy(source.begin(), source.end(), real_.begin());
    fft_->forward(n, real_.data(), spectrum_.data());
    for (int m = 0; m <= n; ++m) spectrum_[std::size_t(m)] *= response(m);
    fft_->inverse(n, spectrum_.data(), real_.data());
    std::vector<double> out(static_cast<std::size_t>(n));
    double const norm = 1.0 / double(2 * n);  // the inverse is unnormalized
    for (int i = 0; i < n; ++i) out[std::size_t(i)] = real_[std::size_t(i)] * norm;
    return out;
}

std::vector<double> line_kernel(std::function<double(double)> const& f, double hs, int n, bool trailing, double cut)
{
    // Each half of the triangle by Gauss-Legendre in w with u = a + (b - a) w^2 (du = 2 (b - a) w dw):
    // smooth in w even for f ~ u^-1/2 at u = a = 0. A half reaching past the cut ends at it.
    GaussLegendre const& gl = gauss_legendre_16();
    auto const half = [&](double a, double b, bool rising, double m) {
        if (a >= cut) return 0.0;
        b = std::min(b, cut);
        double sum = 0;
        for (int q = 0; q < gl.points; ++q) {
            double const w = gl.x[q], u = a + (b - a) * w * w;
            double const tri = rising ? u / hs - m + 1.0 : m + 1.0 - u / hs;
            sum += gl.w[q] * f(u) * tri * 2.0 * (b - a) * w;
        }
        return sum / hs;
    };
    std::vector<double> k(std::size_t(2 * n), 0.0);
    for (int m = 0; m < n; ++m) {
        double const md = double(m);
        double v = half(md * hs, (md + 1.0) * hs, false, md);
        if (m > 0) v += half((md - 1.0) * hs, md * hs, true, md);
        if (trailing || m == 0)
            k[std::size_t(m)] = v;
        else
            k[std::size_t(2 * n - m)] = v;
    }
    return k;
}

}  // namespace gt
