// The beamline operations on the CPU: BeamDriver instantiated with the OpenMP executor.
#include <string>

#include "kernels/beam/BeamDriver.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/beam/SegmentCases.hh"
#include "kernels/beam/SegmentWork.hh"
#include "kernels/cpu/Executor.hh"
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
        cpu::Stopwatch w;
        // Four particles side by side (TrackSegmentBlock): the same bits as TrackSegment.
        if (cases_.cases(begin, end) == ElementCases::all)
            track_blocks<ElementCases::all>(particles, begin, end, turn);
        else
            track_blocks<ElementCases::without_integrators>(particles, begin, end, turn);
        timer_.add("track", w.seconds(), double(particles.size) * k_track_bytes_per_particle,
                   double(particles.size) * double(end - begin),
                   double(particles.size) * work_.flops_per_particle(begin, end));
    }

    BeamMoments moments(ParticleView particles) override
    {
        cpu::Stopwatch w;
        BeamMoments m = beam_driver::moments<cpu::Policy>(particles, cross_rank());
        timer_.add("moments", w.seconds(), double(particles.size) * k_moments_bytes_per_particle, double(particles.size),
                   double(particles.size) * k_moments_flops_per_particle);
        return m;
    }

    KernelTimer const& timer() const override { return timer_; }

  private:
    template<ElementCases Cases>
    void track_blocks(ParticleView particles, size_type begin, size_type end, std::int32_t turn) const
    {
        using Block = TrackSegmentBlock<4, Cases>;
        cpu::for_each(Block::blocks(particles.size), Block{particles, elements_.data(), begin, end, turn});
    }

    std::vector<Element> elements_;
    SegmentCaseTable cases_;
    std::vector<double> field_data_;
    SegmentWork work_;
    KernelTimer timer_;
};

}  // namespace

std::unique_ptr<BeamKernels> make_cpu_beam_kernels() { return std::make_unique<CpuBeamKernels>(); }

}  // namespace gt
