// The detector stepping loop on the GPU: one kernel per action; CUB scans (vacant slots, secondaries
// per slot, the slot order) with scratch kept between iterations, none of which the host waits for:
// the loop's counts stay on the device (LoopPlan.hh) and are read once per batch of k_batch
// iterations. The hit sort by thrust (CUB radix/merge sort underneath), once a run.
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/sort.h>
#include <cub/device/device_scan.cuh>

#include <cstdlib>
#include <string>

#include "kernels/core/Device.hh"
#include "kernels/cuda/DeferredTimer.cuh"
#include "kernels/cuda/Executor.cuh"
#include "kernels/detector/DetectorBackend.hh"

namespace gt {
namespace {

//! Scratch of the scans, kept between calls: thrust::device allocated and freed it in every call,
//! three times an iteration, and cudaFree waits for the whole device. Grows only, and is never freed
//! (not at exit either, after the runtime).
template <class T>
T* scratch(Buffer<T>& b, std::size_t n)
{
    if (b.size() < n) b = Buffer<T>(n, MemSpace::device);
    return b.data();
}
Buffer<char>& g_temp = *new Buffer<char>();

//! Blocks of 256 threads each step action asks to keep resident per SM (its register bound: 65536 /
//! (256 x blocks)); 0: none but the file's cap of 96 (CMakeLists.txt).
//! - Field propagation: 2. Its registers the cap of 96 spills heavily (ptxas -v, sm_90: 560-640 bytes
//!   of stack, 0.8 kB of spill stores). At 256 threads a block, 96 and 128 registers both leave 2
//!   blocks resident per SM (65536 / (256 x 96) = 2.7): 128 spills less at the same occupancy.
//! - The interactions, the along-step action and the straight-line propagation: 4, i.e. 64 registers
//!   (92-94, 82 and 92 without: 2 blocks, 25% occupancy; see docs/performance.md for the spills this
//!   costs). GTRACK_TEST_DETECTOR_UNBOUNDED=1 runs them without the bound, to measure what it buys.
template <class F>
inline constexpr int k_min_blocks = 0;
template <class Field>
inline constexpr int k_min_blocks<Propagate<Field>> = 2;
template <>
inline constexpr int k_min_blocks<Propagate<NoField>> = 4;  // the straight line only
template <bool Photons>
inline constexpr int k_min_blocks<EmInteractOf<Photons>> = 4;
template <>
inline constexpr int k_min_blocks<AlongStep> = 4;
template <class F>
inline constexpr int k_min_blocks<OnSlots<F>> = k_min_blocks<F>;
template <class F>
inline constexpr int k_min_blocks<InRange<F>> = k_min_blocks<F>;
template <class F>
inline constexpr int k_min_blocks<Unpaused<F>> = k_min_blocks<F>;

//! GTRACK_TEST_DETECTOR_UNBOUNDED=1: the 64-register bound off (read once).
inline bool unbounded_registers()
{
    static bool const off = [] {
        char const* v = std::getenv("GTRACK_TEST_DETECTOR_UNBOUNDED");
        return v != nullptr && std::string(v) == "1";
    }();
    return off;
}

struct CudaDetectorOps {
    static constexpr MemSpace space = MemSpace::device;
    //! Stages timed by events read at the loop's own waits (one per batch), not a wait per action.
    using StageTimer = cuda::DeferredTimer;
    //! Step iterations queued between two reads of the loop's counts. The iterations queued after the
    //! last track ended do nothing but launch (about 20 empty kernels each); the read and the empty
    //! pipeline behind it cost a few launches' time each. 16: at most 15 idle iterations at the end of
    //! a run of hundreds (the 10 GeV shower: 274), one read per 16.
    static constexpr std::uint64_t k_batch = 16;
    template <class F>
    static void for_each(std::size_t n, F const& f)
    {
        constexpr int blocks = k_min_blocks<F>;
        if constexpr (blocks == 2) {
            cuda::for_each_resident<2>(n, f);
        } else if constexpr (blocks == 4) {
            if (unbounded_registers())
                cuda::for_each(n, f);
            else
                cuda::for_each_resident<4>(n, f);
        } else {
            cuda::for_each(n, f);
        }
    }
    static std::string describe() { return "gpu (" + device::name() + ")"; }
    //! out[i] = key(0) + ... + key(i-1), for i < n: CUB's device scan, queued (nothing waits).
    template <class Key, class T>
    static void exclusive_scan(Key const& key, T* out, std::size_t n)
    {
        if (n == 0) return;
        auto const in = thrust::make_transform_iterator(thrust::counting_iterator<size_type>(0), key);
        std::size_t bytes = 0;
        GT_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, n));
        GT_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch(g_temp, bytes), bytes, in, out, n));
        GT_CUDA_CHECK_LAUNCH();
    }
    static void sort_hits(Hit* hits, std::size_t n)
    {
        if (n > 1) thrust::sort(thrust::device, hits, hits + n, HitOrder{});
        GT_CUDA_CHECK(cudaDeviceSynchronize());
    }
    static void copy_to_host(void* dst, void const* src, std::size_t bytes)
    {
        if (bytes) GT_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
    }
    static void copy_within(void* dst, void const* src, std::size_t bytes)
    {
        if (bytes) GT_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
    }
};

}  // namespace

std::unique_ptr<DetectorKernels> make_cuda_detector_kernels()
{
    if (device::count() == 0) throw std::runtime_error("no GPU found: the CUDA detector backend needs one");
    return std::make_unique<DetectorBackend<CudaDetectorOps>>();
}

}  // namespace gt
