// A host phase ("setup", "tracking", "output", "kernel loading", ...): one trace event and one NVTX range.
#pragma once

#include <string>

#include "kernels/core/NvtxRange.hh"
#include "kernels/core/TraceLog.hh"

namespace gt {

class TraceScope {
  public:
    explicit TraceScope(char const* name) : name_(name), nvtx_(name), start_(trace_log().now()) {}
    ~TraceScope() { trace_log().add(TraceEvent{name_, "phase", start_, trace_log().now() - start_}); }
    TraceScope(TraceScope const&) = delete;
    TraceScope& operator=(TraceScope const&) = delete;

  private:
    std::string name_;
    NvtxRange nvtx_;
    double start_;
};

}  // namespace gt
