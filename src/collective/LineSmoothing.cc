// Savitzky-Golay smoothing and slope of a histogram (see LineSmoothing.hh).
#include "collective/LineSmoothing.hh"

#include <stdexcept>

namespace gt {

namespace {

std::vector<double> correlate(std::vector<double> const& v, std::vector<double> const& c, int m)
{
    auto const n = static_cast<long>(v.size());
    std::vector<double> out(v.size(), 0.0);
    for (long i = 0; i < n; ++i) {
        double s = 0;
        for (int j = -m; j <= m; ++j) {
            long const k = i + j;
            if (k >= 0 && k < n) s += c[std::size_t(j + m)] * v[std::size_t(k)];
        }
        out[std::size_t(i)] = s;
    }
    return out;
}

}  // namespace

std::vector<double> savitzky_golay(std::vector<double> const& v, int m)
{
    if (m < 0) throw std::logic_error("savitzky_golay: negative half-width");
    if (m == 0) return v;
    double const md = m, den = (2 * md - 1) * (2 * md + 1) * (2 * md + 3);
    std::vector<double> c(std::size_t(2 * m + 1));
    for (int j = -m; j <= m; ++j) c[std::size_t(j + m)] = (3 * (3 * md * md + 3 * md - 1) - 15.0 * j * j) / den;
    return correlate(v, c, m);
}

std::vector<double> savitzky_golay_slope(std::vector<double> const& v, double h, int m)
{
    if (m < 1) throw std::logic_error("savitzky_golay_slope: half-width below 1");
    double const md = m, den = md * (md + 1) * (2 * md + 1) * h;
    std::vector<double> c(std::size_t(2 * m + 1));
    for (int j = -m; j <= m; ++j) c[std::size_t(j + m)] = 3.0 * j / den;
    return correlate(v, c, m);
}

}  // namespace gt
