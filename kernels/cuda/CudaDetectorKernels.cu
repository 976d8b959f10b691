// The detector stepping loop on the GPU: one kernel per action, CUB scans of vacant slots and of
// secondaries per slot and CUB's stable selection of slots, each with scratch kept between
// iterations; the hit sort by thrust (CUB radix/merge sort underneath), once a run.
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/sort.h>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include <string>

#include "kernels/core/Device.hh"
#include "kernels/cuda/DeferredTimer.cuh"
#include "kernels/cuda/Executor.cuh"
#include "kernels/detector/DetectorBackend.hh"

namespace gt {
namespace {

struct IsVacant {
    __host__ __device__ std::uint32_t operator()(std::int32_t s) const { return s == 0 ? 1u : 0u; }
};

//! Scratch of the scans and selections, kept between calls: thrust::device allocated and freed it in
//! every call, three times an iteration, and cudaFree waits for the whole device. Grows only, and is
//! never freed (not at exit either, after the runtime).
template <class T>
T* scratch(Buffer<T>& b, std::size_t n)
{
    if (b.size() < n) b = Buffer<T>(n, MemSpace::device);
    return b.data();
}
Buffer<char>& g_temp = *new Buffer<char>();
Buffer<std::uint64_t>& g_selected = *new Buffer<std::uint64_t>();

//! Two device scalars to the host in one round trip.
template <class A, class B>
void copy_last(A* a, A const* device_a, B* b, B const* device_b)
{
    GT_CUDA_CHECK(cudaMemcpyAsync(a, device_a, sizeof(A), cudaMemcpyDeviceToHost, nullptr));
    GT_CUDA_CHECK(cudaMemcpyAsync(b, device_b, sizeof(B), cudaMemcpyDeviceToHost, nullptr));
    GT_CUDA_CHECK(cudaStreamSynchronize(nullptr));
}

//! Field propagation (Propagate, also over the live slots): the one step action whose registers the
//! file's cap of 96 (CMakeLists.txt) spills heavily (ptxas -v, sm_90: 560-640 bytes of stack, 0.8 kB
//! of spill stores). At 256 threads a block, 96 and 128 registers both leave 2 blocks resident per
//! SM (65536 / (256 x 96) = 2.7): 128 spills less at the same occupancy.
template <class F>
inline constexpr bool k_is_propagation = false;
template <class Field>
inline constexpr bool k_is_propagation<Propagate<Field>> = true;
template <class Field>
inline constexpr bool k_is_propagation<OnSlots<Propagate<Field>>> = true;

struct CudaDetectorOps {
    static constexpr MemSpace space = MemSpace::device;
    //! Stages timed by events read at the loop's own waits (the scans), not a wait per action.
    using StageTimer = cuda::DeferredTimer;
    template <class F>
    static void for_each(std::size_t n, F const& f)
    {
        if constexpr (k_is_propagation<F>)
            cuda::for_each_resident<2>(n, f);
        else
            cuda::for_each(n, f);
    }
    static std::string describe() { return "gpu (" + device::name() + ")"; }
    static std::uint64_t scan_vacancies(std::int32_t const* status, std::uint32_t* rank, std::size_t n)
    {
        if (n == 0) return 0;
        auto const vacant = thrust::make_transform_iterator(status, IsVacant{});
        std::size_t bytes = 0;
        GT_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, vacant, rank, n));
        GT_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch(g_temp, bytes), bytes, vacant, rank, n));
        std::uint32_t last_rank = 0;
        std::int32_t last_status = 0;
        copy_last(&last_rank, rank + n - 1, &last_status, status + n - 1);
        return std::uint64_t(last_rank) + (last_status == 0 ? 1 : 0);
    }
    //! out[i] = in[0] + ... + in[i-1] (CUB's device scan); returns the sum of all.
    static std::uint64_t exclusive_scan(std::uint32_t const* in, std::uint32_t* out, std::size_t n)
    {
        if (n == 0) return 0;
        std::size_t bytes = 0;
        GT_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, n));
        GT_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch(g_temp, bytes), bytes, in, out, n));
        std::uint32_t last_offset = 0, last_count = 0;
        copy_last(&last_offset, out + n - 1, &last_count, in + n - 1);
        return std::uint64_t(last_offset) + last_count;
    }
    //! The slots i < n with select(i), in slot order (CUB's selection keeps the input order), into
    //! out; returns their number.
    template <class Select>
    static std::uint64_t select_slots(Select const& select, std::uint32_t* out, std::size_t n)
    {
        if (n == 0) return 0;
        thrust::counting_iterator<std::uint32_t> const first(0);
        std::uint64_t* const selected = scratch(g_selected, 1);
        std::size_t bytes = 0;
        GT_CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, first, out, selected, n, select));
        GT_CUDA_CHECK(cub::DeviceSelect::If(scratch(g_temp, bytes), bytes, first, out, selected, n, select));
        std::uint64_t count = 0;
        GT_CUDA_CHECK(cudaMemcpy(&count, selected, sizeof(count), cudaMemcpyDeviceToHost));
        return count;
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
