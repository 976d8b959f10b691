// Sizing the charge grid to the bunch each kick: extent (or rms) reductions and the spacing rule.
//
// Spacing: the bunch extent times (1 + 2 margin), over the node intervals the shape leaves inside
// (n - 1 for CIC, n - 2 for TSC, whose stencil reaches half a cell further), times a headroom of
// 10 %, rounded *up* to the ladder 2^(k/16); the grid is centred on the bunch. A previous grid's
// spacing is kept while the bunch still fits it with the asked margin and it is at most
// k_spacing_slack times the spacing the bunch needs. So the spacing, hence the Green's function, stays
// the same while the bunch breathes by about +-10 %, and its transform is reused (SpaceChargeSolver);
// the resolution given away is bounded by those factors.
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/spacecharge/GridGeometry.hh"
#include "kernels/spacecharge/ShapeFunction.hh"

namespace gt {

//! N = 6: x, y, z, -x, -y, -z of live particles (reduce with Max), -inf for lost ones.
struct ExtentTerms {
    ParticleView p;
    double rest_z;
    GT_HOST_DEVICE void operator()(size_type i, double* v) const
    {
        if (!p.alive(i)) {
            for (int j = 0; j < 6; ++j) v[j] = -HUGE_VAL;
            return;
        }
        double const z = rest_z * p.t[i];
        v[0] = p.x[i];
        v[1] = p.y[i];
        v[2] = z;
        v[3] = -p.x[i];
        v[4] = -p.y[i];
        v[5] = -z;
    }
};

//! N = 4: 1, x, y, z of live particles (reduce with Sum).
struct CentroidTerms3 {
    ParticleView p;
    double rest_z;
    GT_HOST_DEVICE void operator()(size_type i, double* v) const
    {
        bool const live = p.alive(i);
        v[0] = live ? 1.0 : 0.0;
        v[1] = live ? p.x[i] : 0.0;
        v[2] = live ? p.y[i] : 0.0;
        v[3] = live ? rest_z * p.t[i] : 0.0;
    }
};

//! N = 3: squared deviations from `mean` of live particles (reduce with Sum).
struct SpreadTerms3 {
    ParticleView p;
    double rest_z;
    double mean[3];
    GT_HOST_DEVICE void operator()(size_type i, double* v) const
    {
        if (!p.alive(i)) {
            v[0] = v[1] = v[2] = 0.0;
            return;
        }
        double const d[3] = {p.x[i] - mean[0], p.y[i] - mean[1], rest_z * p.t[i] - mean[2]};
        for (int j = 0; j < 3; ++j) v[j] = d[j] * d[j];
    }
};

//! The region the grid must cover [m], rest frame.
struct BunchBox {
    double lo[3];
    double hi[3];
};

//! Spacing rounded up to the ladder 2^(k/16) (host only).
inline double ladder_spacing(double h)
{
    double const k = std::ceil(16.0 * std::log2(h));
    double q = std::exp2(k / 16.0);
    if (q < h) q = std::exp2((k + 1.0) / 16.0);  // guard against log2 rounding down
    return q;
}

//! A new spacing is this much coarser than needed: room for the bunch to grow.
inline constexpr double k_spacing_headroom = 1.1;
//! How much coarser than needed a previous grid's spacing may be and still be kept.
inline constexpr double k_spacing_slack = 1.3;

//! The grid of n[3] nodes covering `box` with `margin` (a fraction of the extent) on each side.
//! A dimension of zero extent (one particle, a flat bunch) borrows the largest other extent, or
//! 1 mm when every extent is zero, so that the grid is never degenerate.
inline GridGeometry size_grid(BunchBox const& box, int const n[3], double margin, ParticleShape shape,
                              GridGeometry const* previous = nullptr)
{
    double extent[3], largest = 0.0;
    for (int d = 0; d < 3; ++d) {
        extent[d] = box.hi[d] - box.lo[d];
        if (!(extent[d] >= 0.0) || !std::isfinite(extent[d]))
            throw std::runtime_error(
                "space charge: the bunch extent is not finite (a coordinate is NaN or inf)");
        largest = std::max(largest, extent[d]);
    }
    if (largest == 0.0) largest = 1e-3;
    int const inner = shape == ParticleShape::cic ? 1 : 2;
    GridGeometry g;
    g.nx = n[0];
    g.ny = n[1];
    g.nz = n[2];
    double* h[3] = {&g.hx, &g.hy, &g.hz};
    double* origin[3] = {&g.x0, &g.y0, &g.z0};
    for (int d = 0; d < 3; ++d) {
        if (n[d] < inner + 2)
            throw std::runtime_error("space charge: the grid needs at least " + std::to_string(inner + 2) +
                                     " nodes per dimension for this shape");
        double const e = extent[d] > 1e-9 * largest ? extent[d] : largest;
        double const needed = e * (1.0 + 2.0 * margin) / double(n[d] - inner);
        double const before = previous == nullptr ? 0.0
                              : d == 0            ? previous->hx
                              : d == 1            ? previous->hy
                                                  : previous->hz;
        bool const same_nodes =
            previous != nullptr && previous->nx == g.nx && previous->ny == g.ny && previous->nz == g.nz;
        bool const keep = same_nodes && before >= needed && before <= k_spacing_slack * needed;
        *h[d] = keep ? before : ladder_spacing(k_spacing_headroom * needed);
        double const centre = 0.5 * (box.lo[d] + box.hi[d]);
        *origin[d] = centre - 0.5 * double(n[d] - 1) * *h[d];
    }
    return g;
}

}  // namespace gt
