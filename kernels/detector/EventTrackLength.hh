// Per event, the summed true path length of charged and of neutral shower particles in sensitive
// volumes (Geant4's TestEm2 "charged traklen" and "neutral traklen"), as integers in units of
// k_length_unit so that the sums do not depend on order (every backend agrees). Recorded on request only
// (DetectorRunOptions::track_lengths): one more atomic addition per step.
#pragma once

#include <cstdint>

#include "kernels/detector/Atomic.hh"

namespace gt {

enum TrackLengthCategory : int { k_length_charged = 0, k_length_neutral, k_num_length_categories };

inline constexpr double k_length_unit = 1.0e-9;  //!< [m]: rounding of 0.5 nm per step

struct EventTrackLengthView {
    std::uint64_t* data = nullptr;  //!< [event][TrackLengthCategory]; null: not recorded
    std::uint64_t events = 0;

    GT_HOST_DEVICE void add(std::uint64_t event, int category, double length) const
    {
        if (!data || event >= events || length <= 0) return;
        atomic_add(data + event * k_num_length_categories + category,
                   static_cast<std::uint64_t>(length / k_length_unit + 0.5));
    }
};

}  // namespace gt
