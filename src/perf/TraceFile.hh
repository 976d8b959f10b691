// Writes the trace log as Chrome/Perfetto trace-event JSON (open it at ui.perfetto.dev or
// chrome://tracing): host phases on one track, kernels on another, times in microseconds.
#pragma once

#include <string>

#include "kernels/core/TraceLog.hh"

namespace gt {

void write_trace(std::string const& path, TraceLog const& log);

}  // namespace gt
