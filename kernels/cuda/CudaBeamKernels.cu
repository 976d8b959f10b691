// The beamline operations on the GPU: BeamDriver instantiated with the CUDA executor, timed with events.
#include <string>

#include "kernels/beam/BeamDriver.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/beam/SegmentCases.hh"
#include "kernels/beam/SegmentWork.hh"
#include "kernels/core/Device.hh"
#include "kernels/core/NvtxRange.hh"
#include "kernels/cuda/EventTimer.cuh"
#include "kernels/cuda/Executor.cuh"

namespace gt {
namespace {

class CudaBeamKernels final : public BeamKernels {
  public:
    MemSpace memory() const override { return MemSpace::device; }

    std::string description() const override { return "gpu (" + device::name() + ")"; }

    void generate(ParticleView particles, BeamSampler const& sampler, std::uint64_t first_id) override
    {
        NvtxRange const range("generate");
        events_.start();
        beam_driver::generate<cuda::Policy>(particles, sampler, first_id);
        timer_.add("generate", events_.seconds(), double(particles.size) * k_generate_bytes_per_particle,
                   double(particles.size));
    }

    void set_elements(std::vector<Element> const& elements, std::vector<double> const& field_data) override
    {
        field_data_ = Buffer<double>(field_data.size(), MemSpace::device);
        if (!field_data.empty()) field_data_.copy_raw(field_data.data(), MemSpace::host);
        std::vector<Element> bound = elements;
        for (Element& e : bound) bind_field_data(e, field_data_.data());
        elements_ = Buffer<Element>(bound.size(), MemSpace::device);
        elements_.copy_raw(bound.data(), MemSpace::host);
        work_ = SegmentWork(elements);
        cases_ = SegmentCaseTable(elements);
    }

    void track(ParticleView particles, size_type begin, size_type end, std::int32_t turn) override
    {
        NvtxRange const range("track");
        events_.start();
        beam_driver::track<cuda::Policy>(particles, elements_.data(), begin, end, turn, cases_.cases(begin, end));
        timer_.add("track", events_.seconds(), double(particles.size) * k_track_bytes_per_particle,
                   double(particles.size) * double(end - begin),
                   double(particles.size) * work_.flops_per_particle(begin, end));
    }

    BeamMoments moments(ParticleView particles) override
    {
        NvtxRange const range("moments");
        events_.start();
        BeamMoments m = beam_driver::moments<cuda::Policy>(particles, cross_rank());
        timer_.add("moments", events_.seconds(), double(particles.size) * k_moments_bytes_per_particle,
                   double(particles.size), double(particles.size) * k_moments_flops_per_particle);
        return m;
    }

    KernelTimer const& timer() const override { return timer_; }

  private:
    Buffer<Element> elements_;
    Buffer<double> field_data_;
    SegmentWork work_;
    SegmentCaseTable cases_;
    KernelTimer timer_;
    cuda::EventTimer events_;
};

}  // namespace

std::unique_ptr<BeamKernels> make_cuda_beam_kernels()
{
    if (device::count() == 0) throw std::runtime_error("no GPU found (--backend gpu needs one)");
    return std::make_unique<CudaBeamKernels>();
}

}  // namespace gt
