// Times work queued on the default stream with a pair of CUDA events (created once, reused), waiting
// for it at once. The beam kernels, which should not wait per stage, use DeferredTimer.cuh instead.
#pragma once

#include <algorithm>

#include <cuda_runtime.h>

#include "kernels/cuda/Check.cuh"
#include "kernels/cuda/HostWait.cuh"

namespace gt::cuda {

class EventTimer {
  public:
    EventTimer()
    {
        GT_CUDA_CHECK(cudaEventCreate(&start_));
        GT_CUDA_CHECK(cudaEventCreate(&stop_));
    }
    ~EventTimer()
    {
        (void)cudaEventDestroy(start_);
        (void)cudaEventDestroy(stop_);
    }
    EventTimer(EventTimer const&) = delete;
    EventTimer& operator=(EventTimer const&) = delete;

    //! Marks the start of the work to be timed.
    void start()
    {
        GT_CUDA_CHECK(cudaEventRecord(start_));
        excluded_ = 0;
    }

    //! Takes `seconds` of host work out of the work begun by start(): work during which the device sat
    //! idle because the host had waited for the stream before it (cuFFT's plans made and their kernels
    //! loaded: CudaSpaceCharge.cu). Not for work that may overlap queued device work.
    void exclude(double seconds) { excluded_ += seconds; }

    //! Waits for the work queued since start(); its duration in seconds. Execution errors surface here.
    double seconds()
    {
        GT_CUDA_CHECK(cudaEventRecord(stop_));
        wait(stop_, "the timed work");
        float ms = 0;
        GT_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
        return std::max(0.0, 1e-3 * double(ms) - excluded_);
    }

  private:
    cudaEvent_t start_ = nullptr;
    cudaEvent_t stop_ = nullptr;
    double excluded_ = 0;  //!< [s] taken out of the work begun by the last start()
};

}  // namespace gt::cuda
