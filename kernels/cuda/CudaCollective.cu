// The CUDA collective backend: the shared reductions and functors, and the per-block histogram
// (each block fills a sub-histogram in shared memory, then adds it to the global one: ELEGANT-GPU's
// contention-free scheme).
#include <memory>
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

//! One sub-histogram per block in shared memory (ch.count * n doubles), grid-stride over particles.
__global__ void line_histogram_shared(LineDeposit d, double* out)
{
    extern __shared__ double sub[];
    int const values = d.ch.count * d.g.n;
    for (int k = int(threadIdx.x); k < values; k += int(blockDim.x)) sub[k] = 0.0;
    __syncthreads();
    size_type const stride = size_type(gridDim.x) * blockDim.x;
    for (size_type i = size_type(blockIdx.x) * blockDim.x + threadIdx.x; i < d.p.size; i += stride) {
        int first = 0;
        double v[3][2];
        if (!d.weights(i, first, v)) continue;
        for (int c = 0; c < d.ch.count; ++c) {
            atomicAdd(sub + c * d.g.n + first, v[c][0]);
            atomicAdd(sub + c * d.g.n + first + 1, v[c][1]);
        }
    }
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

    LineBunchShape shape(ParticleView p) override
    {
        auto const e = beam_driver::reduce_over_ranks<cuda::Policy, reduce::Each<4, reduce::Max>>(p.size, LineExtent{p}, cross_rank());
        auto const s =
            beam_driver::reduce_over_ranks<cuda::Policy, reduce::Each<5, reduce::Sum>>(p.size, TransverseSums{p}, cross_rank());
        return line_bunch_shape(e, s);
    }

    std::vector<double> histogram(ParticleView p, LineGrid const& g, LineChannels const& ch,
                                  LineHistogramMethod method) override
    {
        size_type const values = size_type(ch.count) * size_type(g.n);
        std::vector<double> host(values);
        if (out_.size() < values) out_ = Buffer<double>(values, MemSpace::device);
        GT_CUDA_CHECK(cudaMemset(out_.data(), 0, values * sizeof(double)));
        LineDeposit const d{p, g, ch};
        if (method == LineHistogramMethod::deterministic) {
            if (fixed_.size() < values) fixed_ = Buffer<std::int64_t>(values, MemSpace::device);
            GT_CUDA_CHECK(cudaMemset(fixed_.data(), 0, values * sizeof(std::int64_t)));
            cuda::for_each(p.size, DepositLineFixed{d, fixed_.data()});
            if (cross_rank().count() > 1) {  // the exact sum over ranks, through the host
                std::vector<std::int64_t> nodes(values);
                std::size_t const bytes = values * sizeof(std::int64_t);
                GT_CUDA_CHECK(cudaMemcpy(nodes.data(), fixed_.data(), bytes, cudaMemcpyDeviceToHost));
                cross_rank().sum(nodes);
                GT_CUDA_CHECK(cudaMemcpy(fixed_.data(), nodes.data(), bytes, cudaMemcpyHostToDevice));
            }
            cuda::for_each(values, LineFromFixed{fixed_.data(), ch, g.n, out_.data()});
        } else {
            int const threads = 512;
            int const blocks = 4 * sms_;
            std::size_t const bytes = values * sizeof(double);
            if (bytes <= std::size_t(max_shared_)) {
                GT_CUDA_CHECK(cudaFuncSetAttribute(line_histogram_shared, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                   int(bytes)));
                line_histogram_shared<<<blocks, threads, bytes>>>(d, out_.data());
            } else {
                line_histogram_global<<<blocks, threads>>>(d, out_.data());
            }
            GT_CUDA_CHECK_LAUNCH();
        }
        GT_CUDA_CHECK(cudaMemcpy(host.data(), out_.data(), values * sizeof(double), cudaMemcpyDeviceToHost));
        return host;
    }

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
