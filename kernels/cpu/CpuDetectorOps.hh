// What the detector stepping loop (kernels/detector/DetectorBackend.hh) asks of the CPU: OpenMP
// for-each, serial scans, std::sort, memcpy. A header so that tests can run the loop with the slots
// visited in another order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "kernels/core/Buffer.hh"
#include "kernels/cpu/Executor.hh"
#include "kernels/cpu/HostStageTimer.hh"
#include "kernels/detector/Hit.hh"

namespace gt {

struct CpuDetectorOps {
    static constexpr MemSpace space = MemSpace::host;
    using StageTimer = cpu::HostStageTimer;
    //! Step iterations between two reads of the loop's counts: reading costs the CPU nothing, and one
    //! keeps a checkpoint's scratch arrays those of the last iteration (any number gives the same run).
    static constexpr std::uint64_t k_batch = 1;
    //! Few slots: one thread (waking a team costs more than the work); many: OpenMP. Each slot's
    //! result is the same either way.
    template <class F>
    static void for_each(std::size_t n, F const& f)
    {
        if (n < 1024) {
            for (std::size_t i = 0; i < n; ++i) f(i);
        } else {
            cpu::for_each(n, f);
        }
    }
    static std::string describe()
    {
        return "cpu (OpenMP, " + std::to_string(cpu::thread_count()) + " threads)";
    }
    //! out[i] = key(0) + ... + key(i-1), for i < n.
    template <class Key, class T>
    static void exclusive_scan(Key const& key, T* out, std::size_t n)
    {
        T k = 0;
        for (std::size_t i = 0; i < n; ++i) {
            out[i] = k;
            k += static_cast<T>(key(i));
        }
    }
    static void sort_hits(Hit* hits, std::size_t n) { std::sort(hits, hits + n, HitOrder{}); }
    static void copy_to_host(void* dst, void const* src, std::size_t bytes)
    {
        if (bytes) std::memcpy(dst, src, bytes);
    }
    static void copy_within(void* dst, void const* src, std::size_t bytes)
    {
        if (bytes) std::memcpy(dst, src, bytes);
    }
};

}  // namespace gt
