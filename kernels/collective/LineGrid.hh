// The longitudinal grid of the collective effects: n nodes along t = c (t_arrival - t_ref), and each
// particle's cloud-in-cell stencil on it (the 1D case of the space-charge shapes, ShapeFunction.hh).
#pragma once

#include "kernels/core/Macros.hh"
#include "kernels/spacecharge/ShapeFunction.hh"

namespace gt {

struct LineGrid {
    double t0 = 0;  //!< [m] t of node 0
    double h = 1;   //!< [m] node spacing in t (a distance of beta h along the bunch)
    int n = 0;      //!< nodes

    GT_HOST_DEVICE GT_FORCEINLINE double node_t(int i) const { return t0 + double(i) * h; }
};

//! The two nodes and CIC weights of a particle at t; false when outside the grid or not finite.
GT_HOST_DEVICE GT_FORCEINLINE bool line_stencil(LineGrid const& g, double t, Stencil1D& s)
{
    return stencil_1d(ParticleShape::cic, (t - g.t0) / g.h, g.n, s);
}

}  // namespace gt
