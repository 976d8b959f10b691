// Macros that let one function body compile for the host (g++) and the device (nvcc).
#pragma once

#include <cassert>

#if defined(__CUDACC__)
#define GT_HOST_DEVICE __host__ __device__
#define GT_FORCEINLINE __forceinline__
#else
#define GT_HOST_DEVICE
#define GT_FORCEINLINE inline __attribute__((always_inline))
#endif

#if defined(__CUDA_ARCH__)
#define GT_ON_DEVICE 1
#else
#define GT_ON_DEVICE 0
#endif

// Inlined by force in the host compilation only, plain `inline` for the device: g++ stops inlining
// into the element switch once it has many cases, and a per-particle helper called out of line from
// a map (sincos, focusing, the exact drift) costs the CPU 15-20% of an exact FODO push (callgrind);
// nvcc inlines these on its own, and forcing it there would change the kernels' register allocation.
#if defined(__CUDA_ARCH__)
#define GT_HOST_FORCEINLINE inline
#else
#define GT_HOST_FORCEINLINE inline __attribute__((always_inline))
#endif

// Pre- and post-conditions in the Celeritas manner: checked in debug builds, gone in release.
#ifdef NDEBUG
#define GT_EXPECT(cond) ((void)0)
#define GT_ENSURE(cond) ((void)0)
#else
#define GT_EXPECT(cond) assert(cond)
#define GT_ENSURE(cond) assert(cond)
#endif
