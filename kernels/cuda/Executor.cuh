// The CUDA executor: runs a per-item functor over n items, and reduces with the shared fixed tree.
#pragma once

#include <algorithm>
#include <array>
#include <vector>

#include "kernels/core/Reduction.hh"
#include "kernels/core/Types.hh"
#include "kernels/cuda/Check.cuh"
#include "kernels/cuda/HostWait.cuh"
#include "kernels/cuda/ReduceScratch.cuh"

namespace gt::cuda {

inline constexpr int k_block_size = 256;

template<class F>
__global__ void for_each_kernel(size_type n, F f)
{
    size_type const i = size_type(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) f(i);
}

//! f(i) for i in [0, n), one thread per item, on `stream`.
template<class F>
void for_each(size_type n, F const& f, cudaStream_t stream = nullptr)
{
    if (n == 0) return;
    auto const blocks = static_cast<unsigned>((n + k_block_size - 1) / k_block_size);
    for_each_kernel<<<blocks, k_block_size, 0, stream>>>(n, f);
    GT_CUDA_CHECK_LAUNCH();
}

//! for_each_kernel with at least `MinBlocks` blocks resident per SM: the compiler keeps the registers
//! per thread within 65536 / (MinBlocks k_block_size), spilling if it must.
template<int MinBlocks, class F>
__global__ void __launch_bounds__(k_block_size, MinBlocks) for_each_resident_kernel(size_type n, F f)
{
    size_type const i = size_type(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) f(i);
}

//! for_each with the register budget of `MinBlocks` resident blocks per SM.
template<int MinBlocks, class F>
void for_each_resident(size_type n, F const& f, cudaStream_t stream = nullptr)
{
    if (n == 0) return;
    auto const blocks = static_cast<unsigned>((n + k_block_size - 1) / k_block_size);
    for_each_resident_kernel<MinBlocks><<<blocks, k_block_size, 0, stream>>>(n, f);
    GT_CUDA_CHECK_LAUNCH();
}

template<class R, class F>
__global__ void __launch_bounds__(reduce::k_lanes) reduce_kernel(size_type n, F f, double* partials)
{
    using namespace gt::reduce;
    constexpr int N = R::size;
    __shared__ double s[N][k_lanes];
    int const l = static_cast<int>(threadIdx.x);
    size_type const begin = size_type(blockIdx.x) * k_chunk;
    double acc[N];
    {
        double lane[R::lane_size];
        double item[R::item_size];
        R::lane_identity(lane);
        for (int k = 0; k < k_per_lane; ++k) {
            size_type const i = begin + size_type(k) * k_lanes + size_type(l);
            if (i >= n) break;
            f(i, item);
            R::lane_add(lane, item);
        }
        R::lane_finish(lane, acc);
    }
    double v[N];
    for (int j = 0; j < N; ++j) s[j][l] = acc[j];
    __syncthreads();
    for (int stride = k_lanes / 2; stride > 0; stride /= 2) {
        if (l < stride) {
            // acc holds s[.][l] already; v takes the partner lane's values.
            for (int j = 0; j < N; ++j) v[j] = s[j][l + stride];
            R::combine(acc, v);
            for (int j = 0; j < N; ++j) s[j][l] = acc[j];
        }
        __syncthreads();
    }
    if (l < N) partials[size_type(blockIdx.x) * N + l] = s[l][0];
}

//! The CUDA twin of cpu::reduce_chunks_of: per-chunk partials on the host, in chunk order. One
//! kernel into persistent device scratch, one copy into pinned memory, one host wait (for the
//! scratch's done event, which a caller's timer may take as its stop: CudaBeamKernels.cu); no
//! allocation once the scratch has grown (ReduceScratch.cuh). With no items it still records and
//! waits, so that done() always marks this reduction.
template<class R, class F>
std::vector<double> reduce_chunks_of(size_type n, F const& f, cudaStream_t stream = nullptr)
{
    constexpr int N = R::size;
    static_assert(N <= reduce::k_lanes, "one lane writes each value of a chunk");
    size_type const chunks = reduce::chunk_count(n);
    std::vector<double> host(chunks * N);
    ReduceScratch& scratch = reduce_scratch();
    scratch.reserve(host.size());
    if (chunks > 0) {
        reduce_kernel<R><<<static_cast<unsigned>(chunks), reduce::k_lanes, 0, stream>>>(n, f, scratch.device_data());
        GT_CUDA_CHECK_LAUNCH();
        GT_CUDA_CHECK(cudaMemcpyAsync(scratch.host_data(), scratch.device_data(), host.size() * sizeof(double),
                                      cudaMemcpyDeviceToHost, stream));
    }
    GT_CUDA_CHECK(cudaEventRecord(scratch.done(), stream));
    wait(scratch.done(), "a reduction");
    std::copy(scratch.host_data(), scratch.host_data() + host.size(), host.begin());
    return host;
}

//! The CUDA twin of cpu::reduce_of: the same tree, so the same bits.
template<class R, class F>
std::array<double, R::size> reduce_of(size_type n, F const& f, cudaStream_t stream = nullptr)
{
    std::vector<double> const partials = reduce_chunks_of<R>(n, f, stream);
    std::array<double, R::size> out{};
    reduce::combine_chunks_of<R>(partials.data(), reduce::chunk_count(n), out.data());
    return out;
}

template<int N, class Op, class F>
std::vector<double> reduce_chunks(size_type n, F const& f, cudaStream_t stream = nullptr)
{
    return reduce_chunks_of<reduce::Each<N, Op>>(n, f, stream);
}

template<int N, class Op, class F>
std::array<double, N> reduce(size_type n, F const& f, cudaStream_t stream = nullptr)
{
    return reduce_of<reduce::Each<N, Op>>(n, f, stream);
}

//! The CUDA executor as a policy type, for code written once over executors (e.g. BeamDriver).
struct Policy {
    template<class F>
    static void for_each(size_type n, F const& f)
    {
        cuda::for_each(n, f);
    }
    template<int MinBlocks, class F>
    static void for_each_resident(size_type n, F const& f)
    {
        cuda::for_each_resident<MinBlocks>(n, f);
    }
    template<int N, class Op, class F>
    static std::array<double, N> reduce(size_type n, F const& f)
    {
        return cuda::reduce<N, Op>(n, f);
    }
    template<int N, class Op, class F>
    static std::vector<double> reduce_chunks(size_type n, F const& f)
    {
        return cuda::reduce_chunks<N, Op>(n, f);
    }
    template<class R, class F>
    static std::vector<double> reduce_chunks_of(size_type n, F const& f)
    {
        return cuda::reduce_chunks_of<R>(n, f);
    }
};

}  // namespace gt::cuda
