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

// Pre- and post-conditions in the Celeritas manner: checked in debug builds, gone in release.
#ifdef NDEBUG
#define GT_EXPECT(cond) ((void)0)
#define GT_ENSURE(cond) ((void)0)
#else
#define GT_EXPECT(cond) assert(cond)
#define GT_ENSURE(cond) assert(cond)
#endif
