// The detector stepping loop on the CPU: OpenMP for-each, a serial scan, std::sort.
#include <algorithm>
#include <cstring>
#include <string>

#include "kernels/cpu/Executor.hh"
#include "kernels/detector/DetectorBackend.hh"

namespace gt {
namespace {

struct CpuDetectorOps {
    static constexpr MemSpace space = MemSpace::host;
    //! Few slots: one thread (waking a team costs more than the work); many: OpenMP. Each slot's
    //! result is the same either way (hits are sorted before anyone sees them).
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
    static void sort_hits(Hit* hits, std::size_t n) { std::sort(hits, hits + n, HitOrder{}); }
    static void copy_to_host(void* dst, void const* src, std::size_t bytes)
    {
        if (bytes) std::memcpy(dst, src, bytes);
    }
    static void copy_within(void* dst, void const* src, std::size_t bytes)
    {
        if (bytes) std::memcpy(dst, src, bytes);
    }
    static void synchronize() {}
};

}  // namespace

std::unique_ptr<DetectorKernels> make_cpu_detector_kernels()
{
    return std::make_unique<DetectorBackend<CpuDetectorOps>>();
}

}  // namespace gt
