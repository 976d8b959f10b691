// The segment schedule: segments end only where statistics or phase space are due.
#include "run/BeamTracker.hh"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace gt {

BeamTracker::BeamTracker(Lattice const& lattice, OutputConfig const& output, std::int64_t turns,
                         BeamKernels& kernels, ParticleView particles)
    : lattice_(lattice), kernels_(kernels), particles_(particles), turns_(turns), stats_(output.stats)
{
    auto const& ps = output.phase_space;
    phase_space_at_end_ = std::find(ps.begin(), ps.end(), "end") != ps.end();
    auto const n = static_cast<std::int64_t>(lattice.elements.size());
    for (std::int64_t i = 0; i < n; ++i) {
        ElementInfo const& info = lattice.info[static_cast<std::size_t>(i)];
        bool const last_slice = info.slice + 1 == info.slices;
        bool const stats =
            stats_ == StatsWhere::every_slice || (stats_ == StatsWhere::every_element && last_slice);
        bool const snapshot = last_slice && std::find(ps.begin(), ps.end(), info.name) != ps.end();
        if (stats || snapshot) pass_points_.push_back(PassPoint{i, stats, snapshot});
    }
    point_.stats = true;  // the initial beam always gets a row
    point_.s = lattice.reference_begin.s;
}

void BeamTracker::add_kicks(std::vector<std::int64_t> entries,
                            std::function<void(std::int64_t, std::int64_t)> after)
{
    std::sort(entries.begin(), entries.end());
    kick_entries_.insert(kick_entries_.end(), entries.begin(), entries.end());
    std::sort(kick_entries_.begin(), kick_entries_.end());
    kick_entries_.erase(std::unique(kick_entries_.begin(), kick_entries_.end()), kick_entries_.end());
    kick_sets_.push_back(KickSet{std::move(entries), std::move(after)});
}

void BeamTracker::replace_entries(std::vector<std::int64_t> entries,
                                  std::function<void(std::int64_t, std::int64_t)> track)
{
    std::sort(entries.begin(), entries.end());
    replaced_entries_ = std::move(entries);
    replaced_ = std::move(track);
}

void BeamTracker::stop_every(std::int64_t n)
{
    auto const entries = static_cast<std::int64_t>(lattice_.elements.size());
    for (std::int64_t e = n - 1; e < entries; e += n) {
        auto const at =
            std::lower_bound(pass_points_.begin(), pass_points_.end(), e,
                             [](PassPoint const& p, std::int64_t entry) { return p.entry < entry; });
        if (at == pass_points_.end() || at->entry != e) pass_points_.insert(at, PassPoint{e, false, false});
    }
}

void BeamTracker::resume_at(Position const& p)
{
    auto const entries = static_cast<std::int64_t>(lattice_.elements.size());
    if (p.turn < 0 || p.turn >= turns_ || p.entry < 0 || p.entry >= entries)
        throw std::invalid_argument("the checkpoint's position is outside this lattice and its turns");
    turn_ = p.turn;
    pos_ = p.entry;
    // The next pass point is the first one not yet passed (each ends its segment after its entry).
    next_ = std::size_t(std::lower_bound(pass_points_.begin(), pass_points_.end(), p.entry,
                                         [](PassPoint const& q, std::int64_t e) { return q.entry < e; }) -
                        pass_points_.begin());
    done_ = false;
}

bool BeamTracker::advance()
{
    if (done_) return false;
    auto const n = static_cast<std::int64_t>(lattice_.elements.size());
    auto const segment = [&](std::int64_t end) {
        // Split at the kicks in [pos_, end): track up to and including the kicked entry, kick, go on.
        // A replaced entry ends the segment before it and is pushed by its own stepper.
        while (end > pos_) {
            auto const k = std::lower_bound(kick_entries_.begin(), kick_entries_.end(), pos_);
            bool const kick = k != kick_entries_.end() && *k < end;
            auto const r = std::lower_bound(replaced_entries_.begin(), replaced_entries_.end(), pos_);
            bool const replace = r != replaced_entries_.end() && *r < end && (!kick || *r <= *k);
            std::int64_t const stop = replace ? *r : kick ? *k + 1 : end;
            if (stop > pos_)
                kernels_.track(particles_, size_type(pos_), size_type(stop), std::int32_t(turn_));
            pos_ = stop;
            if (replace) {
                replaced_(*r, turn_);
                pos_ = *r + 1;
            }
            std::int64_t const after = replace ? *r : kick ? *k : -1;
            if (after >= 0 && std::binary_search(kick_entries_.begin(), kick_entries_.end(), after))
                for (KickSet const& set : kick_sets_)
                    if (std::binary_search(set.entries.begin(), set.entries.end(), after))
                        set.after(after, turn_);
        }
        pos_ = end;
    };
    point_ = OutputPoint{};
    point_.turn = turn_;
    bool last_turn = turn_ + 1 == turns_;
    if (next_ < pass_points_.size()) {
        PassPoint const& p = pass_points_[next_++];
        segment(p.entry + 1);
        point_.entry = p.entry;
        point_.stats = p.stats;
        point_.phase_space = p.phase_space;
    } else {
        // The rest of the pass, then the turn's or the run's end; with nothing due between turns, several
        // whole turns in one call (many_turns), ending where the last of them ends.
        if (std::int64_t const k = turns_at_once(); k > 1) {
            kernels_.track_turns(particles_, size_type(n), std::int32_t(turn_), std::int32_t(k));
            turn_ += k - 1;
            point_.turn = turn_;
            last_turn = turn_ + 1 == turns_;
            pos_ = n;
        } else {
            segment(n);
        }
        point_.entry = n - 1;
        point_.end = last_turn;
        point_.stats = stats_ == StatsWhere::turn || (last_turn && stats_ == StatsWhere::end);
        point_.phase_space = last_turn && phase_space_at_end_;
        next_ = 0;
        pos_ = 0;
        ++turn_;
        done_ = last_turn;
    }
    // An entry that is both a pass point and the last entry of the pass ends the turn there.
    if (pos_ == n && !point_.end && next_ == pass_points_.size()) {
        bool const ends_run = last_turn;
        point_.end = ends_run;
        point_.stats = point_.stats || stats_ == StatsWhere::turn || (ends_run && stats_ == StatsWhere::end);
        point_.phase_space = point_.phase_space || (ends_run && phase_space_at_end_);
        next_ = 0;
        pos_ = 0;
        ++turn_;
        done_ = ends_run;
    }
    double const s_pass = point_.entry >= 0 ? lattice_.info[std::size_t(point_.entry)].s_end : 0.0;
    point_.s = lattice_.reference_begin.s + double(point_.turn) * lattice_.length + s_pass;
    return true;
}

std::int64_t BeamTracker::turns_at_once() const
{
    bool const nothing_due = pass_points_.empty() && kick_entries_.empty() && replaced_entries_.empty() &&
                             stats_ != StatsWhere::turn;
    if (many_turns_ <= 1 || pos_ != 0 || !nothing_due) return 1;
    std::int64_t k = std::min(many_turns_, turns_ - turn_);
    if (align_ > 0) k = std::min(k, align_ - turn_ % align_);
    return k;
}

double BeamTracker::fraction_done() const
{
    auto const n = double(lattice_.elements.size());
    double const total = n * double(turns_);
    if (done_ || total == 0) return 1.0;
    return (double(turn_) * n + double(pos_)) / total;
}

}  // namespace gt
