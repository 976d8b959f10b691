// The host phases of a run (set-up, tracking, output, ...) with their share of the wall time, from
// the trace log: what `--trace` and `--profile` print, so that a phase that outgrows the kernels
// (a whole-state copy, a slow write) shows at once.
#pragma once

#include <string>
#include <vector>

#include "kernels/core/TraceLog.hh"

namespace gt {

struct HostPhase {
    std::string name;
    double seconds = 0;  //!< [s] summed over its occurrences
    double share = 0;    //!< of the wall time
};

//! The outermost host phases of `log` that lie inside the event named `whole` (its duration is the
//! wall time), summed by name in the order they first began, then "other": the wall time no phase
//! covers. Phases nested in another (a checkpoint inside tracking) are part of the outer one.
std::vector<HostPhase> host_phases(TraceLog const& log, std::string const& whole = "gtrack run");

//! "host phases: setup 0.012 s (3.1%), tracking ...; wall 0.39 s" (one line, with a newline).
std::string format_host_phases(std::vector<HostPhase> const& phases);

}  // namespace gt
