// The strip chain on the GPU: one kernel per stage, thrust scans, and the (key, index) sorts by CUB:
// DeviceRadixSort::SortPairs (stable, LSD radix over the 64-bit key) or DeviceMergeSort::
// StableSortPairs. Both are stable and the indices start in increasing order, so either gives the
// CPU's order.
#include <thrust/execution_policy.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>

#include <string>

#include "kernels/core/Device.hh"
#include "kernels/cuda/Executor.cuh"
#include "kernels/detector/StripChain.hh"

namespace gt {
namespace {

struct KeyLess {
    __host__ __device__ bool operator()(std::uint64_t a, std::uint64_t b) const { return a < b; }
};

//! Scratch of the sorts, kept between calls (a cudaMalloc per sort would cost as much as the sort of
//! a small time slice); grows only, and is never freed (not at exit either, after the runtime).
template <class T>
T* scratch(Buffer<T>& b, std::size_t n)
{
    if (b.size() < n) b = Buffer<T>(n, MemSpace::device);
    return b.data();
}
Buffer<char>& g_temp = *new Buffer<char>();
Buffer<std::uint64_t>& g_keys = *new Buffer<std::uint64_t>();
Buffer<std::uint32_t>& g_values = *new Buffer<std::uint32_t>();

struct CudaStripOps {
    static constexpr MemSpace space = MemSpace::device;
    template <class F>
    static void for_each(std::size_t n, F const& f)
    {
        cuda::for_each(n, f);
    }
    static std::string describe() { return "gpu (" + device::name() + ")"; }
    static std::uint64_t exclusive_scan(std::uint32_t const* in, std::uint32_t* out, std::size_t n)
    {
        if (n == 0) return 0;
        thrust::exclusive_scan(thrust::device, in, in + n, out, 0u);
        std::uint32_t last_offset = 0, last_count = 0;
        GT_CUDA_CHECK(cudaMemcpy(&last_offset, out + n - 1, sizeof(last_offset), cudaMemcpyDeviceToHost));
        GT_CUDA_CHECK(cudaMemcpy(&last_count, in + n - 1, sizeof(last_count), cudaMemcpyDeviceToHost));
        return std::uint64_t(last_offset) + last_count;
    }
    static void iota(std::uint32_t* v, std::size_t n)
    {
        if (n) thrust::sequence(thrust::device, v, v + n, 0u);
    }
    static void sort_pairs(std::uint64_t* keys, std::uint32_t* values, std::size_t n, StripSort method)
    {
        if (n < 2) return;
        auto const count = static_cast<int>(n);
        std::size_t temp_bytes = 0;
        if (method == StripSort::merge) {
            GT_CUDA_CHECK(
                cub::DeviceMergeSort::StableSortPairs(nullptr, temp_bytes, keys, values, count, KeyLess{}));
            GT_CUDA_CHECK(cub::DeviceMergeSort::StableSortPairs(scratch(g_temp, temp_bytes), temp_bytes, keys,
                                                                values, count, KeyLess{}));
            GT_CUDA_CHECK(cudaDeviceSynchronize());
            return;
        }
        std::uint64_t* const keys_out = scratch(g_keys, n);
        std::uint32_t* const values_out = scratch(g_values, n);
        GT_CUDA_CHECK(
            cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys, keys_out, values, values_out, count));
        GT_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(scratch(g_temp, temp_bytes), temp_bytes, keys, keys_out,
                                                      values, values_out, count));
        GT_CUDA_CHECK(cudaMemcpyAsync(keys, keys_out, n * sizeof(std::uint64_t), cudaMemcpyDeviceToDevice));
        GT_CUDA_CHECK(
            cudaMemcpyAsync(values, values_out, n * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice));
    }
    static void copy_to_host(void* dst, void const* src, std::size_t bytes)
    {
        if (bytes) GT_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
    }
    static void synchronize() { GT_CUDA_CHECK(cudaDeviceSynchronize()); }
};

}  // namespace

std::unique_ptr<StripKernels> make_cuda_strip_kernels()
{
    if (device::count() == 0) throw std::runtime_error("no GPU found: the CUDA strip chain needs one");
    return std::make_unique<StripChain<CudaStripOps>>();
}

}  // namespace gt
