// The CPU space-charge backend: OpenMP executor, FFTW r2c/c2r transforms, a stable counting sort.
#include <chrono>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include <fftw3.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "kernels/cpu/Executor.hh"
#include "kernels/cpu/Stopwatch.hh"
#include "kernels/spacecharge/SpaceChargeSolver.hh"

namespace gt {
namespace {

//! FFTW's planner is not thread-safe: plans are made and destroyed under this lock.
std::mutex& fftw_planner_lock()
{
    static std::mutex m;
    return m;
}

class FftwPlans {
  public:
    FftwPlans() = default;
    FftwPlans(FftwPlans const&) = delete;
    FftwPlans& operator=(FftwPlans const&) = delete;
    ~FftwPlans() { destroy(); }

    void forward(DoubledGrid d, double* in, Complex* out)
    {
        prepare(d, in, out);
        fftw_execute_dft_r2c(forward_, in, reinterpret_cast<fftw_complex*>(out));
    }
    void inverse(DoubledGrid d, Complex* in, double* out)
    {
        prepare(d, out, in);
        fftw_execute_dft_c2r(inverse_, reinterpret_cast<fftw_complex*>(in), out);
    }

  private:
    void prepare(DoubledGrid d, double* real, Complex* spectrum)
    {
        if (forward_ && d.nx2 == dims_.nx2 && d.ny2 == dims_.ny2 && d.nz2 == dims_.nz2) return;
        std::lock_guard<std::mutex> lock(fftw_planner_lock());
        destroy_unlocked();
#ifdef GTRACK_FFTW_THREADS
        static bool const threads_ready = fftw_init_threads() != 0;
        if (threads_ready) fftw_plan_with_nthreads(cpu::thread_count());
#endif
        // FFTW_ESTIMATE: the plan does not depend on timing, so the same inputs give the same bits
        // run after run; it does not touch the arrays. The new-array execute functions need the
        // same alignment, which every Buffer has (64 bytes).
        auto* c = reinterpret_cast<fftw_complex*>(spectrum);
        if (d.nz2 == 1) {  // the 2.5D solver's transverse plane
            forward_ = fftw_plan_dft_r2c_2d(d.ny2, d.nx2, real, c, FFTW_ESTIMATE);
            inverse_ = fftw_plan_dft_c2r_2d(d.ny2, d.nx2, c, real, FFTW_ESTIMATE);
        } else {
            forward_ = fftw_plan_dft_r2c_3d(d.nz2, d.ny2, d.nx2, real, c, FFTW_ESTIMATE);
            inverse_ = fftw_plan_dft_c2r_3d(d.nz2, d.ny2, d.nx2, c, real, FFTW_ESTIMATE);
        }
        if (!forward_ || !inverse_)
            throw std::runtime_error("FFTW could not plan the space-charge transforms");
        dims_ = d;
    }
    void destroy()
    {
        std::lock_guard<std::mutex> lock(fftw_planner_lock());
        destroy_unlocked();
    }
    void destroy_unlocked()
    {
        if (forward_) fftw_destroy_plan(forward_);
        if (inverse_) fftw_destroy_plan(inverse_);
        forward_ = inverse_ = nullptr;
    }

    fftw_plan forward_ = nullptr;
    fftw_plan inverse_ = nullptr;
    DoubledGrid dims_{};
};

struct CpuBackend {
    static constexpr MemSpace memory = MemSpace::host;

    template <class F>
    void for_each(size_type n, F const& f)
    {
        cpu::for_each(n, f);
    }
    template <int N, class Op, class F>
    std::array<double, N> reduce(size_type n, F const& f)
    {
        return cpu::reduce<N, Op>(n, f);
    }
    template <int N, class Op, class F>
    std::vector<double> reduce_chunks(size_type n, F const& f)
    {
        return cpu::reduce_chunks<N, Op>(n, f);
    }

    //! Stable counting sort (keys < key_bound): the same permutation as a stable radix sort.
    void sort_by_key(std::uint32_t const* keys, std::uint32_t* perm, size_type n, std::uint32_t key_bound)
    {
        std::vector<size_type> start(size_type(key_bound) + 1, 0);
        for (size_type i = 0; i < n; ++i) ++start[size_type(keys[i]) + 1];
        for (size_type k = 0; k < key_bound; ++k) start[k + 1] += start[k];
        for (size_type i = 0; i < n; ++i) perm[start[keys[i]]++] = static_cast<std::uint32_t>(i);
    }

    //! Each thread walks a contiguous block of (sorted) particles, sums the weights of consecutive
    //! particles that share a cell, and adds the sums atomically when the cell changes.
    template <int W, class Acc>
    void deposit_aggregated(DepositSource p, DepositGeometry const& g, Acc* grid)
    {
        constexpr int k_nodes = W * W * W;
        constexpr size_type k_prefetch = 16;  //!< records ahead
#pragma omp parallel
        {
#ifdef _OPENMP
            size_type const threads = size_type(omp_get_num_threads()), me = size_type(omp_get_thread_num());
#else
            size_type const threads = 1, me = 0;
#endif
            size_type const begin = p.size * me / threads, end = p.size * (me + 1) / threads;
            std::uint32_t current = g.outside_key();
            Acc sum[k_nodes] = {};
            size_type index[k_nodes] = {};
            auto const flush = [&] {
                if (current == g.outside_key()) return;
                for (int m = 0; m < k_nodes; ++m) atomic_add(grid + index[m], sum[m]);
            };
            for (size_type i = begin; i < end; ++i) {
                // Through the order the records are read at random, and this loop's body is long: without
                // a prefetch only a few misses overlap (measured 3x slower than a separate copy pass).
                if (p.order && i + k_prefetch < end) __builtin_prefetch(p.packed + p.order[i + k_prefetch]);
                ParticleStencil s;
                PackedPosition const q = p[i];
                if (q.lost_element >= 0 || !particle_stencil(g, q.x, q.y, q.t, s)) continue;
                std::uint32_t const key = stencil_key(g.grid, s);
                if (key != current) {
                    flush();
                    current = key;
                    for (int m = 0; m < k_nodes; ++m) {
                        double w = 0;
                        stencil_node<W>(g.grid, s, m, index[m], w);
                        sum[m] = Acc(0);
                    }
                }
                if constexpr (std::is_integral_v<Acc>) {
                    std::int64_t fixed[k_nodes];
                    fixed_point_weights<W>(s, fixed);
                    for (int m = 0; m < k_nodes; ++m) sum[m] += fixed[m];
                } else {
                    for (int m = 0; m < k_nodes; ++m) {
                        size_type ignored = 0;
                        double w = 0;
                        stencil_node<W>(g.grid, s, m, ignored, w);
                        sum[m] += w;
                    }
                }
            }
            flush();
        }
    }

    void fft_forward(DoubledGrid d, double* in, Complex* out) { plans_.forward(d, in, out); }
    void fft_inverse(DoubledGrid d, Complex* in, double* out) { plans_.inverse(d, in, out); }

    void timer_start() { watch_ = cpu::Stopwatch{}; }
    double timer_stop() { return watch_.seconds(); }

    FftwPlans plans_;
    cpu::Stopwatch watch_;
};

class CpuSpaceCharge final : public SolverSpaceChargeKernels<CpuBackend> {
  public:
    std::string description() const override
    {
        return "cpu (OpenMP, " + std::to_string(cpu::thread_count()) + " threads, FFTW)";
    }
};

}  // namespace

std::unique_ptr<SpaceChargeKernels> make_cpu_space_charge() { return std::make_unique<CpuSpaceCharge>(); }

}  // namespace gt
