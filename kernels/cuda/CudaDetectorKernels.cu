// The detector stepping loop on the GPU: one kernel per action, thrust scans of vacant slots and of
// secondaries per slot, the hit sort by thrust (CUB radix/merge sort underneath).
#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform_scan.h>

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
        thrust::transform_exclusive_scan(thrust::device, status, status + n, rank, IsVacant{}, 0u,
                                         thrust::plus<std::uint32_t>{});
        std::uint32_t last_rank = 0;
        std::int32_t last_status = 0;
        copy_last(&last_rank, rank + n - 1, &last_status, status + n - 1);
        return std::uint64_t(last_rank) + (last_status == 0 ? 1 : 0);
    }
    //! out[i] = in[0] + ... + in[i-1] (CUB's device scan, through thrust); returns the sum of all.
    static std::uint64_t exclusive_scan(std::uint32_t const* in, std::uint32_t* out, std::size_t n)
    {
        if (n == 0) return 0;
        thrust::exclusive_scan(thrust::device, in, in + n, out, 0u);
        std::uint32_t last_offset = 0, last_count = 0;
        copy_last(&last_offset, out + n - 1, &last_count, in + n - 1);
        return std::uint64_t(last_offset) + last_count;
    }
    //! The slots i < n with select(i), in slot order (thrust's stable copy_if), into out; returns
    //! their number.
    template <class Select>
    static std::uint64_t select_slots(Select const& select, std::uint32_t* out, std::size_t n)
    {
        thrust::counting_iterator<std::uint32_t> const first(0);
        std::uint32_t* const end =
            thrust::copy_if(thrust::device, first, first + static_cast<std::uint32_t>(n), out, select);
        return static_cast<std::uint64_t>(end - out);
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
