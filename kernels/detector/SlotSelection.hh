// Which slots the step actions run over when run.track_order is "alive" or "charge": a predicate
// on slot numbers, which each backend uses in a stable selection (the chosen slots in slot order).
#pragma once

#include <cstdint>

#include "kernels/core/Macros.hh"
#include "kernels/core/Types.hh"
#include "kernels/physics/ParticleType.hh"

namespace gt {

struct SlotSelection {
    enum Which : std::int32_t { live = 0, live_charged = 1, live_neutral = 2 };
    std::int32_t const* status = nullptr;
    std::int32_t const* particle = nullptr;
    ParticleType const* particles = nullptr;
    Which which = live;

    GT_HOST_DEVICE bool operator()(std::uint32_t i) const
    {
        if (status[i] != 1) return false;
        if (which == live) return true;
        bool const charged = particles[particle[i]].charge != 0;
        return which == live_charged ? charged : !charged;
    }
};

//! Runs f on the slots listed in `slots` (item k is slot slots[k]).
template <class F>
struct OnSlots {
    F f;
    std::uint32_t const* slots;

    GT_HOST_DEVICE void operator()(size_type k) const { f(slots[k]); }
};

}  // namespace gt
