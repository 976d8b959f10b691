// The checkpoint of a detector run, taken at an event boundary with no track in flight: what the
// events before it produced (hits, tallies, counters, energy balances) and the next event to start.
// Tracks draw counter-based random numbers keyed by their ids, so nothing else is state
// (docs/checkpoint.md).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/detector/Hit.hh"
#include "kernels/detector/StepActions.hh"
#include "run/CheckpointIdentity.hh"

namespace gt {

struct DetectorCheckpoint {
    CheckpointIdentity identity;
    std::string start_time;                   //!< of the first run of the chain (ISO 8601 UTC)
    std::uint64_t events = 0;                 //!< of the whole run
    std::uint64_t next_event = 0;             //!< events [0, next_event) are done
    std::uint64_t iterations = 0;             //!< step iterations so far (a schedule, not a result)
    std::uint64_t secondary_stack_peak = 0;   //!< the most so far (a schedule, not a result)
    std::vector<Hit> hits;                    //!< of events [0, next_event), sorted by HitOrder
    std::vector<std::uint64_t> tally_counts;  //!< per logical volume, in k_tally_unit
    std::array<std::uint64_t, k_num_counters> counters{};
    std::vector<double> event_energy;  //!< per event of the whole run, k_num_energy_categories each [MeV]
};

//! Writes `c` to `path` atomically (a temporary, fsync, rename; an older checkpoint stays whole until then).
void write_detector_checkpoint(std::string const& path, DetectorCheckpoint const& c);

//! Reads the checkpoint at `path`; throws std::runtime_error saying why and what to do when it is not
//! one, or when resume_refusal() refuses it for `expected`.
DetectorCheckpoint read_detector_checkpoint(std::string const& path, CheckpointIdentity const& expected);

}  // namespace gt
