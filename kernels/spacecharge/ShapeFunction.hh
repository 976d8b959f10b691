// Particle shapes shared by deposition and gather: cloud-in-cell (CIC, linear, 2 nodes per
// dimension) and triangular-shaped cloud (TSC, quadratic, 3 nodes per dimension).
//
// Hockney & Eastwood, Computer Simulation Using Particles (1988), sections 5-3 and 5-4: with u the
// position in units of the spacing measured from node 0,
//   CIC: nodes i = floor(u), i + 1, weights 1 - f, f (f = u - i);
//   TSC: nodes i - 1, i, i + 1 around the nearest node i = round(u), with d = u - i in [-1/2, 1/2],
//        weights (1/2 - d)^2 / 2, 3/4 - d^2, (1/2 + d)^2 / 2.
// Both sets of weights sum to 1 (charge conservation) and the same weights are used to gather, which
// makes the scheme free of self-force (docs/physics.md 6.5).
#pragma once

#include <cstdint>

#include "kernels/core/Macros.hh"

namespace gt {

enum class ParticleShape : std::int32_t { cic, tsc };

//! The nodes and weights of one particle along one dimension.
struct Stencil1D {
    int first;    //!< first node
    double w[3];  //!< weights of nodes first, first + 1 (, first + 2)
};

//! Number of nodes a shape touches per dimension.
GT_HOST_DEVICE GT_FORCEINLINE int shape_width(ParticleShape s) { return s == ParticleShape::cic ? 2 : 3; }

//! The stencil of position u (in units of the spacing) on n nodes; false when any of its nodes
//! would fall outside [0, n) or u is not finite. The boundary is inside: u in [0, n - 1] for CIC,
//! u in [1/2, n - 3/2] for TSC.
GT_HOST_DEVICE inline bool stencil_1d(ParticleShape shape, double u, int n, Stencil1D& s)
{
    if (shape == ParticleShape::cic) {
        if (!(u >= 0.0 && u <= double(n - 1))) return false;  // also false for NaN
        int i = static_cast<int>(u);                          // floor for u >= 0
        if (i > n - 2) i = n - 2;                             // u = n - 1 exactly
        double const f = u - double(i);
        s.first = i;
        s.w[0] = 1.0 - f;
        s.w[1] = f;
        s.w[2] = 0.0;
        return n >= 2;
    }
    if (!(u >= 0.5 && u <= double(n) - 1.5)) return false;
    int i = static_cast<int>(u + 0.5);  // nearest node
    if (i > n - 2) i = n - 2;
    double const d = u - double(i);
    double const a = 0.5 - d, b = 0.5 + d;
    s.first = i - 1;
    s.w[0] = 0.5 * a * a;
    s.w[1] = 0.75 - d * d;
    s.w[2] = 0.5 * b * b;
    return n >= 3;
}

}  // namespace gt
