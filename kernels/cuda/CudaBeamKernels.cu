// The beamline operations on the GPU: BeamDriver instantiated with the CUDA executor, timed with events.
// Nothing here waits for the GPU but the reductions (one wait each, Executor.cuh) and reading the
// timer: a tracking segment is queued and timed without a wait, and read at the statistics point
// after it (DeferredTimer.cuh), so a segment and its point cost the host one synchronization.
#include <algorithm>
#include <cstdint>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <cub/device/device_scan.cuh>

#include "kernels/beam/BeamDriver.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/beam/SegmentCases.hh"
#include "kernels/beam/SegmentWork.hh"
#include "kernels/beam/SelectParticles.hh"
#include "kernels/core/CrossRank.hh"
#include "kernels/core/Device.hh"
#include "kernels/core/NvtxRange.hh"
#include "kernels/core/PinnedHostArray.hh"
#include "kernels/core/TraceLog.hh"
#include "kernels/core/TraceScope.hh"
#include "kernels/cuda/DeferredTimer.cuh"
#include "kernels/cuda/Executor.cuh"

namespace gt {
namespace {

//! A particle chunk in page-locked host memory, which the GPU copies into at full link speed.
struct PinnedParticles {
    PinnedHostArray<double> x, px, y, py, t, pt;
    PinnedHostArray<std::uint64_t> id;
    PinnedHostArray<std::int32_t> lost_element, lost_turn;

    size_type held = 0;  //!< particles of room allocated

    //! n particles' room (at least one, so that every pointer is real).
    ParticleView view(size_type n)
    {
        size_type const m = n > 0 ? n : 1;
        held = std::max(held, m);
        ParticleView v{x.first(m).data(),         px.first(m).data(),
                       y.first(m).data(),         py.first(m).data(),
                       t.first(m).data(),         pt.first(m).data(),
                       id.first(m).data(),        lost_element.first(m).data(),
                       lost_turn.first(m).data(), n};
        return v;
    }
};

class CudaBeamKernels final : public BeamKernels {
  public:
    //! The scratch particle of load_before_timing set on the device (zero, alive), with no host copy: no
    //! wait for the GPU (a statistics point's one wait is counted: tests/gpu/StatisticsPointTest.cc).
    CudaBeamKernels()
    {
        ParticleView const v = scratch_.view();
        for (double* a : {v.x, v.px, v.y, v.py, v.t, v.pt}) GT_CUDA_CHECK(cudaMemset(a, 0, sizeof(double)));
        GT_CUDA_CHECK(cudaMemset(v.id, 0, sizeof(std::uint64_t)));
        GT_CUDA_CHECK(cudaMemset(v.lost_element, 0xff, sizeof(std::int32_t)));  // -1: alive
        GT_CUDA_CHECK(cudaMemset(v.lost_turn, 0xff, sizeof(std::int32_t)));
    }

    MemSpace memory() const override { return MemSpace::device; }

    std::string description() const override { return "gpu (" + device::name() + ")"; }

    void generate(ParticleView particles, BeamSampler const& sampler, std::uint64_t first_id) override
    {
        NvtxRange const range("generate");
        load_before_timing(k_load_generate, [&](ParticleView one) {
            beam_driver::generate<cuda::Policy>(one, sampler, first_id);
        });
        events_.start();
        beam_driver::generate<cuda::Policy>(particles, sampler, first_id);
        events_.stop(
            {"generate", double(particles.size) * k_generate_bytes_per_particle, double(particles.size)});
    }

    void set_elements(std::vector<Element> const& elements, std::vector<double> const& field_data) override
    {
        field_data_ = Buffer<double>(field_data.size(), MemSpace::device);
        if (!field_data.empty()) field_data_.copy_raw(field_data.data(), MemSpace::host);
        std::vector<Element> bound = elements;
        for (Element& e : bound) bind_field_data(e, field_data_.data());
        elements_ = Buffer<Element>(bound.size(), MemSpace::device);
        elements_.copy_raw(bound.data(), MemSpace::host);
        bound_ = std::move(bound);
        work_ = SegmentWork(elements);
        cases_ = SegmentCaseTable(elements);
    }

    void track(ParticleView particles, size_type begin, size_type end, std::int32_t turn) override
    {
        NvtxRange const range("track");
        ElementCases const cases = cases_.cases(begin, end);
        bool const photons = cases_.emits_photons(begin, end);
        bool const misaligned = cases_.misaligned(begin, end);
        // One kernel per (switch, photons, misalignments): TrackSegment's instantiations in
        // beam_driver::track.
        load_before_timing(k_load_track + 4 * int(cases) + 2 * int(misaligned) + int(photons),
                           [&](ParticleView one) {
                               beam_driver::track<cuda::Policy>(one, elements_.data(), begin, end, turn,
                                                                cases, photons, misaligned);
                           });
        events_.start();
        beam_driver::track<cuda::Policy>(particles, elements_.data(), begin, end, turn, cases, photons,
                                         misaligned);
        events_.stop({"track", double(particles.size) * k_track_bytes_per_particle,
                      double(particles.size) * double(end - begin),
                      double(particles.size) * work_.flops_per_particle(begin, end)});
    }

    //! The many-turn executor: TrackSegment's kernels with `turns`, each thread keeping its particle in
    //! registers through all of them; the table read through the caches as by a segment (a light source's
    //! ~2300 entries of sizeof(Element) bytes do not fit in shared memory).
    void track_turns(ParticleView particles, size_type entries, std::int32_t first_turn,
                     std::int32_t turns) override
    {
        NvtxRange const range("track_turns");
        ElementCases const cases = cases_.cases(0, entries);
        bool const photons = cases_.emits_photons(0, entries);
        bool const misaligned = cases_.misaligned(0, entries);
        load_before_timing(k_load_track + 4 * int(cases) + 2 * int(misaligned) + int(photons),
                           [&](ParticleView one) {
                               beam_driver::track<cuda::Policy>(one, elements_.data(), 0, entries, first_turn,
                                                                cases, photons, misaligned, 1);
                           });
        events_.start();
        beam_driver::track<cuda::Policy>(particles, elements_.data(), 0, entries, first_turn, cases, photons,
                                         misaligned, turns);
        events_.stop({"track", double(particles.size) * k_track_bytes_per_particle,
                      double(particles.size) * double(entries) * double(turns),
                      double(particles.size) * work_.flops_per_particle(0, entries) * double(turns)});
    }

    double time_bunch_begin(ParticleView particles, size_type entry) override
    {
        NvtxRange const range("time_bunch");
        events_.start();
        double const k = beam_driver::time_bunch_begin<cuda::Policy>(particles, bunch(particles),
                                                                     bound_[entry], cross_rank());
        events_.stop_waited({"time_bunch", 0.0, double(particles.size)}, cuda::reduce_scratch().done());
        return k;
    }

    std::array<double, 3> time_bunch_step(ParticleView particles, size_type entry, double k) override
    {
        NvtxRange const range("time_bunch");
        events_.start();
        auto const c = beam_driver::time_bunch_step<cuda::Policy>(particles, bunch(particles), bound_[entry],
                                                                  k, cross_rank());
        events_.stop_waited({"time_bunch", 0.0, double(particles.size)}, cuda::reduce_scratch().done());
        return c;
    }

    void time_bunch_positions(ParticleView particles, size_type entry, double k, double inv_beta_b,
                              ParticleView out) override
    {
        NvtxRange const range("time_bunch");
        events_.start();
        beam_driver::time_bunch_positions<cuda::Policy>(particles, bunch(particles), bound_[entry], k,
                                                        inv_beta_b, out);
        events_.stop({"time_bunch", 0.0, double(particles.size)});
    }

    void time_bunch_kick(ParticleView kicks, size_type entry, double inv_beta_b) override
    {
        NvtxRange const range("time_bunch");
        events_.start();
        beam_driver::time_bunch_kick<cuda::Policy>(bunch(kicks), kicks, bound_[entry], inv_beta_b);
        events_.stop({"time_bunch", 0.0, double(kicks.size)});
    }

    void time_bunch_finish(ParticleView particles, size_type entry, std::int32_t turn) override
    {
        NvtxRange const range("time_bunch");
        events_.start();
        beam_driver::time_bunch_finish<cuda::Policy>(particles, bunch(particles), bound_[entry], turn);
        events_.stop({"time_bunch", 0.0, double(particles.size)});
    }

    BeamMoments moments(ParticleView particles) override
    {
        NvtxRange const range("moments");
        load_before_timing(k_load_moments, [](ParticleView one) {
            (void)beam_driver::moments<cuda::Policy>(one, single_process());
        });
        events_.start();
        BeamMoments m = beam_driver::moments<cuda::Policy>(particles, cross_rank());
        // The reduction's wait is the point's one wait; the stage ends at its done event, so the host's
        // combining of the partials (and, under MPI, their exchange) is not counted as kernel time.
        events_.stop_waited({"moments", double(particles.size) * k_moments_bytes_per_particle,
                             double(particles.size), double(particles.size) * k_moments_flops_per_particle},
                            cuda::reduce_scratch().done());
        return m;
    }

    size_type count(ParticleView particles, bool alive) override
    {
        NvtxRange const range("count");
        return size_type(cuda::reduce<1, reduce::Sum>(particles.size, CountSelected{particles, alive})[0]);
    }

    //! Flags, CUB's exclusive sum and a scatter into a device chunk; the count (two words) and then
    //! the selected particles alone are copied to page-locked memory: one wait for each. The staging's
    //! page-locked allocation, when it grows, is made after the wait for the count, the device idle: host
    //! work taken out of the gather's time ("host staging" in --trace; Ceilings::staging_in_kernels).
    ParticleView gather_to_host(ParticleView particles, size_type begin, size_type end, bool alive) override
    {
        NvtxRange const range("gather");
        size_type const n = end - begin;
        if (n == 0) return staging_[next_staging_].view(0);
        if (flags_.size() < n) {
            flags_ = Buffer<std::uint32_t>(n, MemSpace::device);
            offsets_ = Buffer<std::uint32_t>(n, MemSpace::device);
            selected_ = ParticleState(n, MemSpace::device);
        }
        load_before_timing(k_load_gather, [&](ParticleView one) { (void)select(one, 0, 1, false); });
        events_.start();
        size_type const m = select(particles, begin, end, alive);
        PinnedParticles& host = staging_[next_staging_];
        bool const grows = std::max<size_type>(m, 1) > host.held;  // view() holds at least one
        double const staged_at = trace_log().now();
        ParticleView const h = host.view(m);
        if (grows) {
            double const seconds = trace_log().now() - staged_at;
            events_.exclude(seconds);
            trace_log().add(TraceEvent{"host staging", "phase", staged_at, seconds});
        }
        if (m > 0) {
            next_staging_ ^= 1;  // an empty result leaves the other staging as it was
            ParticleView const sel = selected_.view();
            auto const down = [](void* dst, void const* src, std::size_t b) {
                GT_CUDA_CHECK(cudaMemcpyAsync(dst, src, b, cudaMemcpyDeviceToHost, nullptr));
            };
            std::pair<double*, double const*> const coordinates[] = {
                {h.x, sel.x}, {h.px, sel.px}, {h.y, sel.y}, {h.py, sel.py}, {h.t, sel.t}, {h.pt, sel.pt}};
            for (auto const& [dst, src] : coordinates) down(dst, src, m * sizeof(double));
            down(h.id, sel.id, m * sizeof(std::uint64_t));
            down(h.lost_element, sel.lost_element, m * sizeof(std::int32_t));
            down(h.lost_turn, sel.lost_turn, m * sizeof(std::int32_t));
            cuda::note_host_wait();
            GT_CUDA_CHECK(cudaStreamSynchronize(nullptr));
        }
        events_.stop({"gather",
                      double(n) * k_gather_bytes_per_particle + double(m) * k_gather_bytes_per_selected,
                      double(n)});
        return h;
    }

    //! Waits for the stages not yet read (none right after a statistics point).
    KernelTimer const& timer() const override
    {
        events_.settle();
        return timer_;
    }

  private:
    TimeBunchView bunch(ParticleView p) { return bunch_.view(p.size, MemSpace::device); }

    //! The particles of [begin, end) flagged (alive or lost, `alive`), their exclusive sum (CUB) and a
    //! scatter into selected_; the count, read with one wait.
    size_type select(ParticleView particles, size_type begin, size_type end, bool alive)
    {
        size_type const n = end - begin;
        cuda::for_each(n, SelectFlags{particles, begin, alive, flags_.data()});
        std::size_t bytes = 0;
        int const items = static_cast<int>(n);
        GT_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, flags_.data(), offsets_.data(), items));
        if (scan_temp_.size() < bytes) scan_temp_ = Buffer<unsigned char>(bytes, MemSpace::device);
        GT_CUDA_CHECK(
            cub::DeviceScan::ExclusiveSum(scan_temp_.data(), bytes, flags_.data(), offsets_.data(), items));
        GT_CUDA_CHECK_LAUNCH();
        cuda::for_each(n,
                       ScatterSelected{particles, begin, flags_.data(), offsets_.data(), selected_.view()});
        std::span<std::uint32_t> const last = count_.first(2);
        GT_CUDA_CHECK(cudaMemcpyAsync(&last[0], offsets_.data() + (n - 1), sizeof(std::uint32_t),
                                      cudaMemcpyDeviceToHost, nullptr));
        GT_CUDA_CHECK(cudaMemcpyAsync(&last[1], flags_.data() + (n - 1), sizeof(std::uint32_t),
                                      cudaMemcpyDeviceToHost, nullptr));
        cuda::note_host_wait();
        GT_CUDA_CHECK(cudaStreamSynchronize(nullptr));
        return size_type(last[0]) + size_type(last[1]);
    }

    // CUDA loads a module, and each kernel in it, at its first launch (CUDA_MODULE_LOADING=LAZY, the default
    // since CUDA 12.2): 0.1-4 ms a kernel, 21 ms from a cold disk (H100, docs/performance.md), which the
    // first call's events timed as kernel work, so that a run's first calls cost more than the calibration
    // (which had loaded its own lattice's kernels) could know. The first call of each kind (of track, each
    // element switch) is therefore made once untimed, before its stage starts, on one scratch particle: the
    // kernels, CUB's and the reduction's scratch load there, as host set-up ("kernel loading" in --trace),
    // and the timed call finds them loaded. The scratch particle's results are not used.
    static constexpr int k_load_generate = 0, k_load_moments = 1, k_load_gather = 2, k_load_track = 8;

    template <class F>
    void load_before_timing(int kind, F const& call)
    {
        if (!loaded_.insert(kind).second) return;
        TraceScope const loading("kernel loading");
        call(scratch_.view());
    }

    TimeBunchState bunch_;
    Buffer<std::uint32_t> flags_, offsets_;  //!< gather_to_host's selection and its exclusive sum
    Buffer<unsigned char> scan_temp_;        //!< CUB's scratch for the sum
    ParticleState selected_;                 //!< the compacted chunk, on the device
    PinnedHostArray<std::uint32_t> count_;   //!< its last offset and flag: the count
    PinnedParticles staging_[2];             //!< gather_to_host's results, alternating
    int next_staging_ = 0;
    std::set<int> loaded_;  //!< the kinds of call made once untimed (load_before_timing)
    ParticleState scratch_{1, MemSpace::device};  //!< one particle for those calls
    std::vector<Element> bound_;  //!< the table on the host, pointing at the device's field data
    Buffer<Element> elements_;
    Buffer<double> field_data_;
    SegmentWork work_;
    SegmentCaseTable cases_;
    mutable KernelTimer timer_;
    mutable cuda::DeferredTimer events_{timer_};  //!< after timer_, which it fills
};

}  // namespace

std::unique_ptr<BeamKernels> make_cuda_beam_kernels()
{
    if (device::count() == 0) throw std::runtime_error("no GPU found (--backend gpu needs one)");
    return std::make_unique<CudaBeamKernels>();
}

}  // namespace gt
