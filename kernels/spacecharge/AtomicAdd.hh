// One atomic addition for host threads (OpenMP) and device threads (CUDA), for charge deposition.
// Host code built without OpenMP (nvcc's host pass, GTRACK_OPENMP=OFF) runs on one thread: a plain add.
#pragma once

#include <cstdint>

#include "kernels/core/Macros.hh"

namespace gt {

GT_HOST_DEVICE GT_FORCEINLINE void atomic_add(double* target, double value)
{
#if GT_ON_DEVICE
    atomicAdd(target, value);
#elif defined(_OPENMP)
#pragma omp atomic
    *target += value;
#else
    *target += value;  // no OpenMP: one host thread
#endif
}

//! Integer addition is associative: the sum does not depend on the order of the additions.
GT_HOST_DEVICE GT_FORCEINLINE void atomic_add(std::int64_t* target, std::int64_t value)
{
#if GT_ON_DEVICE
    // Two's complement: the unsigned sum has the bits of the signed sum.
    atomicAdd(reinterpret_cast<unsigned long long*>(target), static_cast<unsigned long long>(value));
#elif defined(_OPENMP)
#pragma omp atomic
    *target += value;
#else
    *target += value;  // no OpenMP: one host thread
#endif
}

}  // namespace gt
