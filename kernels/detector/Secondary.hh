// A secondary particle waiting for a track slot, and how its track id is made.
//
// Secondaries are written by the interaction actions into the run's secondary stack, in slot order
// (EmInteraction.hh), and moved into vacant slots by InitializeTracks. Nothing a secondary does
// depends on where it waited: its random numbers are keyed by its track id, which is a function of
// its parent's id, the parent's step and its rank in the interaction only.
#pragma once

#include <cstdint>

#include "kernels/core/Macros.hh"
#include "kernels/geometry/Vec3.hh"

namespace gt {

struct Secondary {
    std::uint64_t event = 0;
    std::uint64_t track = 0;
    std::int32_t particle = 0;
    std::int32_t volume = 0;  //!< placed volume it starts in (its parent's)
    Vec3 pos;                 //!< [m]
    Vec3 dir;
    double energy = 0;  //!< kinetic [MeV]
    double time = 0;    //!< [s]
};

//! Track id of the k-th secondary of parent's interaction at its step `step`: the SplitMix64 hash
//! (Steele, Lea & Flood, OOPSLA 2014) of the three, with the top bit set so that it never equals a
//! primary's number. Two secondaries share an id with probability ~N^2 / 2^64 (N secondaries in a run).
GT_HOST_DEVICE inline std::uint64_t secondary_track_id(std::uint64_t parent, std::uint32_t step,
                                                       std::uint32_t k)
{
    std::uint64_t z = parent * 0x9E3779B97F4A7C15ull + ((static_cast<std::uint64_t>(step) << 2) | k);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z = z ^ (z >> 31);
    return z | (std::uint64_t(1) << 63);
}

}  // namespace gt
