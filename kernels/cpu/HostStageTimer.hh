// Times stages of work that is finished when its call returns (the CPU backends) by the host clock:
// the same interface as the GPU's deferred event timer (kernels/cuda/DeferredTimer.cuh), so that a
// loop written once over an executor times its stages without waiting for each on the GPU.
#pragma once

#include <chrono>

#include "kernels/core/KernelTimer.hh"

namespace gt::cpu {

class HostStageTimer {
  public:
    using Stage = TimedStage;

    explicit HostStageTimer(KernelTimer& out) : out_(out) {}

    void start() { start_ = std::chrono::steady_clock::now(); }
    void stop(Stage stage)
    {
        double const dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        out_.add(stage.kernel, dt, stage.bytes, stage.items, stage.flops);
    }
    //! Nothing waits: every stage was recorded when it stopped.
    void settle() {}

  private:
    KernelTimer& out_;
    std::chrono::steady_clock::time_point start_;
};

}  // namespace gt::cpu
