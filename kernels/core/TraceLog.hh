// The process-wide timeline behind `gtrack run --trace`: host phases and timed kernels as complete
// events (name, start, duration), kept only while enabled. A kernel's event ends when KernelTimer::add
// records it (the CPU stopwatch, CUDA events waited on), or the time it is told before that (the beam
// stages on the GPU, whose events are read at a later wait: kernels/cuda/DeferredTimer.cuh).
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace gt {

struct TraceEvent {
    std::string name;
    char const* category;  //!< "phase" (host), "kernel" (timed device or CPU work) or "background" (host
                           //!< work beside the phases: app/StartUp.hh)
    double start;          //!< [s] since the log was enabled
    double duration;       //!< [s]
};

class TraceLog {
  public:
    using Clock = std::chrono::steady_clock;

    //! Starts recording (clears earlier events); times are counted from `origin` (default: now; the
    //! process's start, so that the start-up shows: app/StartUp.hh).
    void enable(Clock::time_point origin = Clock::now())
    {
        events_.clear();
        origin_ = origin;
        enabled_ = true;
    }
    bool enabled() const { return enabled_; }
    //! [s] since enable()'s origin.
    double now() const { return seconds_at(Clock::now()); }
    //! [s] from enable()'s origin to `t`.
    double seconds_at(Clock::time_point t) const
    {
        return std::chrono::duration<double>(t - origin_).count();
    }

    //! An event that ended `ago` seconds before now, after `duration` seconds.
    void ended_now(std::string const& name, char const* category, double duration, double ago = 0)
    {
        if (!enabled_) return;
        double const end = now() - ago;
        events_.push_back(TraceEvent{name, category, end - duration, duration});
    }
    void add(TraceEvent event)
    {
        if (enabled_) events_.push_back(std::move(event));
    }
    std::vector<TraceEvent> const& events() const { return events_; }
    //! What runs the kernels, e.g. "gpu (NVIDIA H100 80GB HBM3)": the name of the kernel track.
    void set_device(std::string device) { device_ = std::move(device); }
    std::string const& device() const { return device_; }

  private:
    bool enabled_ = false;
    Clock::time_point origin_ = Clock::now();
    std::vector<TraceEvent> events_;
    std::string device_ = "kernels";
};

//! The one log of this process.
inline TraceLog& trace_log()
{
    static TraceLog log;
    return log;
}

}  // namespace gt
