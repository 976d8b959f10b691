// The one fused multiply-add of the element maps: a * b + c rounded once, the same bits on the host
// and the device.
//
// Both builds forbid implicit contraction (-ffp-contract=off on the host, --fmad=false for nvcc), so
// a * b + c written out is always two roundings on either side; where a map wants one rounding it
// says so with fma_rn. IEEE 754 defines fusedMultiplyAdd as correctly rounded, so __fma_rn on the
// GPU and std::fma on the CPU give the same bits whatever instruction or library computes them.
//
// The CPU build needs FMA instructions (x86-64: -mfma, set by CMake's GTRACK_FMA; ARMv8 and POWER
// always have them) for std::fma to be one instruction (vfmadd). Without them std::fma is a libm call
// (glibc's exact software emulation, tens of nanoseconds each: the exact maps would run several times
// slower), so CMake refuses such a build unless asked for GTRACK_FMA=OFF, which defines
// GTRACK_FMA_UNFUSED: then fma_rn is the unfused a * b + c (two roundings, inline, no libm call), fast
// everywhere but no longer bit for bit with the GPU or the regression references (docs/performance.md,
// "FMA in the element maps").
#pragma once

#include <cmath>

#include "kernels/core/Macros.hh"

namespace gt {

//! a * b + c with one rounding (IEEE 754 fusedMultiplyAdd, round to nearest even).
GT_HOST_DEVICE GT_FORCEINLINE double fma_rn(double a, double b, double c)
{
#if defined(__CUDA_ARCH__)
    return __fma_rn(a, b, c);
#elif defined(GTRACK_FMA_UNFUSED)
    return a * b + c;
#else
    return std::fma(a, b, c);
#endif
}

}  // namespace gt
