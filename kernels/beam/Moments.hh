// Beam moments as reductions: centroid pass, central second moments pass, maximum amplitudes pass.
//
// Two passes (mean first, then moments about it) avoid the cancellation of <z^2> - <z>^2 when the
// centroid is far from zero compared with the beam size. Lost particles contribute nothing.
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

//! N = 7: (1, x, px, y, py, t, pt) for live particles, zeros otherwise.
struct CentroidTerms {
    ParticleView p;
    GT_HOST_DEVICE void operator()(size_type i, double* v) const
    {
        if (!p.alive(i)) {
            for (int j = 0; j < 7; ++j) v[j] = 0.0;
            return;
        }
        v[0] = 1.0;
        coordinates(p, i, v + 1);
    }
};

//! N = 21: the upper triangle of (z - mean)(z - mean)^T, row by row.
struct SecondMomentTerms {
    ParticleView p;
    double mean[6];
    GT_HOST_DEVICE void operator()(size_type i, double* v) const
    {
        if (!p.alive(i)) {
            for (int j = 0; j < 21; ++j) v[j] = 0.0;
            return;
        }
        double z[6];
        coordinates(p, i, z);
        for (int a = 0; a < 6; ++a) z[a] -= mean[a];
        int k = 0;
        for (int a = 0; a < 6; ++a)
            for (int b = a; b < 6; ++b) v[k++] = z[a] * z[b];
    }
};

//! N = 4: |x|, |y|, |t|, |pt| for live particles, -inf otherwise (identity of max).
struct AmplitudeTerms {
    ParticleView p;
    GT_HOST_DEVICE void operator()(size_type i, double* v) const
    {
        if (!p.alive(i)) {
            for (int j = 0; j < 4; ++j) v[j] = -HUGE_VAL;
            return;
        }
        v[0] = p.x[i] < 0 ? -p.x[i] : p.x[i];
        v[1] = p.y[i] < 0 ? -p.y[i] : p.y[i];
        v[2] = p.t[i] < 0 ? -p.t[i] : p.t[i];
        v[3] = p.pt[i] < 0 ? -p.pt[i] : p.pt[i];
    }
};

}  // namespace moments
}  // namespace gt
