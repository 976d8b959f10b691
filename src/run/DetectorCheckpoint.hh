// The checkpoint of a detector run, taken between two step iterations: the stepping loop's whole
// state on every rank (track slots, waiting secondaries, hits so far, tallies, counters, energy
// balances, the next primary), so that the resumed run goes on exactly as the uninterrupted one,
// its schedule included (docs/checkpoint.md).
#pragma once

#include <cstdint>
#include <string>

#include "kernels/detector/DetectorKernels.hh"
#include "run/CheckpointIdentity.hh"

namespace gt {

struct DetectorCheckpoint {
    CheckpointIdentity identity;
    std::string start_time;        //!< of the first run of the chain (ISO 8601 UTC)
    std::uint64_t events = 0;      //!< of the whole run
    std::uint64_t iterations = 0;  //!< step iterations of the chain so far (under MPI: the most of any rank)
    DetectorLoopState loop;        //!< this rank's
};

//! Writes `c` (every rank's loop state, in rank order: every rank calls it) to `path` atomically: a
//! temporary, fsync, rename; an older checkpoint stays whole until then.
void write_detector_checkpoint(std::string const& path, DetectorCheckpoint const& c);

//! Reads the checkpoint at `path` with this rank's loop state; throws std::runtime_error saying why
//! and what to do when it is not one, one of another rank count, or one resume_refusal() refuses for
//! `expected`.
DetectorCheckpoint read_detector_checkpoint(std::string const& path, CheckpointIdentity const& expected);

}  // namespace gt
