// output.checkpoint_every: how often a run writes its checkpoint (docs/checkpoint.md).
#pragma once

#include <cstdint>
#include <string_view>

namespace gt {

//! One of the two is set (> 0); both 0: no periodic checkpoint (a signal still writes one).
struct CheckpointEvery {
    std::int64_t steps = 0;  //!< turns of a ring, table entries of a single pass, events of a detector run
    double seconds = 0;      //!< [s] wall time between checkpoints
};

//! The two forms of the key: an integer N >= 1, or a wall time "30 min", "2 h", "90 s" (> 0). Throw
//! std::invalid_argument saying what was expected; the deck reader adds file, line and key.
CheckpointEvery checkpoint_every_steps(std::int64_t steps);
CheckpointEvery checkpoint_every_wall_time(std::string_view text);
//! What the key holds, for a value of another type.
inline constexpr char const* k_checkpoint_every_expected =
    "expected a number of turns (table entries for a single pass, events for a detector run) or a wall time "
    "such as \"30 min\"";

}  // namespace gt
