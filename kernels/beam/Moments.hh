// Beam moments as one reduction: count, centroid, central second moments and largest amplitudes in
// one pass over the particles (one kernel and one host synchronization on the GPU). Lost particles
// contribute nothing.
#pragma once

#include <cmath>

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"

namespace gt {

//! What the reductions give: count, centroid, covariance and largest amplitudes of the live beam.
struct BeamMoments {
    double alive = 0;
    double mean[6] = {};     //!< <x>, <px>, <y>, <py>, <t>, <pt>
    double cov[6][6] = {};   //!< central second moments
    double max_abs[4] = {};  //!< max |x|, |y|, |t|, |pt| over live particles
};

namespace moments {

GT_HOST_DEVICE GT_FORCEINLINE void coordinates(ParticleView const& p, size_type i, double* z)
{
    z[0] = p.x[i];
    z[1] = p.px[i];
    z[2] = p.y[i];
    z[3] = p.py[i];
    z[4] = p.t[i];
    z[5] = p.pt[i];
}

//! The state of a part of the beam: [0] count, [1, 7) means, [7, 28) central second moments times
//! the count (upper triangle, row by row), [28, 32) largest |x|, |y|, |t|, |pt| (-inf: none).
//! Two parts merge by Chan, Golub and LeVeque's pairwise update ("Algorithms for computing the
//! sample variance", Am. Stat. 37 (1983) 242, eq. 2.1), which has no <z^2> - <z>^2 cancellation.
//! Inside a lane (16 particles) the sums of z - s and (z - s)(z - s)^T are taken about the lane's
//! first live particle s, which lies within a few rms of the lane's mean, so turning them into a
//! state loses only a few ulps and needs no division per particle. One pass over the particles
//! gives what a mean pass and then a central-moment pass gave.
struct Merge {
    static constexpr int size = 32;
    static constexpr int k_mean = 1, k_m2 = 7, k_max = 28;
    //! An item: [0] 1 (live) or 0, [1, 7) the coordinates, [7, 11) |x|, |y|, |t|, |pt|.
    static constexpr int item_size = 11;
    //! A lane: [0] count, [1, 7) the shift s, [7, 13) sum of z - s, [13, 34) sum of (z - s)(z - s)^T
    //! (upper triangle), [34, 38) largest amplitudes.
    static constexpr int lane_size = 38;

    GT_HOST_DEVICE static void identity(double* a)
    {
        for (int j = 0; j < k_max; ++j) a[j] = 0.0;
        for (int j = k_max; j < size; ++j) a[j] = -HUGE_VAL;
    }
    GT_HOST_DEVICE static void combine(double* a, double const* b)
    {
        for (int j = k_max; j < size; ++j) a[j] = b[j] > a[j] ? b[j] : a[j];
        double const na = a[0], nb = b[0];
        if (nb == 0.0) return;
        if (na == 0.0) {
            for (int j = 0; j < k_max; ++j) a[j] = b[j];
            return;
        }
        double const n = na + nb;
        double const f = nb / n;  // weight of b's mean
        double const w = na * f;  // na nb / n
        double d[6], dw[6];
        for (int j = 0; j < 6; ++j) {
            d[j] = b[k_mean + j] - a[k_mean + j];
            dw[j] = d[j] * w;
            a[k_mean + j] = a[k_mean + j] + d[j] * f;
        }
        int k = k_m2;
        for (int r = 0; r < 6; ++r)
            for (int c = r; c < 6; ++c, ++k) a[k] = (a[k] + b[k]) + dw[r] * d[c];
        a[0] = n;
    }

    GT_HOST_DEVICE static void lane_identity(double* lane)
    {
        for (int j = 0; j < 34; ++j) lane[j] = 0.0;
        for (int j = 34; j < lane_size; ++j) lane[j] = -HUGE_VAL;
    }
    GT_HOST_DEVICE static void lane_add(double* lane, double const* v)
    {
        if (v[0] == 0.0) return;  // lost
        if (lane[0] == 0.0)
            for (int j = 0; j < 6; ++j) lane[1 + j] = v[1 + j];
        double d[6];
        for (int j = 0; j < 6; ++j) {
            d[j] = v[1 + j] - lane[1 + j];
            lane[7 + j] += d[j];
        }
        int k = 13;
        for (int r = 0; r < 6; ++r)
            for (int c = r; c < 6; ++c, ++k) lane[k] += d[r] * d[c];
        for (int j = 0; j < 4; ++j) lane[34 + j] = v[7 + j] > lane[34 + j] ? v[7 + j] : lane[34 + j];
        lane[0] += 1.0;
    }
    GT_HOST_DEVICE static void lane_finish(double const* lane, double* a)
    {
        identity(a);
        for (int j = 0; j < 4; ++j) a[k_max + j] = lane[34 + j];
        double const n = lane[0];
        if (n == 0.0) return;
        double const inv_n = 1.0 / n;
        a[0] = n;
        for (int j = 0; j < 6; ++j) a[k_mean + j] = lane[1 + j] + lane[7 + j] * inv_n;
        int k = 0;
        for (int r = 0; r < 6; ++r)
            for (int c = r; c < 6; ++c, ++k) a[k_m2 + k] = lane[13 + k] - lane[7 + r] * lane[7 + c] * inv_n;
    }
};

//! One particle as a Merge item; a lost one has count 0.
struct Terms {
    ParticleView p;
    GT_HOST_DEVICE void operator()(size_type i, double* v) const
    {
        v[0] = 0.0;
        if (!p.alive(i)) return;
        v[0] = 1.0;
        coordinates(p, i, v + 1);
        v[7] = v[1] < 0 ? -v[1] : v[1];
        v[8] = v[3] < 0 ? -v[3] : v[3];
        v[9] = v[5] < 0 ? -v[5] : v[5];
        v[10] = v[6] < 0 ? -v[6] : v[6];
    }
};

}  // namespace moments
}  // namespace gt
