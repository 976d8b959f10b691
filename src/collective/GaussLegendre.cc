// Gauss-Legendre nodes and weights by Newton's method on the Legendre polynomial (Abramowitz &
// Stegun 25.4.29: w_i = 2 / ((1 - x_i^2) P_n'(x_i)^2) on [-1, 1]).
#include "collective/GaussLegendre.hh"

#include <cmath>

#include "kernels/core/Types.hh"

namespace gt {

GaussLegendre const& gauss_legendre_16()
{
    static GaussLegendre const rule = [] {
        GaussLegendre r{};
        int const n = GaussLegendre::points;
        for (int i = 0; i < n; ++i) {
            double x = std::cos(constants::pi * (double(i) + 0.75) / (double(n) + 0.5));  // A&S 22.16.6
            double dp = 0;
            for (int it = 0; it < 100; ++it) {
                double p0 = 1.0, p1 = x;
                for (int k = 2; k <= n; ++k) {
                    double const p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / double(k);
                    p0 = p1;
                    p1 = p2;
                }
                dp = double(n) * (x * p1 - p0) / (x * x - 1.0);
                double const dx = p1 / dp;
                x -= dx;
                if (std::abs(dx) < 1e-16) break;
            }
            r.x[i] = 0.5 * (1.0 - x);
            r.w[i] = 1.0 / ((1.0 - x * x) * dp * dp);  // 2/(...) on [-1, 1], halved on [0, 1]
        }
        return r;
    }();
    return rule;
}

}  // namespace gt
