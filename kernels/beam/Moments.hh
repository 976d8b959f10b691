// Beam moments as one reduction: count, centroid, central second moments and largest amplitudes in
// one pass over the particles (one kernel and one host synchronization on the GPU). Lost particles
// contribute nothing.
#pragma once

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
//! sample variance", Am. Stat. 37 (1983) 242, eq. 2.1), which has no <z^2> - <z>^2 cancellation, so
//! one pass over the particles gives what a mean pass and then a central-moment pass gave.
struct Merge {
    static constexpr int size = 32;
    static constexpr int k_mean = 1, k_m2 = 7, k_max = 28;
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
};

//! One particle as a Merge state: count 1, its coordinates as means, no spread; a lost one is the
//! identity.
struct Terms {
    ParticleView p;
    GT_HOST_DEVICE void operator()(size_type i, double* v) const
    {
        Merge::identity(v);
        if (!p.alive(i)) return;
        v[0] = 1.0;
        coordinates(p, i, v + Merge::k_mean);
        double const x = v[Merge::k_mean], y = v[Merge::k_mean + 2], t = v[Merge::k_mean + 4],
                     pt = v[Merge::k_mean + 5];
        v[Merge::k_max] = x < 0 ? -x : x;
        v[Merge::k_max + 1] = y < 0 ? -y : y;
        v[Merge::k_max + 2] = t < 0 ? -t : t;
        v[Merge::k_max + 3] = pt < 0 ? -pt : pt;
    }
};

}  // namespace moments
}  // namespace gt
