// The scalar forms of the lane operations that the element maps are written with, so that one map
// body serves one particle (double coordinates, a bool mask: every GPU thread and the CPU's per-particle
// path) and a block of W particles side by side (kernels/cpu/Lanes.hh: vector coordinates and masks,
// the CPU's structure-of-arrays segment kernel). A map written this way takes the mask of the particles
// it may change (`live`), returns the mask of those still alive, writes through where(), and returns as
// soon as none_left() is left: for one particle that is the early `return false` at the first loss, with the
// same operations in the same order, so both forms give the same bits.
#pragma once

#include "kernels/core/Macros.hh"
#include "kernels/core/PortableMath.hh"

namespace gt {

//! True when no particle of the mask is left (one particle: it is lost).
GT_HOST_DEVICE GT_FORCEINLINE bool none_left(bool m) { return !m; }

//! a where m holds, else b.
template <class T>
GT_HOST_DEVICE GT_FORCEINLINE T select(bool m, T a, T b)
{
    return m ? a : b;
}

//! dst = value where m holds; the rest keep their value (a lost particle keeps its coordinates).
template <class T>
GT_HOST_DEVICE GT_FORCEINLINE void where(bool m, T& dst, T value)
{
    dst = m ? value : dst;
}

//! Correctly rounded square root (IEEE 754), the same on both sides: pmath::sqrt for one particle; the
//! lane form is found by argument-dependent lookup.
GT_HOST_DEVICE GT_FORCEINLINE double sqrt_rn(double x) { return pmath::sqrt(x); }

//! The coordinate type of a particle type: double for Particle, the lane vector for a block.
template <class P>
using coordinate_t = decltype(P::x);

}  // namespace gt
