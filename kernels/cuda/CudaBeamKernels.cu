// The beamline operations on the GPU: BeamDriver instantiated with the CUDA executor, timed with events.
#include <string>

#include "kernels/beam/BeamDriver.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/core/Device.hh"
#include "kernels/cuda/Executor.cuh"

namespace gt {
namespace {

//! Times the work queued on the default stream between construction and seconds().
class EventTimer {
  public:
    EventTimer()
    {
        GT_CUDA_CHECK(cudaEventCreate(&start_));
        GT_CUDA_CHECK(cudaEventCreate(&stop_));
        GT_CUDA_CHECK(cudaEventRecord(start_));
    }
    ~EventTimer()
    {
        (void)cudaEventDestroy(start_);
        (void)cudaEventDestroy(stop_);
    }
    EventTimer(EventTimer const&) = delete;
    EventTimer& operator=(EventTimer const&) = delete;

    //! Waits for the queued work; its duration in seconds. Execution errors surface here.
    double seconds()
    {
        GT_CUDA_CHECK(cudaEventRecord(stop_));
        GT_CUDA_CHECK(cudaEventSynchronize(stop_));
        float ms = 0;
        GT_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
        return 1e-3 * double(ms);
    }

  private:
    cudaEvent_t start_ = nullptr;
    cudaEvent_t stop_ = nullptr;
};

class CudaBeamKernels final : public BeamKernels {
  public:
    MemSpace memory() const override { return MemSpace::device; }

    std::string description() const override { return "gpu (" + device::name() + ")"; }

    void generate(ParticleView particles, BeamSampler const& sampler, std::uint64_t first_id) override
    {
        EventTimer t;
        beam_driver::generate<cuda::Policy>(particles, sampler, first_id);
        timer_.add("generate", t.seconds(), double(particles.size) * k_generate_bytes_per_particle,
                   double(particles.size));
    }

    void set_elements(std::vector<Element> const& elements) override
    {
        elements_ = Buffer<Element>(elements.size(), MemSpace::device);
        elements_.copy_raw(elements.data(), MemSpace::host);
    }

    void track(ParticleView particles, size_type begin, size_type end, std::int32_t turn) override
    {
        EventTimer t;
        beam_driver::track<cuda::Policy>(particles, elements_.data(), begin, end, turn);
        timer_.add("track", t.seconds(), double(particles.size) * k_track_bytes_per_particle,
                   double(particles.size) * double(end - begin));
    }

    BeamMoments moments(ParticleView particles) override
    {
        EventTimer t;
        BeamMoments m = beam_driver::moments<cuda::Policy>(particles);
        timer_.add("moments", t.seconds(), 3.0 * double(particles.size) * (6 * 8 + 4),
                   double(particles.size));
        return m;
    }

    KernelTimer const& timer() const override { return timer_; }

  private:
    Buffer<Element> elements_;
    KernelTimer timer_;
};

}  // namespace

std::unique_ptr<BeamKernels> make_cuda_beam_kernels()
{
    if (device::count() == 0) throw std::runtime_error("no GPU found (--backend gpu needs one)");
    return std::make_unique<CudaBeamKernels>();
}

}  // namespace gt
