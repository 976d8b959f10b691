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
    static std::uint64_t scan_vacancies(std::int32_t const* status, std::uint32_t* rank, std::size_t n)
    {
        std::uint32_t k = 0;
        for (std::size_t i = 0; i < n; ++i) {
            rank[i] = k;
            k += status[i] == 0 ? 1u : 0u;
        }
        return k;
    }
    //! out[i] = in[0] + ... + in[i-1]; returns the sum of all.
    static std::uint64_t exclusive_scan(std::uint32_t const* in, std::uint32_t* out, std::size_t n)
    {
        std::uint32_t k = 0;
        for (std::size_t i = 0; i < n; ++i) {
            out[i] = k;
            k += in[i];
        }
        return k;
    }
    //! The slots i < n with select(i), in slot order, into out; returns their number.
    template <class Select>
    static std::uint64_t select_slots(Select const& select, std::uint32_t* out, std::size_t n)
    {
        std::uint64_t k = 0;
        for (std::size_t i = 0; i < n; ++i)
            if (select(static_cast<std::uint32_t>(i))) out[k++] = static_cast<std::uint32_t>(i);
        return k;
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
