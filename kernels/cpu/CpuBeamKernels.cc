// The beamline operations on the CPU: BeamDriver instantiated with the OpenMP executor.
#include <string>

#include "kernels/beam/BeamDriver.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/beam/SegmentCases.hh"
#include "kernels/beam/SegmentWork.hh"
#include "kernels/beam/SelectParticles.hh"
#include "kernels/cpu/Executor.hh"
#include "kernels/cpu/SegmentLanes.hh"
#include "kernels/cpu/Stopwatch.hh"

namespace gt {
namespace {

class CpuBeamKernels final : public BeamKernels {
  public:
    MemSpace memory() const override { return MemSpace::host; }

    std::string description() const override
    {
        return "cpu (OpenMP, " + std::to_string(cpu::thread_count()) + " threads)";
    }

    void generate(ParticleView particles, BeamSampler const& sampler, std::uint64_t first_id) override
    {
        cpu::Stopwatch w;
        beam_driver::generate<cpu::Policy>(particles, sampler, first_id);
        timer_.add("generate", w.seconds(), double(particles.size) * k_generate_bytes_per_particle,
                   double(particles.size));
    }

    void set_elements(std::vector<Element> const& elements, std::vector<double> const& field_data) override
    {
        field_data_ = field_data;
        elements_ = elements;
        for (Element& e : elements_) bind_field_data(e, field_data_.data());
        work_ = SegmentWork(elements);
        cases_ = SegmentCaseTable(elements);
    }

    void track(ParticleView particles, size_type begin, size_type end, std::int32_t turn) override
    {
        track_timed("track", particles, begin, end, turn, 1);
    }

    //! The many-turn executor on the CPU: turns inside the loop over blocks of particles (TrackSegmentLanes'
    //! `turns`), one parallel loop for all of them.
    void track_turns(ParticleView particles, size_type entries, std::int32_t first_turn,
                     std::int32_t turns) override
    {
        track_timed("track", particles, 0, entries, first_turn, turns);
    }

    void track_timed(char const* name, ParticleView particles, size_type begin, size_type end,
                     std::int32_t turn, std::int32_t turns)
    {
        cpu::Stopwatch w;
        // k_simd_lanes particles as a structure of arrays (TrackSegmentLanes): the same bits as TrackSegment.
        ElementCases const cases = cases_.cases(begin, end);
        if (cases_.emits_photons(begin, end)) {
            // Quantum excitation: the photon-emitting entries take each particle's clock (TrackSegment).
            if (cases == ElementCases::all)
                track_blocks<ElementCases::all, true>(particles, begin, end, turn, turns);
            else
                track_blocks<ElementCases::without_integrators, true>(particles, begin, end, turn, turns);
        } else {
            track_switch(cases, particles, begin, end, turn, turns);
        }
        // Work as counted for the turns asked (particles lost on the way are counted as if they went on).
        timer_.add(name, w.seconds(), double(particles.size) * k_track_bytes_per_particle,
                   double(particles.size) * double(end - begin) * double(turns),
                   double(particles.size) * work_.flops_per_particle(begin, end) * double(turns));
    }

    void track_switch(ElementCases cases, ParticleView particles, size_type begin, size_type end,
                      std::int32_t turn, std::int32_t turns) const
    {
        switch (cases) {
            case ElementCases::linear_maps:
                track_blocks<ElementCases::linear_maps>(particles, begin, end, turn, turns);
                break;
            // The optics-map switch is the GPU's (registers); on the CPU it measured no faster than the
            // switch without integrators (within 3% on the exact ring, one thread), which tracks those
            // entries with the same code: one instantiation fewer of the hot loop.
            case ElementCases::optics_maps:
                track_blocks<ElementCases::without_integrators>(particles, begin, end, turn, turns);
                break;
            case ElementCases::without_integrators:
                track_blocks<ElementCases::without_integrators>(particles, begin, end, turn, turns);
                break;
            case ElementCases::all:
                track_blocks<ElementCases::all>(particles, begin, end, turn, turns);
                break;
        }
    }

    double time_bunch_begin(ParticleView particles, size_type entry) override
    {
        cpu::Stopwatch w;
        double const k = beam_driver::time_bunch_begin<cpu::Policy>(particles, bunch(particles),
                                                                    elements_[entry], cross_rank());
        timer_.add("time_bunch", w.seconds(), 0.0, double(particles.size));
        return k;
    }

    std::array<double, 3> time_bunch_step(ParticleView particles, size_type entry, double k) override
    {
        cpu::Stopwatch w;
        auto const c = beam_driver::time_bunch_step<cpu::Policy>(particles, bunch(particles),
                                                                 elements_[entry], k, cross_rank());
        timer_.add("time_bunch", w.seconds(), 0.0, double(particles.size));
        return c;
    }

    void time_bunch_positions(ParticleView particles, size_type entry, double k, double inv_beta_b,
                              ParticleView out) override
    {
        cpu::Stopwatch w;
        beam_driver::time_bunch_positions<cpu::Policy>(particles, bunch(particles), elements_[entry], k,
                                                       inv_beta_b, out);
        timer_.add("time_bunch", w.seconds(), 0.0, double(particles.size));
    }

    void time_bunch_kick(ParticleView kicks, size_type entry, double inv_beta_b) override
    {
        cpu::Stopwatch w;
        beam_driver::time_bunch_kick<cpu::Policy>(bunch(kicks), kicks, elements_[entry], inv_beta_b);
        timer_.add("time_bunch", w.seconds(), 0.0, double(kicks.size));
    }

    void time_bunch_finish(ParticleView particles, size_type entry, std::int32_t turn) override
    {
        cpu::Stopwatch w;
        beam_driver::time_bunch_finish<cpu::Policy>(particles, bunch(particles), elements_[entry], turn);
        timer_.add("time_bunch", w.seconds(), 0.0, double(particles.size));
    }

    BeamMoments moments(ParticleView particles) override
    {
        cpu::Stopwatch w;
        BeamMoments m = beam_driver::moments<cpu::Policy>(particles, cross_rank());
        timer_.add("moments", w.seconds(), double(particles.size) * k_moments_bytes_per_particle,
                   double(particles.size), double(particles.size) * k_moments_flops_per_particle);
        return m;
    }

    size_type count(ParticleView particles, bool alive) override
    {
        return size_type(cpu::reduce<1, reduce::Sum>(particles.size, CountSelected{particles, alive})[0]);
    }

    ParticleView gather_to_host(ParticleView particles, size_type begin, size_type end, bool alive) override
    {
        cpu::Stopwatch w;
        size_type const n = end - begin;
        if (flags_.size() < n) {
            flags_ = Buffer<std::uint32_t>(n, MemSpace::host);
            offsets_ = Buffer<std::uint32_t>(n, MemSpace::host);
        }
        ParticleState& out = staging_[next_staging_];
        if (out.size() < n) out = ParticleState(n, MemSpace::host);
        cpu::for_each(n, SelectFlags{particles, begin, alive, flags_.data()});
        std::uint32_t sum = 0;
        for (size_type i = 0; i < n; ++i) {
            offsets_[i] = sum;
            sum += flags_[i];
        }
        ParticleView v = out.view();
        cpu::for_each(n, ScatterSelected{particles, begin, flags_.data(), offsets_.data(), v});
        v.size = sum;
        if (sum > 0) next_staging_ ^= 1;  // an empty result leaves the other staging as it was
        timer_.add("gather", w.seconds(),
                   double(n) * k_gather_bytes_per_particle + double(sum) * k_gather_bytes_per_selected,
                   double(n));
        return v;
    }

    KernelTimer const& timer() const override { return timer_; }

  private:
    TimeBunchView bunch(ParticleView p) { return bunch_.view(p.size, MemSpace::host); }
    template <ElementCases Cases, bool Photons = false>
    void track_blocks(ParticleView particles, size_type begin, size_type end, std::int32_t turn,
                      std::int32_t turns) const
    {
        using Block = TrackSegmentLanes<k_simd_lanes, Cases, Photons>;
        cpu::for_each(Block::blocks(particles.size),
                      Block{particles, elements_.data(), begin, end, turn, turns});
    }

    TimeBunchState bunch_;
    Buffer<std::uint32_t> flags_, offsets_;  //!< gather_to_host's selection and its prefix sum
    ParticleState staging_[2];               //!< gather_to_host's results, alternating
    int next_staging_ = 0;
    std::vector<Element> elements_;
    SegmentCaseTable cases_;
    std::vector<double> field_data_;
    SegmentWork work_;
    KernelTimer timer_;
};

}  // namespace

std::unique_ptr<BeamKernels> make_cpu_beam_kernels() { return std::make_unique<CpuBeamKernels>(); }

}  // namespace gt
