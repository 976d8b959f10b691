// The strip chain on the CPU: OpenMP for-each, serial scans, std::sort / std::stable_sort of
// (key, index) pairs (the same order: the indices are distinct and start in increasing order).
#include <algorithm>
#include <cstring>
#include <numeric>
#include <utility>
#include <vector>

#include "kernels/cpu/CpuDetectorOps.hh"
#include "kernels/cpu/Executor.hh"
#include "kernels/detector/StripChain.hh"

namespace gt {
namespace {

//! The detector's CPU operations (memory space, for_each, describe) and the strip chain's own.
struct CpuStripOps : CpuDetectorOps {
    static std::uint64_t exclusive_scan(std::uint32_t const* in, std::uint32_t* out, std::size_t n)
    {
        std::uint64_t k = 0;
        for (std::size_t i = 0; i < n; ++i) {
            out[i] = static_cast<std::uint32_t>(k);
            k += in[i];
        }
        return k;
    }
    static void iota(std::uint32_t* v, std::size_t n) { std::iota(v, v + n, 0u); }
    //! Stable by key: std::sort on (key, index) (the indices break ties as a stable sort would) or
    //! std::stable_sort (a merge sort) on the key alone.
    static void sort_pairs(std::uint64_t* keys, std::uint32_t* values, std::size_t n, StripSort method)
    {
        std::vector<std::pair<std::uint64_t, std::uint32_t>> v(n);
        for (std::size_t i = 0; i < n; ++i) v[i] = {keys[i], values[i]};
        if (method == StripSort::radix)
            std::sort(v.begin(), v.end());
        else
            std::stable_sort(v.begin(), v.end(),
                             [](auto const& a, auto const& b) { return a.first < b.first; });
        for (std::size_t i = 0; i < n; ++i) {
            keys[i] = v[i].first;
            values[i] = v[i].second;
        }
    }
    static void copy_to_host(void* dst, void const* src, std::size_t bytes)
    {
        if (bytes) std::memcpy(dst, src, bytes);
    }
    static void synchronize() {}
};

}  // namespace

std::unique_ptr<StripKernels> make_cpu_strip_kernels() { return std::make_unique<StripChain<CpuStripOps>>(); }

}  // namespace gt
