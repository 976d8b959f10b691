// The CUDA collective backend: the shared reductions and functors, and the histograms, both built
// from per-block sub-histograms in shared memory added to the global one at the end (ELEGANT-GPU's
// contention-free scheme): fixed-point for the deterministic variant, doubles for the per-block one.
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/beam/BeamDriver.hh"
#include "kernels/collective/CollectiveKernels.hh"
#include "kernels/collective/LineKick.hh"
#include "kernels/core/Device.hh"
#include "kernels/cuda/Executor.cuh"

namespace gt {
namespace {

constexpr int k_hist_threads = 512;
constexpr int k_hist_batch = 4;  //!< particles per thread loaded before any is deposited

//! Grid-stride over the particles in batches: each thread loads the loss flag and t (and x, y for
//! three channels) of k_hist_batch particles, coalesced, before depositing any of them, so the loads
//! are in flight together and are not ordered behind the shared-memory atomics. `deposit(t, x, y)`
//! is called for the live ones.
template <int C, class Deposit>
__device__ GT_FORCEINLINE void for_live_batches(ParticleView const& p, Deposit const& deposit)
{
    size_type const n = p.size;
    size_type const step = size_type(gridDim.x) * blockDim.x * k_hist_batch;
    for (size_type base = size_type(blockIdx.x) * blockDim.x * k_hist_batch + threadIdx.x; base < n; base += step) {
        double t[k_hist_batch], x[k_hist_batch], y[k_hist_batch];
        bool live[k_hist_batch];
#pragma unroll
        for (int k = 0; k < k_hist_batch; ++k) {
            size_type const i = base + size_type(k) * blockDim.x;
            live[k] = i < n && __ldg(p.lost_element + i) < 0;
            t[k] = i < n ? __ldg(p.t + i) : 0.0;
            x[k] = C == 3 && i < n ? __ldg(p.x + i) : 0.0;
            y[k] = C == 3 && i < n ? __ldg(p.y + i) : 0.0;
        }
#pragma unroll
        for (int k = 0; k < k_hist_batch; ++k)
            if (live[k]) deposit(t[k], x[k], y[k]);
    }
}

//! Deterministic variant: one fixed-point sub-histogram per block in shared memory, each node as two
//! 32-bit words (add_split: native 32-bit shared atomics, no compare-and-swap loop), added at the end
//! to the global 64-bit nodes. Integer sums in any order: the bits of the CPU's.
template <int C>
__global__ void __launch_bounds__(k_hist_threads) line_histogram_fixed(LineDeposit d, unsigned long long* acc)
{
    extern __shared__ std::uint32_t words[];  // [C n] low words, then [C n] high words
    int const values = C * d.g.n;
    std::uint32_t* const lo = words;
    std::uint32_t* const hi = words + values;
    for (int k = int(threadIdx.x); k < 2 * values; k += int(blockDim.x)) words[k] = 0u;
    __syncthreads();
    auto const add = [](std::uint32_t* w, std::uint32_t v) { return std::uint32_t(atomicAdd(reinterpret_cast<unsigned*>(w), unsigned(v))); };
    for_live_batches<C>(d.p, [&](double t, double x, double y) {
        int first = 0;
        std::int64_t v[3][2];
        if (!d.fixed_of(t, x, y, first, v)) return;
#pragma unroll
        for (int c = 0; c < C; ++c) {
            add_split(lo + c * d.g.n + first, hi + c * d.g.n + first, v[c][0], add);
            add_split(lo + c * d.g.n + first + 1, hi + c * d.g.n + first + 1, v[c][1], add);
        }
    });
    __syncthreads();
    for (int k = int(threadIdx.x); k < values; k += int(blockDim.x)) {
        std::int64_t const v = joined(lo[k], hi[k]);
        if (v != 0) atomicAdd(acc + k, static_cast<unsigned long long>(v));  // two's complement
    }
}

//! Per-block variant: one double sub-histogram per block in shared memory, added at the end to the
//! global one (ELEGANT-GPU's contention-free scheme). Rounding depends on the blocking.
template <int C>
__global__ void __launch_bounds__(k_hist_threads) line_histogram_shared(LineDeposit d, double* out)
{
    extern __shared__ double sub[];
    int const values = C * d.g.n;
    for (int k = int(threadIdx.x); k < values; k += int(blockDim.x)) sub[k] = 0.0;
    __syncthreads();
    for_live_batches<C>(d.p, [&](double t, double x, double y) {
        int first = 0;
        double v[3][2];
        if (!d.weights_of(t, x, y, first, v)) return;
#pragma unroll
        for (int c = 0; c < C; ++c) {
            atomicAdd(sub + c * d.g.n + first, v[c][0]);
            atomicAdd(sub + c * d.g.n + first + 1, v[c][1]);
        }
    });
    __syncthreads();
    for (int k = int(threadIdx.x); k < values; k += int(blockDim.x))
        if (sub[k] != 0.0) atomicAdd(out + k, sub[k]);
}

//! Where the sub-histogram does not fit in shared memory: global atomics, grid-stride.
__global__ void line_histogram_global(LineDeposit d, double* out)
{
    size_type const stride = size_type(gridDim.x) * blockDim.x;
    for (size_type i = size_type(blockIdx.x) * blockDim.x + threadIdx.x; i < d.p.size; i += stride) {
        int first = 0;
        double v[3][2];
        if (!d.weights(i, first, v)) continue;
        for (int c = 0; c < d.ch.count; ++c) {
            atomicAdd(out + c * d.g.n + first, v[c][0]);
            atomicAdd(out + c * d.g.n + first + 1, v[c][1]);
        }
    }
}

class CudaCollective final : public CollectiveKernels {
  public:
    CudaCollective()
    {
        int dev = 0;
        GT_CUDA_CHECK(cudaGetDevice(&dev));
        GT_CUDA_CHECK(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, dev));
        GT_CUDA_CHECK(cudaDeviceGetAttribute(&max_shared_, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    }
    MemSpace memory() const override { return MemSpace::device; }
    std::string description() const override { return "gpu (" + device::name() + ")"; }

    LineBunchShape shape(ParticleView p, bool transverse) override
    {
        using R = reduce::MaxThenSum<4, 5>;  // one pass: extent and transverse sums
        return line_bunch_shape(beam_driver::reduce_over_ranks<cuda::Policy, R>(p.size, LineShapeTerms{p, transverse}, cross_rank()));
    }

    std::vector<double> histogram(ParticleView p, LineGrid const& g, LineChannels const& ch,
                                  LineHistogramMethod method) override
    {
        size_type const values = size_type(ch.count) * size_type(g.n);
        std::vector<double> host(values);
        LineDeposit const d{p, g, ch};
        if (method == LineHistogramMethod::deterministic) {
            // The global nodes are zero on entry: zeroed when allocated, and again after each copy out.
            if (fixed_.size() < values) {
                fixed_ = Buffer<std::int64_t>(values, MemSpace::device);
                GT_CUDA_CHECK(cudaMemset(fixed_.data(), 0, values * sizeof(std::int64_t)));
            }
            std::size_t const shared = 2 * values * sizeof(std::uint32_t);
            if (shared <= std::size_t(max_shared_)) {
                auto* acc = reinterpret_cast<unsigned long long*>(fixed_.data());
                if (ch.count == 3) launch(line_histogram_fixed<3>, p.size, shared, d, acc);
                else launch(line_histogram_fixed<1>, p.size, shared, d, acc);
            } else {
                cuda::for_each(p.size, DepositLineFixed{d, fixed_.data()});
            }
            std::vector<std::int64_t> nodes(values);
            std::size_t const bytes = values * sizeof(std::int64_t);
            GT_CUDA_CHECK(cudaMemcpy(nodes.data(), fixed_.data(), bytes, cudaMemcpyDeviceToHost));
            GT_CUDA_CHECK(cudaMemsetAsync(fixed_.data(), 0, bytes));
            cross_rank().sum(nodes);  // exact, on the host
            // The conversion on the host: the CPU backend's operations, the same bits.
            LineFromFixed const convert{nodes.data(), ch, g.n, host.data()};
            for (size_type k = 0; k < values; ++k) convert(k);
            return host;
        }
        if (out_.size() < values) out_ = Buffer<double>(values, MemSpace::device);
        std::size_t const bytes = values * sizeof(double);
        GT_CUDA_CHECK(cudaMemsetAsync(out_.data(), 0, bytes));
        if (bytes <= std::size_t(max_shared_)) {
            if (ch.count == 3) launch(line_histogram_shared<3>, p.size, bytes, d, out_.data());
            else launch(line_histogram_shared<1>, p.size, bytes, d, out_.data());
        } else {
            line_histogram_global<<<4 * sms_, k_hist_threads>>>(d, out_.data());
            GT_CUDA_CHECK_LAUNCH();
        }
        GT_CUDA_CHECK(cudaMemcpy(host.data(), out_.data(), bytes, cudaMemcpyDeviceToHost));
        return host;
    }

    std::unique_ptr<LineFft> make_fft() const override { return make_cufft_line_fft(); }

    void kick(ParticleView p, LineGrid const& g, std::vector<double> const& dpt, std::vector<double> const& dpx,
              std::vector<double> const& dpy) override
    {
        auto const upload = [&](std::vector<double> const& v, Buffer<double>& b) -> double const* {
            if (v.empty()) return nullptr;
            if (b.size() != v.size()) b = Buffer<double>(v.size(), MemSpace::device);
            b.copy_raw(v.data(), MemSpace::host);
            return b.data();
        };
        LineKick const k{p, g, upload(dpt, dpt_), upload(dpx, dpx_), upload(dpy, dpy_)};
        cuda::for_each(p.size, k);
        GT_CUDA_CHECK(cudaDeviceSynchronize());
    }

  private:
    //! A sub-histogram kernel on as many blocks as fit on the GPU at once (shared memory and registers
    //! permitting), fewer when the particles would not give each thread a whole batch.
    template <class Arg>
    void launch(void (*kernel)(LineDeposit, Arg*), size_type particles, std::size_t shared, LineDeposit const& d,
                Arg* out)
    {
        // The occupancy once per kernel and size (a kick asks for the same each time); every kernel may
        // use all the shared memory a block can have.
        auto const key = std::make_pair(reinterpret_cast<void const*>(kernel), shared);
        auto found = resident_.find(key);
        if (found == resident_.end()) {
            GT_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, max_shared_));
            int resident = 0;
            GT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, k_hist_threads, shared));
            found = resident_.emplace(key, resident).first;
        }
        int const per_sm = found->second;
        size_type const per_block = size_type(k_hist_threads) * k_hist_batch;
        size_type const wanted = (particles + per_block - 1) / per_block;
        int const blocks = int(std::max<size_type>(1, std::min<size_type>(wanted, size_type(std::max(1, per_sm) * sms_))));
        kernel<<<blocks, k_hist_threads, shared>>>(d, out);
        GT_CUDA_CHECK_LAUNCH();
    }

    std::map<std::pair<void const*, std::size_t>, int> resident_;  //!< blocks per SM of (kernel, shared bytes)
    int sms_ = 1;
    int max_shared_ = 48 * 1024;
    Buffer<double> out_, dpt_, dpx_, dpy_;
    Buffer<std::int64_t> fixed_;
};

}  // namespace

std::unique_ptr<CollectiveKernels> make_cuda_collective()
{
    if (device::count() == 0) throw std::runtime_error("no GPU found: the CUDA collective backend needs one");
    return std::make_unique<CudaCollective>();
}

}  // namespace gt
