// Per-kernel accumulated wall time, calls, bytes moved and FP64 operations: the raw material of
// performance reports (--timing, --profile).
#pragma once

#include <map>
#include <string>

#include "kernels/core/TraceLog.hh"

namespace gt {

struct KernelRecord {
    double seconds = 0;  //!< summed over calls [s]
    long calls = 0;
    double bytes = 0;  //!< bytes read + written, summed over calls
    double items = 0;  //!< work items (e.g. particle-element pushes), summed over calls
    double flops = 0;  //!< counted FP64 operations, summed over calls (0: not counted for this kernel)
    // The first call alone (it pays the warm-up: first touch of memory, module loading, clocks), so
    // that rates can be quoted for the calls after it.
    double first_seconds = 0;
    double first_bytes = 0;
    double first_flops = 0;
};

//! One timed stage as a stage timer records it (KernelTimer::add's arguments but the time): the GPU's
//! deferred event timer (kernels/cuda/DeferredTimer.cuh) and the CPU's host clock (HostStageTimer.hh).
struct TimedStage {
    std::string kernel;
    double bytes = 0;
    double items = 0;
    double flops = 0;
};

class KernelTimer {
  public:
    //! One call of `kernel` that took `seconds` and ended `ended_ago` seconds before now (a GPU stage
    //! read after a later wait, kernels/cuda/DeferredTimer.cuh; 0: it just ended).
    void add(std::string const& kernel, double seconds, double bytes, double items, double flops = 0,
             double ended_ago = 0)
    {
        auto& r = records_[kernel];
        if (r.calls == 0) {
            r.first_seconds = seconds;
            r.first_bytes = bytes;
            r.first_flops = flops;
        }
        r.seconds += seconds;
        r.calls += 1;
        r.bytes += bytes;
        r.items += items;
        r.flops += flops;
        trace_log().ended_now(kernel, "kernel", seconds, ended_ago);
    }
    std::map<std::string, KernelRecord> const& records() const { return records_; }
    void clear() { records_.clear(); }

  private:
    std::map<std::string, KernelRecord> records_;
};

}  // namespace gt
