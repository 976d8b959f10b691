// Integer atomic addition on host (OpenMP threads) and device: how step actions count, append hits
// (sorted by a total order afterwards) and tally energy. Integer sums do not depend on the order, so
// both backends agree bit for bit.
#pragma once

#include <cstdint>

#include "kernels/core/Macros.hh"

namespace gt {

GT_HOST_DEVICE GT_FORCEINLINE std::uint64_t atomic_add(std::uint64_t* address, std::uint64_t value)
{
#if GT_ON_DEVICE
    static_assert(sizeof(unsigned long long) == sizeof(std::uint64_t));
    return atomicAdd(reinterpret_cast<unsigned long long*>(address), static_cast<unsigned long long>(value));
#else
    return __atomic_fetch_add(address, value, __ATOMIC_RELAXED);
#endif
}

}  // namespace gt
