// Counting the work of a run without running it: the run's own segment schedule (BeamTracker) over
// a backend that only counts, priced per call from the calibration.
#include "run/Forecast.hh"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "beam/Lattice.hh"
#include "beam/LatticeCompaction.hh"
#include "kernels/beam/SegmentCases.hh"
#include "kernels/beam/SegmentWork.hh"
#include "kernels/beam/SelectParticles.hh"
#include "kernels/spacecharge/GridGeometry.hh"
#include "kernels/spacecharge/ShapeFunction.hh"
#include "kernels/spacecharge/SpaceChargeWork.hh"
#include "run/BeamRun.hh"
#include "run/BeamTracker.hh"
#include "run/ParticleDownload.hh"
#include "run/SpaceChargeSchedule.hh"

namespace gt {

namespace {

//! How a kernel's time follows from its counted work: which measured ceiling bounds it.
enum class Bound {
    map,       //!< element maps: FP64 operations at the map rate, plus a cost per particle and entry
    reduce,    //!< the moments: FP64 operations at the reduction rate
    generate,  //!< beam sampling: particles at the sampling rate
    stream,    //!< streaming passes: bytes at the copy bandwidth
    sort,      //!< the cell sort: bytes at its measured bandwidth
    deposit,   //!< scattered adds: bytes at the measured deposit bandwidth
    gather,    //!< scattered reads: bytes at the measured gather bandwidth
    download,  //!< the output's gathers: selection, selected particles and new staging at their rates
    fixed,     //!< FFT solves: measured per size, given in seconds
};

//! One call's counted work.
struct CallWork {
    double launches = 1;  //!< kernel launches (GPU) or parallel regions (CPU)
    double bytes = 0;
    double flops = 0;
    double items = 0;               //!< particle-element pushes (map) or particles (generate)
    double seconds = 0;             //!< Bound::fixed: the measured time
    bool waits = false;             //!< ends with a copy back and a host synchronization (a reduction)
    FamilyFlops family_flops{};     //!< Bound::map: `flops` by map family, each at its calibrated rate
    double per_particle_items = 0;  //!< Bound::map: pushes of entries tracked one particle at a time
    double particles = 0;           //!< Bound::map: particles of the call (each loaded and stored once)
    double selected_bytes = 0;      //!< Bound::download: of `bytes`, the selected particles'
    double staging_bytes = 0;       //!< Bound::download: host staging the call allocates and first writes
    double grow_bytes = 0;          //!< Bound::download: flags and offsets the call allocates
    //! Bound::map, deposit: [B/s] the call's own (a segment's switch's, a deposit's between sorts); 0: the
    //! class's (track_bandwidth, deposit_bandwidth)
    double own_bandwidth = 0;
};

static_assert(std::tuple_size_v<decltype(Ceilings::fp64_map_family)> == k_map_families,
              "a calibrated map rate for every family");
static_assert(Ceilings::k_other == int(MapFamily::other) &&
                  Ceilings::k_field_map == int(MapFamily::field_map) &&
                  Ceilings::k_field_map_3d == int(MapFamily::field_map_3d),
              "the field-map families fall back to the other family's rate");

class ForecastBuilder {
  public:
    explicit ForecastBuilder(Ceilings const& c) : c_(c) {}

    void add(std::string const& kernel, Bound bound, CallWork const& w)
    {
        // Streaming kernels reach the measured fraction of the copy bandwidth of a one-entry segment,
        // not the copy bandwidth itself (73-87% on the H100); every kernel is bounded by the copy.
        // A gather to the host is priced at its own measured rates (its copy is bound by the host link).
        // A segment streams at the bandwidth its element switch reaches (the GPU compiles each switch with
        // its own register budget, so its own occupancy), where calibrated.
        bool const streams = (bound == Bound::map || bound == Bound::stream) && c_.track_bandwidth > 0;
        double const stream_bandwidth = w.own_bandwidth > 0 ? w.own_bandwidth : c_.track_bandwidth;
        double const body =
            bound == Bound::download
                ? time_of(bound, w)
                : std::max(time_of(bound, w), w.bytes / (streams ? stream_bandwidth : c_.copy_bandwidth));
        // A reduction's fixed cost is its launch, the copy back and the wait, measured as one; a gather's
        // its launches, the count's copy back and the waits, measured as one too.
        double const latency = bound == Bound::download           ? c_.download_latency
                               : w.waits && c_.reduce_latency > 0 ? c_.reduce_latency
                                                                  : w.launches * c_.launch_latency;
        KernelForecast& k = f_.kernels[kernel];
        k.calls += 1;
        k.bytes += w.bytes;
        k.flops += w.flops;
        // Barbone et al.: half and twice the counted work bound the best and worst cases.
        k.seconds += latency + body;
        k.best += latency + 0.5 * body;
        k.worst += latency + 2.0 * body;
    }

    //! A one-time cost (the first calls' module loading and FFT plans), not scaled by best/worst; `call`:
    //! counted as a call of its own (false: paid inside a call already counted).
    void add_once(std::string const& name, double seconds, bool call = true)
    {
        if (seconds <= 0) return;
        KernelForecast& k = f_.kernels[name];
        k.calls += call ? 1 : 0;
        k.seconds += seconds;
        k.best += seconds;
        k.worst += seconds;
    }

    //! [s] host work beside the kernels (not in their time): the GPU gathers' page-locked staging.
    void add_host_staging(double seconds) { f_.host_staging_seconds += seconds; }

    Ceilings const& ceilings() const { return c_; }

    RunForecast finish()
    {
        for (auto const& [name, k] : f_.kernels) {
            f_.seconds += k.seconds;
            f_.best += k.best;
            f_.worst += k.worst;
        }
        return f_;
    }

  private:
    //! [s] the work at the ceiling that bounds it (the copy bandwidth bounds every kernel too).
    double time_of(Bound b, CallWork const& w) const
    {
        switch (b) {
            case Bound::map: {
                double t = w.items * (c_.push_seconds + std::max(0.0, c_.mix_push_seconds)) +
                           w.per_particle_items * c_.fallback_push_seconds +
                           w.particles * c_.call_particle_seconds;
                for (int f = 0; f < k_map_families; ++f) t += w.family_flops[f] / c_.fp64_map_of(f);
                return t;
            }
            case Bound::reduce:
                return w.flops / c_.fp64_reduce;
            case Bound::generate:
                return w.items / c_.generate_rate;
            case Bound::stream:
                return 0.0;
            case Bound::sort:
                return w.bytes / c_.sort_bandwidth;
            case Bound::deposit:
                return w.bytes / (w.own_bandwidth > 0 ? w.own_bandwidth : c_.deposit_bandwidth);
            case Bound::gather:
                return w.bytes / c_.gather_bandwidth;
            case Bound::download:
                return (w.bytes - w.selected_bytes) / c_.download_scan_bandwidth +
                       w.selected_bytes / c_.download_bandwidth +
                       (c_.staging_in_kernels != 0 ? w.staging_bytes / c_.staging_bandwidth : 0.0) +
                       (c_.download_grow_bandwidth > 0 ? w.grow_bytes / c_.download_grow_bandwidth : 0.0);
            case Bound::fixed:
                return w.seconds;
        }
        return 0.0;
    }

    Ceilings const& c_;
    RunForecast f_;
};

//! A beam backend that tracks nothing: it prices each call the run would make.
class CountingBeamKernels final : public BeamKernels {
  public:
    explicit CountingBeamKernels(ForecastBuilder& out) : out_(out) {}
    MemSpace memory() const override { return MemSpace::host; }
    std::string description() const override { return "forecast"; }
    void generate(ParticleView particles, BeamSampler const&, std::uint64_t) override
    {
        double const n = double(particles.size);
        out_.add("generate", Bound::generate, {1, n * k_generate_bytes_per_particle, 0, n, 0});
    }
    void set_elements(std::vector<Element> const& elements, std::vector<double> const&) override
    {
        work_ = SegmentWork(elements);
        cases_ = SegmentCaseTable(elements);
    }
    void track(ParticleView particles, size_type begin, size_type end, std::int32_t) override
    {
        double const n = double(particles.size);
        double const pushes = n * double(end - begin);
        CallWork w{1, n * k_track_bytes_per_particle, n * work_.flops_per_particle(begin, end), pushes, 0};
        w.family_flops = work_.family_flops_per_particle(begin, end);
        w.per_particle_items = n * work_.per_particle_entries(begin, end);
        w.particles = n;
        w.own_bandwidth = out_.ceilings().track_bandwidth_of(int(cases_.cases(begin, end)));
        for (double& f : w.family_flops) f *= n;
        out_.add("track", Bound::map, w);
    }
    // The forecast prices a t-code entry with space charge as track() prices it (the same pushes)
    // and its kicks from the schedule (forecast_run): the bunch steps themselves are not called.
    double time_bunch_begin(ParticleView, size_type) override { return HUGE_VAL; }
    std::array<double, 3> time_bunch_step(ParticleView, size_type, double) override
    {
        return {0.0, 0.0, 0.0};
    }
    void time_bunch_positions(ParticleView, size_type, double, double, ParticleView) override {}
    void time_bunch_kick(ParticleView, size_type, double) override {}
    void time_bunch_finish(ParticleView, size_type, std::int32_t) override {}
    BeamMoments moments(ParticleView particles) override
    {
        double const n = double(particles.size);
        out_.add("moments", Bound::reduce,
                 {1, n * k_moments_bytes_per_particle, n * k_moments_flops_per_particle, n, 0, true});
        BeamMoments m;
        m.alive = n;
        return m;
    }
    //! The forecast's beam stays alive: no particle is lost.
    size_type count(ParticleView particles, bool alive) override { return alive ? particles.size : 0; }
    //! A gather of [begin, end): every particle looked at, the live ones selected (none for the loss
    //! records). The flags and offsets grow to the most particles looked at; the host staging is the
    //! backends': two buffers used in turn by the calls that select some, each grown (reallocated) when a
    //! call selects more than it holds. Not priced without a calibration of the gathers (files written before
    //! them): ForecastCommand says so.
    ParticleView gather_to_host(ParticleView, size_type begin, size_type end, bool alive) override
    {
        if (!priced_gathers_) return {};
        double const n = double(end - begin);
        double const m = alive ? n : 0.0;
        CallWork w;
        w.bytes = n * k_gather_bytes_per_particle + m * k_gather_bytes_per_selected;
        w.selected_bytes = m * k_gather_bytes_per_selected;
        w.items = n;
        if (n > looked_) {
            w.grow_bytes = n * k_gather_grow_bytes_per_particle;
            looked_ = n;
        }
        if (m > 0) {
            if (m > staging_[next_staging_]) {
                w.staging_bytes = m * k_staging_bytes_per_particle;
                staging_[next_staging_] = m;
                // The GPU allocates it while the device waits, outside the gather's events: host time.
                if (out_.ceilings().staging_in_kernels == 0)
                    out_.add_host_staging(w.staging_bytes / out_.ceilings().staging_bandwidth);
            }
            next_staging_ ^= 1;
        }
        out_.add("gather", Bound::download, w);
        return {};
    }
    void price_gathers(bool on) { priced_gathers_ = on; }
    KernelTimer const& timer() const override { return timer_; }

  private:
    ForecastBuilder& out_;
    SegmentWork work_;
    SegmentCaseTable cases_;  //!< each segment's element switch (its streaming bandwidth)
    KernelTimer timer_;       // stays empty: nothing is timed here
    bool priced_gathers_ = false;
    double looked_ = 0;           //!< particles the flags and offsets hold
    double staging_[2] = {0, 0};  //!< particles each host staging buffer holds
    int next_staging_ = 0;
};

//! The stages of one space-charge kick, with the counts SpaceChargeSolver records (SpaceChargeWork.hh).
void add_kick(ForecastBuilder& out, Ceilings const& c, SpaceChargeSettings const& s, double n, long kick,
              bool first)
{
    int const w = shape_width(s.shape);
    bool const sliced = s.model == SpaceChargeModel::two_and_half_d;
    double const nodes = double(s.grid[0]) * double(s.grid[1]) * double(s.grid[2]);
    double const doubled = sliced ? 4.0 * s.grid[0] * s.grid[1] : 8.0 * nodes;
    double const spectrum =
        sliced ? 2.0 * s.grid[1] * (s.grid[0] + 1.0) : 4.0 * s.grid[2] * s.grid[1] * (s.grid[0] + 1.0);
    double const corners = sliced ? (s.grid[0] + 2.0) * (s.grid[1] + 2.0)
                                  : (s.grid[0] + 2.0) * (s.grid[1] + 2.0) * (s.grid[2] + 2.0);
    bool const sorts = s.sort_every > 0 && kick % s.sort_every == 0;
    if (sorts) out.add("sc.sort", Bound::sort, {4, sc_work::sort_bytes(n), 0, n, 0});
    // Between two sorts the deposit packs the positions again and reads them in the last sort's order.
    CallWork deposit{3, sc_work::deposit_bytes(n, w, nodes), sc_work::deposit_flops(n, w, nodes), n, 0};
    if (s.sort_every > 0 && !sorts) deposit.own_bandwidth = c.deposit_between_sorts_bandwidth;
    out.add("sc.deposit", Bound::deposit, deposit);
    // The Green's function is computed at the first kick and again whenever the bunch breathes out
    // of its grid spacing (+-10%, GridSizing.hh), which only tracking can tell: the forecast counts
    // it at every other kick (measured: 62 of 160 kicks in fodo_space_charge.toml). Its time per size
    // is the calibrated steady one (the first call's excess is in the warm-up; on the GPU the FFT plans
    // and cuFFT's kernels are made and loaded outside the timed stages, CudaSpaceCharge.cu).
    if (first || kick % 2 == 1)
        out.add("sc.green", Bound::fixed,
                {3, sc_work::green_bytes(corners, doubled, spectrum), sc_work::green_flops(doubled), 0,
                 c.fft_time(c.green_seconds, doubled)});
    out.add("sc.solve", Bound::fixed,
            {4, sc_work::solve_bytes(nodes, doubled, spectrum), sc_work::solve_flops(doubled, spectrum), 0,
             c.fft_time(c.fft_seconds, doubled)});
    out.add("sc.field", Bound::fixed,
            {1, sc_work::field_bytes(nodes), sc_work::field_flops(nodes), 0,
             c.fft_time(c.field_seconds, doubled)});
    out.add("sc.gather", Bound::gather,
            {1, sc_work::gather_kick_bytes(n, w), sc_work::gather_kick_flops(n, w), n, 0});
}

}  // namespace

RunForecast forecast_run(DeckConfig const& deck, Ceilings const& ceilings)
{
    if (deck.run.kind == "detector")
        throw std::runtime_error(
            "forecast: a detector deck's kernels are forecast from a pilot run (DetectorForecast.hh), not here");
    ForecastBuilder out(ceilings);
    CountingBeamKernels kernels(out);
    ReferenceParticle const ref = initial_reference(deck);
    DeckConfig const sliced = with_space_charge_slices(deck);
    Lattice const lattice = build_tracking_lattice(sliced, ref);
    kernels.set_elements(lattice.elements, *lattice.field_data);

    // A view with the beam's size and no storage: the counting backend reads only its size.
    ParticleView particles;
    particles.size = deck.beam.macroparticles;
    if (deck.beam.distribution != "file") kernels.generate(particles, BeamSampler{}, 0);
    BeamTracker tracker(lattice, deck.output, deck.lattice.turns, kernels, particles);
    long kicks = 0;
    if (deck.space_charge.enabled) {
        std::vector<std::int64_t> entries;
        for (auto const& k : space_charge_schedule(lattice, sliced)) entries.push_back(k.entry);
        tracker.add_kicks(entries,
                          [&out, &ceilings, &kicks, &particles,
                           settings = space_charge_settings(deck.space_charge)](std::int64_t, std::int64_t) {
                              add_kick(out, ceilings, settings, double(particles.size), kicks, kicks == 0);
                              ++kicks;
                          });
        // A t-code entry is kicked after each time step while the bunch is inside: as many kicks as
        // the reference's steps (the bunch's own length adds a few, not counted).
        tracker.add_kicks(
            time_code_space_charge_entries(lattice, sliced),
            [&out, &ceilings, &kicks, &particles, &lattice,
             settings = space_charge_settings(deck.space_charge)](std::int64_t entry, std::int64_t) {
                TimeCode const& c = lattice.elements[std::size_t(entry)].time_code;
                auto const steps = static_cast<long>(std::ceil(c.tau_ref_end / c.step));
                for (long i = 0; i < steps; ++i) {
                    add_kick(out, ceilings, settings, double(particles.size), kicks, kicks == 0);
                    ++kicks;
                }
            });
    }
    kernels.price_gathers(ceilings.download_measured());
    auto const at_point = [&] {
        if (tracker.point().stats) kernels.moments(particles);
        // The snapshot's gathers (ParticleDownload.cc): every chunk holds live particles here.
        if (tracker.point().phase_space)
            for_each_gathered(kernels, particles, true, [](ParticleView const&) {});
    };
    at_point();
    while (tracker.advance()) at_point();
    // The output stage: the loss records, every particle looked at (none lost here).
    for_each_gathered(kernels, particles, false, [](ParticleView const&) {});
    if (ceilings.download_measured()) out.add_once("gather", ceilings.download_warmup_seconds, false);
    // The first call of each kernel beyond a steady one: fresh memory touched, scratch allocated (the GPU
    // loads each kernel's module before its first timed call, CudaBeamKernels.cu, so loading is set-up
    // and not here); the first kick's likewise: measured once by calibrate, paid once per run.
    out.add_once("warm-up", ceilings.warmup_seconds + (kicks > 0 ? ceilings.sc_warmup_seconds : 0.0));
    return out.finish();
}

RunForecast forecast_calls(Ceilings const& ceilings, std::function<void(BeamKernels&)> const& calls)
{
    ForecastBuilder out(ceilings);
    CountingBeamKernels kernels(out);
    calls(kernels);
    out.add_once("warm-up", ceilings.warmup_seconds);
    return out.finish();
}

}  // namespace gt
