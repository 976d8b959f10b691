// The fitted core of a scattering distribution: both the slab measurements (SlabMeasurementSupport.hh)
// and Hanson's foils (HansonFoilSupport.hh) read a width from the core of a histogram, where a Gaussian
// (or an exponential in theta^2) holds, leaving the single-scattering tail out.
#pragma once

#include <cmath>
#include <vector>

namespace gt::test {

//! The slope b of ln n = a + b x, fitted by least squares weighted by the counts n, to the counts of
//! `values` in 12 equal bins from 0 to `top`; x is a bin's centre c, or c^2 with `squared` (a Gaussian in
//! c is then a straight line). Empty bins are left out.
inline double core_log_slope(std::vector<double> const& values, double top, bool squared)
{
    int const nbins = 12;
    std::vector<double> counts(nbins, 0.0);
    for (double x : values) {
        int const k = static_cast<int>(x / top * nbins);
        if (k >= 0 && k < nbins) counts[k] += 1;
    }
    double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int k = 0; k < nbins; ++k) {
        if (counts[k] <= 0) continue;
        double const c = (k + 0.5) * top / nbins;
        double const x = squared ? c * c : c, y = std::log(counts[k]), w = counts[k];
        sw += w;
        sx += w * x;
        sy += w * y;
        sxx += w * x * x;
        sxy += w * x * y;
    }
    return (sw * sxy - sx * sy) / (sw * sxx - sx * sx);
}

}  // namespace gt::test
