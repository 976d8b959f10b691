// Finding the RF crest (see RfCrest.hh).
#include "beam/RfCrest.hh"

#include <cmath>

#include "kernels/core/Types.hh"

namespace gt {

namespace {

constexpr int k_crest_scan_points = 36;  //!< coarse phase scan before the golden-section search
constexpr int k_crest_refinements = 80;  //!< golden-section steps: 0.618^80 x 10 deg ~ 1e-17 rad

}  // namespace

std::optional<double> find_rf_crest(std::function<std::optional<double>(double)> const& gain)
{
    auto value = [&](double phase) { return gain(phase).value_or(-1e300); };
    double const step = constants::two_pi / k_crest_scan_points;
    double best = 0.0, best_gain = -1e300;
    for (int i = 0; i < k_crest_scan_points; ++i) {
        double const g = value(i * step);
        if (g > best_gain) {
            best_gain = g;
            best = i * step;
        }
    }
    if (best_gain <= -1e300) return std::nullopt;
    double const golden = 0.5 * (std::sqrt(5.0) - 1.0);
    double a = best - step, b = best + step;
    double c = b - golden * (b - a), d = a + golden * (b - a);
    double gc = value(c), gd = value(d);
    for (int i = 0; i < k_crest_refinements && b - a > 1e-15; ++i) {
        if (gc > gd) {
            b = d;
            d = c;
            gd = gc;
            c = b - golden * (b - a);
            gc = value(c);
        } else {
            a = c;
            c = d;
            gc = gd;
            d = a + golden * (b - a);
            gd = value(d);
        }
    }
    return 0.5 * (a + b);
}

}  // namespace gt
