// The CUDA space-charge backend: CUB radix sort, warp-aggregated deposition, cuFFT, CUDA-event timing.
#include <cufft.h>
#include <cub/device/device_radix_sort.cuh>

#include <memory>
#include <stdexcept>
#include <string>

#include "kernels/core/Device.hh"
#include "kernels/core/TraceLog.hh"
#include "kernels/core/TraceScope.hh"
#include "kernels/cuda/CufftCheck.cuh"
#include "kernels/cuda/EventTimer.cuh"
#include "kernels/cuda/Executor.cuh"
#include "kernels/spacecharge/SpaceChargeSolver.hh"

namespace gt {
namespace {

struct Iota {
    std::uint32_t* out;
    __device__ void operator()(size_type i) const { out[i] = static_cast<std::uint32_t>(i); }
};

//! Warp-aggregated deposition (AVASX's thread aggregation, Tian et al. 2025): the lanes of a warp
//! that hold particles of the same cell sum their W^3 weights by a segmented reduction over runs of
//! equal keys (shuffles), and the first lane of each run adds the sums with one atomic per node.
//! Correct for any order (a run is a set of *adjacent* lanes with one key); effective when the
//! particles are read in cell order, so that runs are long.
template <int W, class Acc>
__global__ void deposit_aggregated_kernel(DepositSource p, DepositGeometry g, Acc* grid)
{
    constexpr int k_nodes = W * W * W;
    constexpr unsigned k_full = 0xffffffffu;
    size_type const i = size_type(blockIdx.x) * blockDim.x + threadIdx.x;
    unsigned const lane = threadIdx.x & 31u;
    ParticleStencil s{};
    bool in = false;
    if (i < p.size) {
        PackedPosition const q = p[i];  // one 32-byte sector through the order
        in = q.lost_element < 0 && particle_stencil(g, q.x, q.y, q.t, s);
    }
    std::uint32_t const key = in ? stencil_key(g.grid, s) : g.outside_key();
    Acc value[k_nodes];
    if constexpr (std::is_integral_v<Acc>) {
        if (in) {
            fixed_point_weights<W>(s, value);
        } else {
            for (int m = 0; m < k_nodes; ++m) value[m] = 0;
        }
    } else {
        for (int m = 0; m < k_nodes; ++m) {
            size_type index = 0;
            double w = 0;
            if (in) stencil_node<W>(g.grid, s, m, index, w);
            value[m] = in ? w : 0.0;
        }
    }
    // Runs: maximal sets of consecutive lanes with equal keys (equal keys that are not adjacent, as
    // between two sorts, make separate runs, each with its own atomics). A run ends at the next head.
    std::uint32_t const previous = __shfl_up_sync(k_full, key, 1);
    bool const head = lane == 0 || previous != key;
    unsigned const heads = __ballot_sync(k_full, head);
    unsigned const later_heads = heads & ~((2u << lane) - 1u);  // heads after this lane (2u << 31 == 0)
    unsigned const run_end = later_heads ? unsigned(__ffs(later_heads)) - 1u : 32u;
    // After the step with offset o, lane l holds the sum over lanes [l, min(l + 2o, run_end)).
    for (unsigned offset = 1; offset < 32; offset <<= 1) {
        bool const take = lane + offset < run_end;
        for (int m = 0; m < k_nodes; ++m) {
            Acc const v = __shfl_down_sync(k_full, value[m], offset);
            if (take) value[m] += v;
        }
    }
    if (in && head) {
        for (int m = 0; m < k_nodes; ++m) {
            size_type index = 0;
            double w = 0;
            stencil_node<W>(g.grid, s, m, index, w);
            atomic_add(grid + index, value[m]);
        }
    }
}

class CufftPlans {
  public:
    CufftPlans() = default;
    CufftPlans(CufftPlans const&) = delete;
    CufftPlans& operator=(CufftPlans const&) = delete;
    ~CufftPlans() { destroy(); }

    //! True when the plans are those of `d` (no plan to make).
    bool ready_for(DoubledGrid d) const
    {
        return ready_ && d.nx2 == dims_.nx2 && d.ny2 == dims_.ny2 && d.nz2 == dims_.nz2;
    }

    void forward(DoubledGrid d, double* in, Complex* out)
    {
        prepare(d);
        GT_CUFFT_CHECK(cufftExecD2Z(forward_, in, reinterpret_cast<cufftDoubleComplex*>(out)));
    }
    void inverse(DoubledGrid d, Complex* in, double* out)
    {
        prepare(d);
        GT_CUFFT_CHECK(cufftExecZ2D(inverse_, reinterpret_cast<cufftDoubleComplex*>(in), out));
    }

    void prepare(DoubledGrid d)
    {
        if (ready_for(d)) return;
        destroy();
        // cufftPlan3d(nx, ny, nz): nz varies fastest, so our (z, y, x) row-major order is (nz2, ny2, nx2).
        if (d.nz2 == 1) {  // the 2.5D solver's transverse plane
            GT_CUFFT_CHECK(cufftPlan2d(&forward_, d.ny2, d.nx2, CUFFT_D2Z));
            GT_CUFFT_CHECK(cufftPlan2d(&inverse_, d.ny2, d.nx2, CUFFT_Z2D));
        } else {
            GT_CUFFT_CHECK(cufftPlan3d(&forward_, d.nz2, d.ny2, d.nx2, CUFFT_D2Z));
            GT_CUFFT_CHECK(cufftPlan3d(&inverse_, d.nz2, d.ny2, d.nx2, CUFFT_Z2D));
        }
        ready_ = true;
        dims_ = d;
    }

  private:
    void destroy()
    {
        if (!ready_) return;
        cufftDestroy(forward_);
        cufftDestroy(inverse_);
        ready_ = false;
    }

    cufftHandle forward_ = 0, inverse_ = 0;
    bool ready_ = false;
    DoubledGrid dims_{};
};

struct CudaBackend {
    static constexpr MemSpace memory = MemSpace::device;

    CudaBackend() = default;
    CudaBackend(CudaBackend const&) = delete;
    CudaBackend& operator=(CudaBackend const&) = delete;

    template <class F>
    void for_each(size_type n, F const& f)
    {
        cuda::for_each(n, f);
    }
    template <int N, class Op, class F>
    std::array<double, N> reduce(size_type n, F const& f)
    {
        return cuda::reduce<N, Op>(n, f);
    }
    template <int N, class Op, class F>
    std::vector<double> reduce_chunks(size_type n, F const& f)
    {
        return cuda::reduce_chunks<N, Op>(n, f);
    }

    //! CUB's radix sort is stable: the same permutation as the CPU's counting sort.
    void sort_by_key(std::uint32_t const* keys, std::uint32_t* perm, size_type n, std::uint32_t key_bound)
    {
        if (sorted_keys_.size() < n) {
            sorted_keys_ = Buffer<std::uint32_t>(n, MemSpace::device);
            iota_ = Buffer<std::uint32_t>(n, MemSpace::device);
        }
        cuda::for_each(n, Iota{iota_.data()});
        int end_bit = 1;
        while (end_bit < 32 && (std::uint64_t(1) << end_bit) < std::uint64_t(key_bound)) ++end_bit;
        std::size_t bytes = 0;
        int const count = static_cast<int>(n);
        GT_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, sorted_keys_.data(), iota_.data(),
                                                      perm, count, 0, end_bit));
        if (sort_temp_.size() < bytes) sort_temp_ = Buffer<unsigned char>(bytes, MemSpace::device);
        GT_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(sort_temp_.data(), bytes, keys, sorted_keys_.data(),
                                                      iota_.data(), perm, count, 0, end_bit));
        GT_CUDA_CHECK_LAUNCH();
    }

    template <int W, class Acc>
    void deposit_aggregated(DepositSource p, DepositGeometry const& g, Acc* grid)
    {
        if (p.size == 0) return;
        auto const blocks = static_cast<unsigned>((p.size + cuda::k_block_size - 1) / cuda::k_block_size);
        deposit_aggregated_kernel<W, Acc><<<blocks, cuda::k_block_size>>>(p, g, grid);
        GT_CUDA_CHECK_LAUNCH();
    }

    //! cuFFT's plans for a new size are made, and the forward transform's kernels loaded by running it
    //! once, outside the timed stage: host set-up (a few ms; 0.3 s on a fresh machine, cuFFT's library
    //! read from a cold disk) that the first kick's events timed as kernel work, so that the calibration's
    //! first kick and a run's paid different amounts. (An out-of-place real-to-complex transform leaves its
    //! input as it was, cuFFT's documentation: only complex-to-real overwrites it; the inverse is not run
    //! twice, and its own kernels, if any, load in its first timed call.)
    void fft_forward(DoubledGrid d, double* in, Complex* out)
    {
        if (!plans_.ready_for(d)) set_up_plans(d, [&] { plans_.forward(d, in, out); });
        plans_.forward(d, in, out);
    }
    void fft_inverse(DoubledGrid d, Complex* in, double* out)
    {
        if (!plans_.ready_for(d)) set_up_plans(d, [] {});
        plans_.inverse(d, in, out);
    }

    //! Makes the plans of `d` and runs `warm` with the device idle (the host waits for the stream first and
    //! after), and takes that span out of the timed stage: a "cufft plans" host event in --trace.
    template <class F>
    void set_up_plans(DoubledGrid d, F const& warm)
    {
        cuda::note_host_wait();
        GT_CUDA_CHECK(cudaStreamSynchronize(nullptr));  // the work before the plans
        double const start = trace_log().now();
        plans_.prepare(d);
        warm();
        cuda::note_host_wait();
        GT_CUDA_CHECK(cudaStreamSynchronize(nullptr));  // the first transform
        double const seconds = trace_log().now() - start;
        events_.exclude(seconds);
        trace_log().add(TraceEvent{"cufft plans", "phase", start, seconds});
    }

    void timer_start() { events_.start(); }
    double timer_stop() { return events_.seconds(); }

    CufftPlans plans_;
    Buffer<std::uint32_t> sorted_keys_, iota_;
    Buffer<unsigned char> sort_temp_;
    cuda::EventTimer events_;
};

class CudaSpaceCharge final : public SolverSpaceChargeKernels<CudaBackend> {
  public:
    //! Loads this file's module at construction (set-up) by asking for one of its kernels: with lazy loading
    //! (CUDA_MODULE_LOADING=LAZY, the default) a module loads at its first kernel's launch, which the first
    //! kick's events timed, from a cold disk on a fresh machine (the beam module's took 21 ms there, 4 ms
    //! after: CudaBeamKernels.cu), so that the calibration's first kick and a later run's paid different
    //! amounts. Each kernel still loads at its first launch (a small cost that both pay alike).
    CudaSpaceCharge()
    {
        TraceScope const loading("kernel loading");
        cudaFuncAttributes attributes{};
        GT_CUDA_CHECK(cudaFuncGetAttributes(&attributes, deposit_aggregated_kernel<2, std::int64_t>));
    }

    std::string description() const override { return "gpu (" + device::name() + ", cuFFT)"; }
};

}  // namespace

std::unique_ptr<SpaceChargeKernels> make_cuda_space_charge()
{
    if (device::count() == 0)
        throw std::runtime_error("no GPU found: the CUDA space-charge solver needs one");
    return std::make_unique<CudaSpaceCharge>();
}

}  // namespace gt
