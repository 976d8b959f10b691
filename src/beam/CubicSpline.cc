// Natural cubic spline on a uniform grid: the tridiagonal system for the knot second derivatives,
// solved by the Thomas algorithm (diagonally dominant: 4 against 1 + 1, so no pivoting is needed).
// Reference: de Boor, A Practical Guide to Splines (rev. ed.), chapter IV.
#include "beam/CubicSpline.hh"

#include <stdexcept>

namespace gt {

std::vector<double> natural_cubic_spline(std::vector<double> const& f, double dz)
{
    std::size_t const n = f.size();
    if (n < 3 || !(dz > 0.0))
        throw std::invalid_argument("natural_cubic_spline: needs >= 3 points and dz > 0");
    // M_{i-1} + 4 M_i + M_{i+1} = 6 (f_{i+1} - 2 f_i + f_{i-1}) / dz^2, M_0 = M_{n-1} = 0.
    std::vector<double> m(n, 0.0), diag(n, 4.0), rhs(n, 0.0);
    double const scale = 6.0 / (dz * dz);
    for (std::size_t i = 1; i + 1 < n; ++i) rhs[i] = scale * (f[i + 1] - 2.0 * f[i] + f[i - 1]);
    for (std::size_t i = 2; i + 1 < n; ++i) {
        double const w = 1.0 / diag[i - 1];
        diag[i] -= w;
        rhs[i] -= w * rhs[i - 1];
    }
    for (std::size_t i = n - 2; i >= 1; --i) m[i] = (rhs[i] - m[i + 1]) / diag[i];  // m[n-1] = 0
    std::vector<double> c(4 * (n - 1));
    for (std::size_t i = 0; i + 1 < n; ++i) {
        c[4 * i] = f[i];
        c[4 * i + 1] = (f[i + 1] - f[i]) / dz - dz * (2.0 * m[i] + m[i + 1]) / 6.0;
        c[4 * i + 2] = 0.5 * m[i];
        c[4 * i + 3] = (m[i + 1] - m[i]) / (6.0 * dz);
    }
    return c;
}

}  // namespace gt
