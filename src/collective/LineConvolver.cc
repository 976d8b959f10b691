// Zero-padded FFT convolutions on the longitudinal grid (see LineConvolver.hh).
#include "collective/LineConvolver.hh"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fftw3.h>

#include "collective/GaussLegendre.hh"

namespace gt {

LineConvolver::~LineConvolver()
{
    if (forward_) fftw_destroy_plan(static_cast<fftw_plan>(forward_));
    if (inverse_) fftw_destroy_plan(static_cast<fftw_plan>(inverse_));
    fftw_free(real_);
    fftw_free(spectrum_);
}

void LineConvolver::plan(int n)
{
    if (n == n_) return;
    if (forward_) fftw_destroy_plan(static_cast<fftw_plan>(forward_));
    if (inverse_) fftw_destroy_plan(static_cast<fftw_plan>(inverse_));
    fftw_free(real_);
    fftw_free(spectrum_);
    real_ = fftw_alloc_real(std::size_t(2 * n));
    auto* c = fftw_alloc_complex(std::size_t(n + 1));
    spectrum_ = c;
    // FFTW_ESTIMATE: the plan does not depend on timing, so the same input gives the same bits.
    forward_ = fftw_plan_dft_r2c_1d(2 * n, real_, c, FFTW_ESTIMATE);
    inverse_ = fftw_plan_dft_c2r_1d(2 * n, c, real_, FFTW_ESTIMATE);
    if (!forward_ || !inverse_) throw std::runtime_error("FFTW could not plan the collective-effect transforms");
    n_ = n;
}

std::vector<double> LineConvolver::convolve(std::vector<double> const& kernel, std::vector<double> const& source)
{
    int const n = static_cast<int>(source.size());
    if (kernel.size() != 2 * source.size()) throw std::logic_error("LineConvolver: kernel is not 2n long");
    plan(n);
    auto* c = static_cast<fftw_complex*>(spectrum_);
    std::vector<std::complex<double>> k_spec(std::size_t(n + 1));
    for (int i = 0; i < 2 * n; ++i) real_[i] = kernel[std::size_t(i)];
    fftw_execute(static_cast<fftw_plan>(forward_));
    for (int m = 0; m <= n; ++m) k_spec[std::size_t(m)] = {c[m][0], c[m][1]};
    return filter(source, [&](int m) { return k_spec[std::size_t(m)]; });
}

std::vector<double> LineConvolver::filter(std::vector<double> const& source,
                                          std::function<std::complex<double>(int)> const& response)
{
    int const n = static_cast<int>(source.size());
    plan(n);
    auto* c = static_cast<fftw_complex*>(spectrum_);
    for (int i = 0; i < n; ++i) real_[i] = source[std::size_t(i)];
    for (int i = n; i < 2 * n; ++i) real_[i] = 0.0;
    fftw_execute(static_cast<fftw_plan>(forward_));
    for (int m = 0; m <= n; ++m) {
        std::complex<double> const v = std::complex<double>(c[m][0], c[m][1]) * response(m);
        c[m][0] = v.real();
        c[m][1] = v.imag();
    }
    fftw_execute(static_cast<fftw_plan>(inverse_));
    std::vector<double> out(static_cast<std::size_t>(n));
    double const norm = 1.0 / double(2 * n);  // FFTW's inverse is unnormalized
    for (int i = 0; i < n; ++i) out[std::size_t(i)] = real_[i] * norm;
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
