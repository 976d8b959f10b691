// How many whole turns one tracking call takes where nothing is due between turns: [lattice] turns_per_call,
// shared by runs (BeamRun.cc) and ring studies (src/study/), which call the many-turn executor alike.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace gt {

//! `asked`: the deck's value (0: "auto"); `pushes`: particles x table entries of one turn; `device`: GPU.
//! "auto": on a CPU as many turns as make about a second's work (~5e7 entry pushes a second a core), so that
//! stop requests and time-based checkpoints are seen between calls; on a GPU one turn a launch, since the
//! many-turn kernel measured 10% slower there (H100, light_source_ring 1e6 x 1000 with radiation: 6.3e7
//! against 6.9e7 particle-turns/s, docs/performance.md) and a launch is negligible beside a turn's work.
inline std::int64_t turns_per_call(std::int64_t asked, double pushes, bool device)
{
    if (asked > 0) return asked;
    if (device || pushes <= 0) return 1;
    return static_cast<std::int64_t>(std::clamp(std::floor(5e7 / pushes), 1.0, 1e6));
}

}  // namespace gt
