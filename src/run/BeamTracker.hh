// Steps a beam through the lattice from one output point to the next: the schedule of segments that
// `run` writes outputs between and `validate` compares the backends at.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "beam/Lattice.hh"
#include "deck/Config.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/core/ParticleState.hh"

namespace gt {

//! A place between two segments where the whole beam must be seen.
struct OutputPoint {
    std::int64_t entry = -1;  //!< table index after which it lies (-1: before the lattice)
    std::int64_t turn = 0;
    bool stats = false;        //!< a statistics row is due here
    bool phase_space = false;  //!< a phase-space snapshot is due here
    bool end = false;          //!< the end of the last turn
    double s = 0;              //!< [m] path length of the reference particle, over all turns
};

class BeamTracker {
  public:
    //! `kernels` holds the element table already (set_elements); `particles` lives in its memory.
    BeamTracker(Lattice const& lattice, OutputConfig const& output, std::int64_t turns, BeamKernels& kernels,
                ParticleView particles);

    //! Collective steps inside segments (space-charge, wake, LSC, CSR kicks): `after(entry, turn)` runs
    //! after each of `entries` (table indices) in every turn, splitting the segment tracking there.
    //! Several sets may be added; at an entry in more than one, they run in the order they were added.
    void add_kicks(std::vector<std::int64_t> entries, std::function<void(std::int64_t, std::int64_t)> after);

    //! Entries that `track(entry, turn)` pushes the beam through instead of the segment kernel (a
    //! t-code entry stepped with space charge at fixed time); the kicks after them run after it.
    void replace_entries(std::vector<std::int64_t> entries,
                         std::function<void(std::int64_t, std::int64_t)> track);

    //! Also stops (nothing due) after every `n`-th entry of the pass, so that a single pass has safe
    //! points for checkpoints between its output points. Splitting a segment changes no bit: each
    //! particle goes through the same elements in the same order. Before the first advance().
    void stop_every(std::int64_t n);

    //! Lets advance() track up to `turns` whole turns in one call of the many-turn executor
    //! (BeamKernels::track_turns) where nothing is due between them: no pass point (statistics, snapshot or
    //! stop inside the pass), no kick or replaced entry, statistics not every turn. The same bits: each
    //! particle goes through the same entries in the same order. 1 (the default): a segment per turn.
    //! `align` > 0: no call goes past a multiple of `align` turns (checkpoints every `align` turns).
    void many_turns(std::int64_t turns, std::int64_t align = 0)
    {
        many_turns_ = turns > 1 ? turns : 1;
        align_ = align;
    }

    //! Where a run stands between two advance() calls: what a checkpoint records.
    struct Position {
        std::int64_t turn = 0;   //!< turns completed
        std::int64_t entry = 0;  //!< entries of the current turn tracked
    };
    Position position() const { return Position{turn_, pos_}; }
    //! Goes on from `p` (a position() of a run of the same lattice, output settings and turns).
    void resume_at(Position const& p);

    //! Tracks to the next output point; false once the end has been reached (and reported).
    bool advance();
    //! The point reached by the last advance() (before the first: the initial beam, entry -1).
    OutputPoint const& point() const { return point_; }
    //! Fraction of the whole run tracked so far, in element entries.
    double fraction_done() const;
    std::int64_t turns() const { return turns_; }
    //! The end of the last turn has been reached.
    bool done() const { return done_; }
    //! Turns completed so far, and entries tracked in the current one (where a resumed run goes on).
    std::int64_t turns_done() const { return turn_; }
    std::int64_t entries_done_in_turn() const { return pos_; }

  private:
    //! Entries of one pass after which something is written (same every turn), ascending.
    struct PassPoint {
        std::int64_t entry;
        bool stats;
        bool phase_space;
    };

    Lattice const& lattice_;
    BeamKernels& kernels_;
    ParticleView particles_;
    std::int64_t turns_;
    StatsWhere stats_;
    bool phase_space_at_end_;
    std::vector<PassPoint> pass_points_;
    struct KickSet {
        std::vector<std::int64_t> entries;  //!< ascending
        std::function<void(std::int64_t, std::int64_t)> after;
    };
    std::vector<KickSet> kick_sets_;
    std::vector<std::int64_t> kick_entries_;      //!< the union of the sets' entries, ascending
    std::vector<std::int64_t> replaced_entries_;  //!< ascending
    std::function<void(std::int64_t, std::int64_t)> replaced_;
    std::size_t next_ = 0;  //!< next pass point in this turn
    std::int64_t pos_ = 0;  //!< first entry not yet tracked in this turn
    std::int64_t turn_ = 0;
    bool done_ = false;
    std::int64_t many_turns_ = 1;  //!< turns one advance() may track at once (many_turns)
    std::int64_t align_ = 0;       //!< ... never past a multiple of this (0: any)
    OutputPoint point_;

    //! The turns the next advance() tracks at once: many_turns_ at the start of a turn with nothing due
    //! between turns (no more than are left), else 1.
    std::int64_t turns_at_once() const;
};

}  // namespace gt
