// The step loop's own scalars, kept in the backend's memory (device memory on the GPU), and the small
// actions that keep them: so that the host queues many step iterations without reading a count back
// between them (DetectorBackend::iterate).
//
// Each iteration is planned on the device by one thread (PlanIteration) from the vacancy scan: how
// many waiting secondaries and primaries start, how many tracks are in flight. The step actions
// read the plan where the host used to pass the counts by value, and the iteration's secondaries
// are added to the stack count after their commit (CloseCommit), from the secondaries counter. An
// iteration that would need more hit or stack room than the buffers have, or that finds no track
// left, pauses the loop: it and the iterations queued after it do nothing (Unpaused), the host
// grows the buffers at its one read of the scalars and queues the paused iteration again. Growing
// happens where the loop that read every count grew, from the same counts: nothing of the run
// depends on how many iterations are queued between two reads.
#pragma once

#include <cstdint>

#include "kernels/core/Macros.hh"
#include "kernels/core/Types.hh"
#include "kernels/detector/TrackState.hh"
#include "kernels/physics/ParticleType.hh"

namespace gt {

struct LoopScalars {
    std::uint64_t next_primary = 0;        //!< the next primary to start
    std::uint64_t stack_count = 0;         //!< secondaries waiting (after the iteration's starts)
    std::uint64_t stack_peak = 0;          //!< the most that waited at once
    std::uint64_t first_primary = 0;       //!< the first primary the iteration starts
    std::uint64_t from_stack = 0;          //!< secondaries the iteration starts
    std::uint64_t alive = 0;               //!< tracks in flight in the last iteration run
    std::uint64_t started = 0;             //!< tracks started (secondaries and primaries), all iterations
    std::uint64_t iterations = 0;          //!< step iterations run
    std::uint64_t hit_count = 0;           //!< hits scored before the last iteration planned
    std::uint64_t secondaries_before = 0;  //!< the secondaries counter when the iteration started
    //! [begin, end) of the slot order (run.track_order) for every action, for the charged slots and
    //! for the neutral ones (track_order "charge"; "alive" puts every live slot in the first group)
    std::uint64_t order_all[2] = {0, 0};
    std::uint64_t order_charged[2] = {0, 0};
    std::uint64_t order_neutral[2] = {0, 0};
    std::uint32_t paused = 0;    //!< 1: the iterations queued from here on do nothing
    std::uint32_t finished = 0;  //!< 1: no track is left and none will start
};

//! f over the slots while the loop is not paused.
template <class F>
struct Unpaused {
    F f;
    std::uint32_t const* paused;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        if (*paused) return;
        f(i);
    }
};

//! 1 for a vacant slot (the vacancy scan's item).
struct VacantKey {
    std::int32_t const* status;
    GT_HOST_DEVICE std::uint32_t operator()(size_type i) const { return status[i] == 0 ? 1u : 0u; }
};

//! A slot's secondaries (the scan that places them on the stack).
struct SecondaryKey {
    std::uint32_t const* secondaries;
    GT_HOST_DEVICE std::uint32_t operator()(size_type i) const { return secondaries[i]; }
};

//! Which group of the slot order a slot joins: 1 in the low word for the first group (every live
//! slot, or the live charged ones when `by_charge`), 1 in the high word for the second (live neutral
//! ones), 0 for a vacant slot. One exclusive scan of these gives each slot its place in both groups.
struct OrderKey {
    std::int32_t const* status;
    std::int32_t const* particle;
    ParticleType const* particles;
    bool by_charge;

    GT_HOST_DEVICE std::uint64_t operator()(size_type i) const
    {
        if (status[i] != 1) return 0;
        if (!by_charge || particles[particle[i]].charge != 0) return 1;
        return std::uint64_t(1) << 32;
    }
};

//! Writes every live slot at its place in the order (a stable partition: each group in slot order)
//! from the exclusive scan of OrderKey, and the groups' bounds.
struct ScatterOrder {
    OrderKey key;
    std::uint64_t const* rank;  //!< exclusive scan of key over the slots
    std::uint32_t* order;
    std::uint64_t slots;
    LoopScalars* s;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        std::uint64_t const total = rank[slots - 1] + key(slots - 1);
        std::uint64_t const first = total & 0xffffffffu;
        std::uint64_t const k = key(i);
        if (k == 1)
            order[rank[i] & 0xffffffffu] = static_cast<std::uint32_t>(i);
        else if (k != 0)
            order[first + (rank[i] >> 32)] = static_cast<std::uint32_t>(i);
        if (i != 0) return;
        std::uint64_t const all = first + (total >> 32);
        s->order_all[1] = all;
        s->order_charged[1] = first;
        s->order_neutral[0] = first;
        s->order_neutral[1] = all;
    }
};

//! Runs f on the slots order[k] for k in [range[0], range[1]) (the range is read on the backend, so
//! that the host need not know it): launched over every slot, the items past the range do nothing.
template <class F>
struct OnSlots {
    F f;
    std::uint32_t const* slots;
    std::uint64_t const* range;

    GT_HOST_DEVICE void operator()(size_type k) const
    {
        std::uint64_t const item = range[0] + k;
        if (item >= range[1]) return;
        f(slots[item]);
    }
};

//! Runs f on the slots i in [range[0], range[1]) (read on the backend): launched over every slot, the
//! items past the range do nothing (run.track_order "compact", whose live tracks are slots [0, alive)).
template <class F>
struct InRange {
    F f;
    std::uint64_t const* range;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        if (i < range[0] || i >= range[1]) return;
        f(i);
    }
};

//! f on slot first + k (the host's launch over a range it read, DetectorBackend::run).
template <class F>
struct FromSlot {
    F f;
    std::uint64_t first;

    GT_HOST_DEVICE void operator()(size_type k) const { f(static_cast<size_type>(first + k)); }
};

//! run.track_order "compact": slot k of `to` receives the track of slot order[k] of `from` (the order
//! ScatterOrder wrote, charged tracks first), so that the live tracks fill slots [0, alive) of `to`
//! in their groups and slot order, and the rest of `to` is vacant. A gather: the writes of a warp are
//! contiguous, its reads ascending. While the loop is paused (no order was written) slot k is copied
//! to slot k, so that `to` always holds the whole state and the host swaps the two every iteration;
//! once it has finished every slot is vacant, and only that is written (the iterations queued after
//! the run's end cost a status write a slot, not a copy).
struct CompactTracks {
    TrackView from;
    TrackView to;
    std::uint32_t const* order;
    LoopScalars const* plan;

    GT_HOST_DEVICE void operator()(size_type k) const
    {
        if (plan->paused && !plan->finished) {
            move_track(from, k, to, k);
            return;
        }
        if (!plan->paused && k < plan->order_all[1]) {
            move_track(from, order[k], to, k);
            return;
        }
        to.status[k] = 0;
        to.secondaries[k] = 0;  // the secondaries' scan runs over every slot
    }
};

//! One thread: the iteration's plan from the vacancy scan (vacant slots take waiting secondaries
//! first, from the top of the stack, then primaries), or a pause (see the file's comment).
struct PlanIteration {
    LoopScalars* s;
    std::int32_t const* status;
    std::uint32_t const* vacancy_rank;  //!< exclusive scan of VacantKey
    std::uint64_t slots;
    std::uint64_t end_primary;  //!< one past the last primary of the run
    std::uint64_t const* hit_count;
    std::uint64_t const* secondaries;  //!< the run's secondaries counter
    std::uint64_t hit_capacity;        //!< the hit buffer's size
    std::uint64_t stack_capacity;      //!< the secondary stack's size
    std::uint64_t stack_limit;         //!< most secondaries an iteration adds (0 without showers)
    std::uint64_t max_secondaries;     //!< most secondaries of one interaction

    GT_HOST_DEVICE void operator()(size_type) const
    {
        if (s->paused) return;
        std::uint64_t const vacant = vacancy_rank[slots - 1] + (status[slots - 1] == 0 ? 1 : 0);
        std::uint64_t const from_stack = vacant < s->stack_count ? vacant : s->stack_count;
        std::uint64_t const left = end_primary > s->next_primary ? end_primary - s->next_primary : 0;
        std::uint64_t const primaries = vacant - from_stack < left ? vacant - from_stack : left;
        std::uint64_t const started = from_stack + primaries;
        std::uint64_t const alive = slots - vacant + started;
        if (alive == 0) {
            s->finished = 1;
            s->paused = 1;
            return;
        }
        // room for one hit per slot, and for the most secondaries the iteration can add
        s->hit_count = *hit_count;
        std::uint64_t const bound = max_secondaries * alive;
        std::uint64_t const most_added = bound < stack_limit ? bound : stack_limit;
        if (*hit_count + slots > hit_capacity || s->stack_count - from_stack + most_added > stack_capacity) {
            s->paused = 1;
            return;
        }
        s->first_primary = s->next_primary;
        s->next_primary += primaries;
        s->from_stack = from_stack;
        s->stack_count -= from_stack;
        s->alive = alive;
        s->started += started;
        s->iterations += 1;
        s->secondaries_before = *secondaries;
    }
};

//! One thread, after the commit: the secondaries the iteration added (every committed slot counted
//! its own, the held ones none) join the stack.
struct CloseCommit {
    LoopScalars* s;
    std::uint64_t const* secondaries;  //!< the run's secondaries counter

    GT_HOST_DEVICE void operator()(size_type) const
    {
        if (s->paused) return;
        s->stack_count += *secondaries - s->secondaries_before;
        if (s->stack_count > s->stack_peak) s->stack_peak = s->stack_count;
    }
};

}  // namespace gt
