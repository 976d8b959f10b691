// Integer atomic addition on host (OpenMP threads) and device: the only way step actions append
// hits and secondaries and tally energy. Integer sums do not depend on the order, so both backends agree bit
// for bit.
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

//! Adds n to *counter only if the result stays within limit; returns the old value, or
//! k_reserve_failed (nothing added) when it would not fit. Secondaries reserve buffer room this way.
inline constexpr std::uint64_t k_reserve_failed = ~std::uint64_t(0);

GT_HOST_DEVICE inline std::uint64_t atomic_reserve(std::uint64_t* counter, std::uint64_t n,
                                                   std::uint64_t limit)
{
#if GT_ON_DEVICE
    auto* const address = reinterpret_cast<unsigned long long*>(counter);
    unsigned long long old = *reinterpret_cast<unsigned long long volatile*>(address);
    for (;;) {
        if (old + n > limit) return k_reserve_failed;
        unsigned long long const seen = atomicCAS(address, old, old + n);
        if (seen == old) return old;
        old = seen;
    }
#else
    std::uint64_t old = __atomic_load_n(counter, __ATOMIC_RELAXED);
    for (;;) {
        if (old + n > limit) return k_reserve_failed;
        if (__atomic_compare_exchange_n(counter, &old, old + n, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            return old;
    }
#endif
}

}  // namespace gt
