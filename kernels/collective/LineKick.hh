// The collective kick of one particle: the per-node kicks of pt, px, py (wakes, LSC, CSR, already
// summed and scaled on the host) interpolated to the particle with its cloud-in-cell weights, the
// same weights it was deposited with (no self-force from the interpolation, as in the space charge).
#pragma once

#include "kernels/collective/LineGrid.hh"
#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"

namespace gt {

struct LineKick {
    ParticleView p;
    LineGrid g;
    double const* dpt;  //!< [1] per node; nullptr: none
    double const* dpx;  //!< [1] per node; nullptr: none
    double const* dpy;  //!< [1] per node; nullptr: none
    GT_HOST_DEVICE void operator()(size_type i) const
    {
        Stencil1D s;
        if (!p.alive(i) || !line_stencil(g, p.t[i], s)) return;
        int const k = s.first;
        if (dpt) p.pt[i] += s.w[0] * dpt[k] + s.w[1] * dpt[k + 1];
        if (dpx) p.px[i] += s.w[0] * dpx[k] + s.w[1] * dpx[k + 1];
        if (dpy) p.py[i] += s.w[0] * dpy[k] + s.w[1] * dpy[k + 1];
    }
};

}  // namespace gt
