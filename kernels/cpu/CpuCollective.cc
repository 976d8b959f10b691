// The CPU collective backend: OpenMP; both histograms are one private histogram per thread, added
// at the end (exactly for the deterministic variant's fixed-point nodes).
#include <cstdint>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "kernels/beam/BeamDriver.hh"
#include "kernels/collective/CollectiveKernels.hh"
#include "kernels/collective/LineKick.hh"
#include "kernels/cpu/Executor.hh"

namespace gt {
namespace {

class CpuCollective final : public CollectiveKernels {
  public:
    MemSpace memory() const override { return MemSpace::host; }
    std::string description() const override
    {
        return "cpu (OpenMP, " + std::to_string(cpu::thread_count()) + " threads)";
    }

    LineBunchShape shape(ParticleView p, bool transverse) override
    {
        using R = reduce::MaxThenSum<4, 5>;  // one pass: extent and transverse sums
        return line_bunch_shape(beam_driver::reduce_over_ranks<cpu::Policy, R>(p.size, LineShapeTerms{p, transverse}, cross_rank()));
    }

    std::vector<double> histogram(ParticleView p, LineGrid const& g, LineChannels const& ch,
                                  LineHistogramMethod method) override
    {
        size_type const values = size_type(ch.count) * size_type(g.n);
        std::vector<double> out(values, 0.0);
        LineDeposit const d{p, g, ch};
        if (method == LineHistogramMethod::deterministic) {
            // Private fixed-point histograms per thread, added exactly: the bits of any other split.
            std::vector<std::int64_t> fixed = private_sums<std::int64_t>(p.size, values, [&](size_type i, auto& h) {
                int first = 0;
                std::int64_t v[3][2];
                if (!d.fixed(i, first, v)) return;
                for (int c = 0; c < ch.count; ++c) {
                    h[size_type(c * g.n + first)] += v[c][0];
                    h[size_type(c * g.n + first + 1)] += v[c][1];
                }
            });
            cross_rank().sum(fixed);  // exact: the same integers for any rank count
            cpu::for_each(values, LineFromFixed{fixed.data(), ch, g.n, out.data()});
            return out;
        }
        // per_block: each thread fills its own histogram over a contiguous block of particles; the
        // thread histograms are added in thread order.
        return private_sums<double>(p.size, values, [&](size_type i, auto& h) {
            int first = 0;
            double v[3][2];
            if (!d.weights(i, first, v)) return;
            for (int c = 0; c < ch.count; ++c) {
                h[size_type(c * g.n + first)] += v[c][0];
                h[size_type(c * g.n + first + 1)] += v[c][1];
            }
        });
    }

    void kick(ParticleView p, LineGrid const& g, std::vector<double> const& dpt, std::vector<double> const& dpx,
              std::vector<double> const& dpy) override
    {
        auto const ptr = [](std::vector<double> const& v) { return v.empty() ? nullptr : v.data(); };
        cpu::for_each(p.size, LineKick{p, g, ptr(dpt), ptr(dpx), ptr(dpy)});
    }

  private:
    //! One private histogram of `values` T per thread over a contiguous block of particles,
    //! deposit(i, histogram) per particle, the histograms added in thread order.
    template <class T, class Deposit>
    static std::vector<T> private_sums(size_type particles, size_type values, Deposit const& deposit)
    {
        int const threads = cpu::thread_count();
        std::vector<std::vector<T>> parts(std::size_t(threads), std::vector<T>(values, T(0)));
#pragma omp parallel num_threads(threads)
        {
#ifdef _OPENMP
            size_type const me = size_type(omp_get_thread_num()), count = size_type(omp_get_num_threads());
#else
            size_type const me = 0, count = 1;
#endif
            std::vector<T>& h = parts[me];
            size_type const begin = particles * me / count, end = particles * (me + 1) / count;
            for (size_type i = begin; i < end; ++i) deposit(i, h);
        }
        std::vector<T> out(values, T(0));
        for (auto const& h : parts)
            for (size_type k = 0; k < values; ++k) out[k] += h[k];
        return out;
    }
};

}  // namespace

std::unique_ptr<CollectiveKernels> make_cpu_collective() { return std::make_unique<CpuCollective>(); }

}  // namespace gt
