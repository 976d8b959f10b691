// The CPU detector loop one track at a time: each thread takes the next primary and runs the step
// actions of kernels/detector/StepActions.hh on it, in the order one step iteration runs them, until
// it ends. The slot walk (DetectorBackend.hh) sweeps every action over every slot, most of them idle
// or waiting; here a track's state stays in the thread's cache from one step to the next.
//
// The same bits as the slot walk, for any thread count: a track's steps are the same functors on
// the same state in the same order (its random streams are keyed by its id and step number, not by
// its slot), hits are sorted by a total order, counters and tallies are integer sums. Secondaries
// are not handled here: a deck with physics.showers keeps the slot walk (its secondary stack and
// hold-backs are the GPU's schedule).
//
// What the slot walk reports about its schedule is reproduced exactly: primaries start in the same
// step iterations (iterate() is one step iteration of the slot walk with `capacity` slots; a track
// that lives d iterations frees its slot d iterations after it started), so primaries_started(),
// the iteration count and stops after a given iteration agree. Its checkpoints hold that schedule,
// not slots (save_state): they resume with this loop only.
//
// An iteration runs all of its tracks to their end: with many slots that is the whole run. So the
// stop poll (a signal, a wall-time checkpoint) is asked after each track, and the iteration can end
// there, to go on at the next iterate(). Threads take primaries in order from one counter and finish
// what they took, so the tracks done at a stop are the first ones of the iteration: the state there is
// that prefix's hits and sums and the next primary to track, and going on gives the same bits.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "kernels/cpu/CpuDetectorOps.hh"
#include "kernels/cpu/Stopwatch.hh"
#include "kernels/detector/DetectorKernels.hh"

namespace gt {

namespace {

//! One thread's track: a one-slot state, and what its steps add up (merged after each iteration).
struct Worker {
    TrackState state{1, MemSpace::host};
    std::vector<Hit> hits = std::vector<Hit>(64);
    std::array<std::uint64_t, k_num_counters> counters{};
    std::vector<std::uint64_t> tallies;
};

class CpuTrackLoop final : public DetectorKernels {
  public:
    MemSpace memory() const override { return MemSpace::host; }
    std::string description() const override { return CpuDetectorOps::describe() + ", track by track"; }

    void setup(DetectorTables const& tables, std::size_t capacity, std::size_t hit_capacity) override
    {
        tables_ = tables;
        params_.geometry =
            GeometryView{tables_.volumes.data(), static_cast<std::int32_t>(tables_.volumes.size()),
                         tables_.nodes.data(), tables_.items.data(), tables_.sections.data()};
        params_.materials = tables_.materials.data();
        params_.particles = tables_.particles.data();
        params_.field = tables_.field;
        params_.field.cartesian.values = tables_.field_map.data();
        params_.field.rz.values = tables_.field_map.data();
        params_.propagation = tables_.propagation;
        params_.physics = tables_.physics;
        params_.gun = tables_.gun;
        params_.gun.list = tables_.primary_list.empty() ? nullptr : tables_.primary_list.data();
        params_.seed = tables_.seed;
        capacity_ = capacity;
        hit_capacity_ = hit_capacity > capacity ? hit_capacity : capacity;
        hits_.clear();
        growths_ = 0;
        counters_.fill(0);
        tallies_.assign(static_cast<std::size_t>(tables_.num_logical), 0);
        workers_.clear();
        next_primary_ = params_.gun.first_primary;
        iteration_first_ = next_primary_;
        untracked_ = next_primary_;
        piece_seconds_ = 0;
        busy_ = 0;
        iteration_ = 0;
        frees_.clear();
    }

    //! One step iteration of the slot walk a call (`most` does not matter: the stop poll ends one).
    IterationResult iterate(std::uint64_t most) override
    {
        (void)most;
        IterationResult r;
        double const t0 = cpu::timer_now();  // the clock --clock chooses
        if (untracked_ == next_primary_) {   // none under way: the slot walk's next iteration
            // slots freed by tracks that ended in the previous one are vacant
            std::uint64_t const it = iteration_ + 1;
            auto const freed = frees_.find(it);
            std::uint64_t const busy = busy_ - (freed == frees_.end() ? 0 : freed->second);
            std::uint64_t const end = params_.gun.primaries;
            std::uint64_t const left = end > next_primary_ ? end - next_primary_ : 0;
            std::uint64_t const vacant = capacity_ - busy;
            std::uint64_t const start = vacant < left ? vacant : left;
            if (busy + start == 0) {
                r.finished = true;
                return r;
            }
            iteration_ = it;
            if (freed != frees_.end()) frees_.erase(freed);
            busy_ = busy + start;
            iteration_first_ = next_primary_;
            next_primary_ += start;
        }
        r.started = next_primary_ - iteration_first_;
        r.alive = busy_;
        r.interrupted = !track_primaries();
        r.iterations = r.interrupted ? 0 : 1;
        r.tracked = untracked_ - iteration_first_;
        // timed whether or not a primary starts: the record's calls are the iterations
        piece_seconds_ += cpu::timer_now() - t0;
        if (!r.interrupted) {
            timer_.add("step_tracks", piece_seconds_, 0.0, static_cast<double>(r.started));
            piece_seconds_ = 0;
        }
        return r;
    }

    void set_stop_poll(StopPoll poll) override { poll_ = std::move(poll); }

    std::vector<Hit> sorted_hits() override
    {
        double const t0 = cpu::timer_now();  // the clock --clock chooses
        CpuDetectorOps::sort_hits(hits_.data(), hits_.size());
        timer_.add("sort_hits", cpu::timer_now() - t0, 0.0, static_cast<double>(hits_.size()));
        return hits_;
    }
    std::array<std::uint64_t, k_num_counters> counters() override { return counters_; }
    std::vector<std::uint64_t> tally_counts() override { return tallies_; }
    std::vector<double> tallies() override { return tallies_in_mev(tallies_); }
    std::uint64_t primaries_started() const override { return next_primary_ - params_.gun.first_primary; }
    //! Between iterations and at stop points no track is in flight here: the state is what the
    //! finished tracks added, the next primary to track and the slot walk's schedule (its iteration,
    //! the primaries it started, and when its busy slots free).
    DetectorLoopState save_state() override
    {
        DetectorLoopState s;
        s.next_primary = next_primary_;
        s.arrays.push_back(saved("hits", hits_.data(), hits_.size()));
        s.arrays.push_back(saved("counters", counters_.data(), counters_.size()));
        s.arrays.push_back(saved("tallies", tallies_.data(), tallies_.size()));
        std::vector<std::uint64_t> schedule = {iteration_, busy_, iteration_first_, untracked_};
        for (auto const& [it, n] : frees_) {
            schedule.push_back(it);
            schedule.push_back(n);
        }
        s.arrays.push_back(saved("track_loop_schedule", schedule.data(), schedule.size()));
        return s;
    }

    void restore_state(DetectorLoopState const& s) override
    {
        std::vector<std::uint64_t> const counters = restored<std::uint64_t>(s, "counters");
        std::vector<std::uint64_t> const tallies = restored<std::uint64_t>(s, "tallies");
        std::vector<std::uint64_t> const schedule = restored<std::uint64_t>(s, "track_loop_schedule");
        if (counters.size() != counters_.size() || tallies.size() != tallies_.size() || schedule.size() < 4 ||
            schedule.size() % 2 != 0)
            throw std::runtime_error("the loop state does not match this run's volumes or schedule");
        if (s.next_primary < params_.gun.first_primary || s.next_primary > params_.gun.primaries)
            throw std::runtime_error("the loop state's next primary " + std::to_string(s.next_primary) +
                                     " is not among this run's");
        if (schedule[2] < params_.gun.first_primary || schedule[2] > schedule[3] ||
            schedule[3] > s.next_primary)
            throw std::runtime_error("the loop state's iteration under way (primaries " +
                                     std::to_string(schedule[2]) + " to " + std::to_string(s.next_primary) +
                                     ", tracked to " + std::to_string(schedule[3]) +
                                     ") is not among this run's");
        hits_ = restored<Hit>(s, "hits");
        std::copy(counters.begin(), counters.end(), counters_.begin());
        tallies_ = tallies;
        next_primary_ = s.next_primary;
        iteration_ = schedule[0];
        busy_ = schedule[1];
        iteration_first_ = schedule[2];
        untracked_ = schedule[3];
        piece_seconds_ = 0;
        frees_.clear();
        for (std::size_t i = 4; i < schedule.size(); i += 2) frees_[schedule[i]] = schedule[i + 1];
        while (hit_capacity_ < hits_.size()) hit_capacity_ *= 2;
    }
    int hit_buffer_growths() const override { return growths_; }
    std::vector<double> event_energy() override { return {}; }
    std::uint64_t secondary_stack_peak() const override { return 0; }
    KernelTimer const& timer() const override { return timer_; }

  private:
    template <class T>
    static LoopStateArray saved(char const* name, T const* data, std::size_t n)
    {
        return save_loop_array(name, data, n, [](void* dst, void const* src, std::size_t bytes) {
            std::memcpy(dst, src, bytes);
        });
    }

    //! A checkpoint of the slot walk lacks this loop's schedule: the hint names the key that chose it.
    template <class T>
    static std::vector<T> restored(DetectorLoopState const& s, char const* name)
    {
        return restore_loop_array<T>(s, name, " (written by the other CPU loop, run.cpu_loop?)");
    }

    //! Runs the iteration's primaries from untracked_ on to their end, spread over the threads, until
    //! all are done (true) or the stop poll asks to stop (false); books their slots' frees.
    bool track_primaries()
    {
        std::size_t const threads = static_cast<std::size_t>(cpu::thread_count());
        while (workers_.size() < threads) {
            workers_.push_back(std::make_unique<Worker>());
            workers_.back()->tallies.assign(tallies_.size(), 0);
        }
        std::uint64_t const first = untracked_;
        std::uint64_t const count = next_primary_ - first;
        std::uint64_t const tracked_before = first - params_.gun.first_primary;
        lives_.resize(count);
        // One counter hands the primaries out in order (tracks differ in length by orders of
        // magnitude), and a thread finishes the one it took: at a stop those taken are a prefix.
        std::atomic<std::uint64_t> next{0}, ended{0};
        std::atomic<bool> stop{false};
        std::mutex polling;  // the poll is asked by one thread at a time, by whichever is free
#pragma omp parallel
        {
#ifdef _OPENMP
            Worker& w = *workers_[static_cast<std::size_t>(omp_get_thread_num())];
#else
            Worker& w = *workers_[0];
#endif
            while (!stop.load()) {
                std::uint64_t const j = next.fetch_add(1);
                if (j >= count) break;
                lives_[j] = run_track(w, first + j);
                std::uint64_t const done = ended.fetch_add(1) + 1;
                if (poll_ && polling.try_lock()) {
                    if (poll_(tracked_before + done)) stop.store(true);
                    polling.unlock();
                }
            }
        }
        std::uint64_t const taken = std::min(next.load(), count);
        untracked_ += taken;
        // a track that lived d iterations frees its slot d iterations after this one (one that
        // started outside the world held its slot for this iteration only)
        for (std::uint64_t j = 0; j < taken; ++j) frees_[iteration_ + (lives_[j] > 0 ? lives_[j] : 1)] += 1;
        for (auto& w : workers_) merge(*w);
        return taken == count;
    }

    //! Primary `id` from its start to its end; returns the step iterations it was alive for.
    std::uint32_t run_track(Worker& w, std::uint64_t id) const
    {
        TrackView const t = w.state.view();
        std::uint64_t* const counters = w.counters.data();
        EventEnergyView const energy{};  // recorded with showers only
        t.status[0] = 0;
        t.vacancy_rank[0] = 0;
        InitializeTracks{params_, t, id, nullptr, 0, 0, counters, energy}(0);
        LimitStep const limit{params_, t};
        Propagate<> const propagate{params_, t, counters};
        AlongStep const along{params_, t, {}};  // no per-event track lengths (no showers here)
        ScoreHits score{params_, t, w.hits.data(), w.hits.size(), counters, w.tallies.data(), energy};
        CrossBoundary const cross{params_, t};
        EndStep const end_step{params_, t, counters, energy};
        std::uint32_t iterations = 0;
        while (t.status[0] == 1) {
            if (counters[k_hit_count] >= w.hits.size()) {  // room for this iteration's hit
                w.hits.resize(2 * w.hits.size());
                score.hits = w.hits.data();
                score.hit_capacity = w.hits.size();
            }
            limit(0);
            propagate(0);
            along(0);
            score(0);
            cross(0);
            end_step(0);
            ++iterations;
        }
        return iterations;
    }

    //! A worker's hits, counters and tallies into the run's; the worker starts afresh.
    void merge(Worker& w)
    {
        std::uint64_t const n = w.counters[k_hit_count];
        if (hits_.size() + n > hit_capacity_) {  // as the slot walk's buffer would grow
            while (hits_.size() + n > hit_capacity_) hit_capacity_ *= 2;
            ++growths_;
        }
        hits_.insert(hits_.end(), w.hits.begin(), w.hits.begin() + static_cast<std::ptrdiff_t>(n));
        for (int c = 0; c < k_num_counters; ++c) counters_[c] += w.counters[c];
        w.counters.fill(0);
        for (std::size_t v = 0; v < tallies_.size(); ++v) {
            tallies_[v] += w.tallies[v];
            w.tallies[v] = 0;
        }
    }

    DetectorTables tables_;
    DetectorParamsView params_;
    std::size_t capacity_ = 0;
    std::size_t hit_capacity_ = 0;
    std::vector<Hit> hits_;
    int growths_ = 0;
    std::array<std::uint64_t, k_num_counters> counters_{};
    std::vector<std::uint64_t> tallies_;
    std::vector<std::unique_ptr<Worker>> workers_;
    std::vector<std::uint32_t> lives_;   //!< per primary of the iteration: the iterations it lived
    std::uint64_t next_primary_ = 0;     //!< the next primary the slot walk starts
    std::uint64_t iteration_first_ = 0;  //!< the first primary started in the iteration under way or last
    std::uint64_t untracked_ = 0;        //!< the next primary to track (next_primary_: none under way)
    double piece_seconds_ = 0;           //!< [s] the interrupted pieces of the iteration under way
    StopPoll poll_;
    std::uint64_t busy_ = 0;                        //!< slots of the slot walk holding a track
    std::uint64_t iteration_ = 0;                   //!< step iterations run
    std::map<std::uint64_t, std::uint64_t> frees_;  //!< iteration -> slots that become vacant in it
    KernelTimer timer_;
};

}  // namespace

std::unique_ptr<DetectorKernels> make_cpu_track_loop() { return std::make_unique<CpuTrackLoop>(); }

}  // namespace gt
