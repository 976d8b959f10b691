// CSR entrance transient and drift wake (see CsrTransient.hh).
#include "collective/CsrTransient.hh"

#include <cmath>

namespace gt {

CsrTransientWake csr_entrance_wake(double radius, double phi)
{
    CsrTransientWake w;
    w.edge = 4.0 / (radius * phi);
    w.near = radius * phi * phi * phi / 24.0;
    w.far = 4.0 * w.near;
    double const c = 2.0 / std::cbrt(3.0 * radius * radius);
    w.kernel = [c](double u) { return u > 0 ? c / std::cbrt(u) : 0.0; };
    return w;
}

double csr_drift_angle(double u, double radius, double big_x)
{
    if (!(u > 0)) return 0.0;
    // g(psi) = R psi^3 (psi + 4X) - 24 u (psi + X) is convex for psi > 0 with g(0) <= 0, and
    // g((24u/R)^1/3) = 72 u X >= 0: Newton from there falls monotonically onto the one positive root.
    double psi = std::cbrt(24.0 * u / radius);
    for (int i = 0; i < 100; ++i) {
        double const g = radius * psi * psi * psi * (psi + 4.0 * big_x) - 24.0 * u * (psi + big_x);
        double const slope = radius * psi * psi * (4.0 * psi + 12.0 * big_x) - 24.0 * u;
        double const step = g / slope;
        psi -= step;
        if (!(std::abs(step) > 1e-15 * psi)) break;
    }
    return psi;
}

CsrTransientWake csr_drift_wake(double radius, double phi_m, double x)
{
    double const big_x = x / radius;
    CsrTransientWake w;
    w.edge = 4.0 / (radius * (phi_m + 2.0 * big_x));
    w.near = radius * phi_m * phi_m * phi_m / 24.0 * (phi_m + 4.0 * big_x) / (phi_m + big_x);
    w.far = radius / 6.0 * phi_m * phi_m * (phi_m + 3.0 * big_x);
    w.kernel = [radius, big_x](double u) {
        return u > 0 ? 4.0 / radius / (csr_drift_angle(u, radius, big_x) + 2.0 * big_x) : 0.0;
    };
    return w;
}

std::vector<double> csr_transient_field(CsrTransientWake const& wake, std::vector<double> const& lambda,
                                        std::vector<double> const& slope, double hs, LineConvolver& convolver)
{
    int const n = static_cast<int>(lambda.size());
    std::vector<double> field(std::size_t(n), 0.0);
    if (!(wake.near > 0)) return field;
    // lambda at node i + shift/hs, linear between nodes, zero off the grid.
    auto const shifted = [&](int i, double shift) {
        double const at = double(i) + shift / hs;
        if (!(at <= double(n - 1))) return 0.0;
        auto const j = static_cast<int>(std::floor(at));
        double const f = at - double(j);
        return j + 1 < n ? (1.0 - f) * lambda[std::size_t(j)] + f * lambda[std::size_t(j + 1)]
                         : lambda[std::size_t(j)];
    };
    for (int i = 0; i < n; ++i)
        field[std::size_t(i)] = wake.edge * (shifted(i, wake.near) - shifted(i, wake.far));
    std::vector<double> const kernel = line_kernel(wake.kernel, hs, n, false, wake.near);
    std::vector<double> const integral = convolver.convolve(kernel, slope);
    for (int i = 0; i < n; ++i) field[std::size_t(i)] += hs * integral[std::size_t(i)];
    return field;
}

}  // namespace gt
