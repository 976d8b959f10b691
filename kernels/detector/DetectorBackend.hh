// The detector stepping loop written once over an executor. `Ops` supplies what differs between
// backends: for_each, the memory space, exclusive scans (vacant slots, secondaries per slot, the
// slot order), the hit sort, copies, and a stage timer (a GPU stage is timed by events, without a
// wait of its own).
//
// The loop's counts live in the backend's memory (LoopPlan.hh): iterate() queues up to a batch of
// step iterations and reads them back once, after the batch; an iteration planned after the last
// track ended, or one that needs more buffer room, does nothing, and the host grows the buffers and
// goes on. The batch size changes no result, the iteration count and the stack peak included.
//
// Nothing here depends on the order threads run in, nor on the order slots are visited in
// (run.track_order): slots take waiting secondaries and primaries by
// their vacancy rank, secondaries enter the stack in slot order (EmInteraction.hh), hits are sorted
// by a total order before anyone sees them, and counters, tallies and energy balances are integer
// sums. So a deck gives the same bits on the CPU, for any thread count, and on the GPU.
//
// run.track_order "compact" moves the tracks themselves, every iteration after initialization
// (compact_tracks): the live ones to slots [0, alive), charged first. Each track's physics is keyed
// by its id and step (random numbers, secondaries' ids), so the results are those of every other
// order; the schedule (which secondary starts when, which interaction waits for stack room, the
// iteration count and the stack's peak) follows the new slot order, the same on every backend.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernels/core/NvtxRange.hh"
#include "kernels/core/TraceScope.hh"
#include "kernels/detector/DetectorKernels.hh"
#include "kernels/detector/LoopPlan.hh"

namespace gt {

//! GTRACK_TEST_DETECTOR_BATCH=N (a testing aid): N step iterations a batch instead of the backend's
//! own number, e.g. on the CPU to take the GPU's path through the run loop, or 1 on the GPU.
inline std::uint64_t detector_batch(std::uint64_t own)
{
    char const* v = std::getenv("GTRACK_TEST_DETECTOR_BATCH");
    if (v == nullptr || *v == '\0') return own;
    char* end = nullptr;
    unsigned long long const n = std::strtoull(v, &end, 10);
    if (*end != '\0' || n == 0)
        throw std::runtime_error(std::string("GTRACK_TEST_DETECTOR_BATCH='") + v +
                                 "' is not a positive integer");
    return n;
}

template <class Ops>
class DetectorBackend final : public DetectorKernels {
  public:
    MemSpace memory() const override { return Ops::space; }
    std::string description() const override { return Ops::describe(); }

    void setup(DetectorTables const& tables, std::size_t capacity, std::size_t hit_capacity) override
    {
        volumes_ = upload(tables.volumes);
        nodes_ = upload(tables.nodes);
        items_ = upload(tables.items);
        sections_ = upload(tables.sections);
        materials_ = upload(tables.materials);
        particles_ = upload(tables.particles);
        field_map_ = upload(tables.field_map);
        params_.geometry = GeometryView{volumes_.data(), static_cast<std::int32_t>(tables.volumes.size()),
                                        nodes_.data(), items_.data(), sections_.data()};
        params_.materials = materials_.data();
        params_.particles = particles_.data();
        params_.field = tables.field;
        params_.field.cartesian.values = field_map_.data();
        params_.field.rz.values = field_map_.data();
        params_.propagation = tables.propagation;
        params_.physics = tables.physics;
        params_.gun = tables.gun;
        primary_list_ = upload(tables.primary_list);
        params_.gun.list = tables.primary_list.empty() ? nullptr : primary_list_.data();
        params_.seed = tables.seed;
        setup_showers(tables, capacity);
        state_ = TrackState(capacity, Ops::space);
        spare_ = TrackState(tables.track_order == TrackOrder::compact ? capacity : 0, Ops::space);
        hits_ = Buffer<Hit>(hit_capacity > capacity ? hit_capacity : capacity, Ops::space);
        counters_ = Buffer<std::uint64_t>(k_num_counters, Ops::space);
        tallies_ = Buffer<std::uint64_t>(static_cast<std::size_t>(tables.num_logical), Ops::space);
        track_order_ = tables.track_order;
        bool const ordered = track_order_ != TrackOrder::slots;
        order_ = Buffer<std::uint32_t>(ordered ? capacity : 0, Ops::space);
        order_rank_ = Buffer<std::uint64_t>(ordered ? capacity : 0, Ops::space);
        scalars_ = Buffer<LoopScalars>(1, Ops::space);
        host_ = LoopScalars{};
        host_.next_primary = params_.gun.first_primary;
        write_scalars();
        batch_ = detector_batch(Ops::k_batch);
        load_kernels();
    }

    //! The most step iterations one iterate() queues before it reads the loop's counts (at least 1).
    void set_batch(std::uint64_t batch) { batch_ = batch > 0 ? batch : 1; }

    IterationResult iterate(std::uint64_t most) override
    {
        IterationResult r;
        std::uint64_t const batch = most < batch_ ? most : batch_;
        LoopScalars const before = host_;
        while (!host_.finished) {
            if (host_.paused) make_room();
            for (std::uint64_t k = 0; k < (batch > 0 ? batch : 1); ++k) queue_iteration();
            std::uint64_t const ran = host_.iterations;
            timed("read_loop_counts", [&] {
                Ops::copy_to_host(&host_, scalars_.data(), sizeof(LoopScalars));
                return std::uint64_t(0);
            });
            // paused at its first iteration (a restored loop whose buffers are too small): again
            if (host_.iterations > ran || host_.finished) break;
            if (!host_.paused) throw std::logic_error("a detector step batch ran no iteration");
        }
        r.iterations = host_.iterations - before.iterations;
        r.started = host_.started - before.started;
        r.alive = host_.alive;
        r.finished = r.iterations == 0;
        return r;
    }

    std::vector<Hit> sorted_hits() override
    {
        std::uint64_t const counted = read_counter(k_hit_count);
        std::uint64_t const count = counted < hits_.size() ? counted : hits_.size();
        timed("sort_hits", [&] {
            Ops::sort_hits(hits_.data(), count);
            return std::uint64_t(0);
        });
        std::vector<Hit> out(count);
        Ops::copy_to_host(out.data(), hits_.data(), count * sizeof(Hit));
        return out;
    }

    std::array<std::uint64_t, k_num_counters> counters() override
    {
        std::array<std::uint64_t, k_num_counters> c{};
        Ops::copy_to_host(c.data(), counters_.data(), sizeof(c));
        return c;
    }

    std::vector<std::uint64_t> tally_counts() override
    {
        std::vector<std::uint64_t> raw(tallies_.size());
        Ops::copy_to_host(raw.data(), tallies_.data(), raw.size() * sizeof(std::uint64_t));
        return raw;
    }

    std::vector<double> tallies() override { return tallies_in_mev(tally_counts()); }

    std::uint64_t primaries_started() const override
    {
        return host_.next_primary - params_.gun.first_primary;
    }

    DetectorLoopState save_state() override
    {
        DetectorLoopState s;
        s.next_primary = host_.next_primary;
        s.secondaries_waiting = host_.stack_count;
        s.secondary_stack_peak = host_.stack_peak;
        state_.for_each_array(
            [&](char const* name, auto const& b) { s.arrays.push_back(saved(name, b.data(), b.size())); });
        // hits as scored (the output sorts them): the buffer always has room for them (iterate)
        std::uint64_t const hits = read_counter(k_hit_count);
        s.arrays.push_back(saved("hits", hits_.data(), hits < hits_.size() ? hits : hits_.size()));
        s.arrays.push_back(saved("counters", counters_.data(), counters_.size()));
        s.arrays.push_back(saved("tallies", tallies_.data(), tallies_.size()));
        s.arrays.push_back(saved("event_energy", event_energy_.data(), event_energy_.size()));
        if (event_lengths_.size() > 0)
            s.arrays.push_back(saved("event_track_length", event_lengths_.data(), event_lengths_.size()));
        s.arrays.push_back(saved("secondary_stack", stack_.data(), host_.stack_count));
        s.arrays.push_back(saved("held_interactions", finals_.data(), finals_.size()));
        return s;
    }

    void restore_state(DetectorLoopState const& s) override
    {
        state_.for_each_array([&](char const* name, auto& b) { restore_whole(s, name, b); });
        restore_whole(s, "counters", counters_);
        restore_whole(s, "tallies", tallies_);
        restore_whole(s, "event_energy", event_energy_);
        if (event_lengths_.size() > 0) restore_whole(s, "event_track_length", event_lengths_);
        restore_whole(s, "held_interactions", finals_);
        // The hits and waiting secondaries into buffers with room for them (capacity changes no result).
        std::vector<Hit> const hits = restore_loop_array<Hit>(s, "hits");
        std::uint64_t const counted = read_counter(k_hit_count);
        if (hits.size() != counted)
            throw std::runtime_error("the loop state holds " + std::to_string(hits.size()) +
                                     " hits, its counter " + std::to_string(counted));
        hits_ = filled(hits, hits_.size());
        std::vector<Secondary> const stack = restore_loop_array<Secondary>(s, "secondary_stack");
        if (stack.size() != s.secondaries_waiting || (!stack.empty() && !params_.physics.showers))
            throw std::runtime_error("the loop state's secondary stack does not match this run");
        stack_ = filled(stack, stack_.size());
        if (s.next_primary < params_.gun.first_primary || s.next_primary > params_.gun.primaries)
            throw std::runtime_error("the loop state's next primary " + std::to_string(s.next_primary) +
                                     " is not among this run's");
        host_ = LoopScalars{};
        host_.next_primary = s.next_primary;
        host_.stack_count = s.secondaries_waiting;
        host_.stack_peak = s.secondary_stack_peak;
        write_scalars();
    }
    int hit_buffer_growths() const override { return growths_; }
    std::uint64_t secondary_stack_peak() const override { return host_.stack_peak; }

    std::vector<double> event_energy() override
    {
        std::vector<std::uint64_t> raw(event_energy_.size());
        Ops::copy_to_host(raw.data(), event_energy_.data(), raw.size() * sizeof(std::uint64_t));
        std::vector<double> out(raw.size());
        for (std::size_t i = 0; i < raw.size(); ++i) out[i] = static_cast<double>(raw[i]) * k_tally_unit;
        return out;
    }
    std::vector<double> event_track_length() override
    {
        std::vector<std::uint64_t> raw(event_lengths_.size());
        Ops::copy_to_host(raw.data(), event_lengths_.data(), raw.size() * sizeof(std::uint64_t));
        std::vector<double> out(raw.size());
        for (std::size_t i = 0; i < raw.size(); ++i) out[i] = static_cast<double>(raw[i]) * k_length_unit;
        return out;
    }
    KernelTimer const& timer() const override
    {
        stages_.settle();
        return timer_;
    }

  private:
    template <class T>
    static Buffer<T> upload(std::vector<T> const& v)
    {
        Buffer<T> b(v.size(), Ops::space);
        if (!v.empty()) b.copy_raw(v.data(), MemSpace::host);
        return b;
    }

    //! `v` in a buffer of at least `capacity` elements (the rest value-initialized).
    template <class T>
    static Buffer<T> filled(std::vector<T> v, std::size_t capacity)
    {
        if (v.size() < capacity) v.resize(capacity);
        return upload(v);
    }

    //! n elements at `data` (in the backend's memory) as raw bytes on the host.
    template <class T>
    static LoopStateArray saved(char const* name, T const* data, std::size_t n)
    {
        return save_loop_array(name, data, n, Ops::copy_to_host);
    }

    //! Array `name` of `s` into `b`, which it must fill exactly (the same slot count, volumes, events).
    template <class T>
    static void restore_whole(DetectorLoopState const& s, char const* name, Buffer<T>& b)
    {
        std::vector<T> const v = restore_loop_array<T>(s, name);
        if (v.size() != b.size())
            throw std::runtime_error(std::string("the loop state's array '") + name + "' has " +
                                     std::to_string(v.size()) + " elements, this run " +
                                     std::to_string(b.size()));
        if (!v.empty()) b.copy_raw(v.data(), MemSpace::host);
    }

    //! One step iteration queued untimed with the loop paused, at set-up. Every action does nothing while
    //! the loop is paused (the scans write only scratch that each iteration computes again before reading
    //! it, and "compact" copies each slot in place), so no result changes. On the GPU this loads the loop's
    //! kernels, CUB's scans among them (CUDA loads each at its first launch: 0.1-4 ms a kernel, more from a
    //! cold disk), as host set-up ("kernel loading" in --trace) rather than inside the first iteration's
    //! timed stages, where a run paid it and the calibration, whose process had loaded them, did not.
    void load_kernels()
    {
        TraceScope const loading("kernel loading");
        LoopScalars const kept = host_;
        host_.paused = 1;
        write_scalars();
        untimed_ = true;
        queue_iteration();
        untimed_ = false;
        host_ = kept;
        write_scalars();
    }

    template <class F>
    std::uint64_t timed(char const* name, F const& f)
    {
        if (untimed_) return f();
        NvtxRange const range(name);
        stages_.start();
        std::uint64_t const result = f();
        stages_.stop({name, 0.0, static_cast<double>(state_.size()), 0.0});
        return result;
    }

    //! An action over every slot, while the loop is not paused.
    template <class F>
    void run_all(char const* name, F const& f)
    {
        timed(name, [&] {
            Ops::for_each(state_.size(), Unpaused<F>{f, &scalars_.data()->paused});
            return std::uint64_t(0);
        });
    }

    //! One thread's action (the plan and the scalars' updates).
    template <class F>
    void run_one(char const* name, F const& f)
    {
        timed(name, [&] {
            Ops::for_each(1, f);
            return std::uint64_t(0);
        });
    }

    //! A step action over every slot, or over the slots of `range` (one of the plan's order ranges)
    //! of the run.track_order order (under "compact" the slots themselves): launched over every
    //! slot, those past the range do nothing. On the host under "compact" the range is read when
    //! the action starts (every action before it has run: the host's for_each returns when done), and
    //! only its slots are handed out, so that the threads of a static schedule share the live tracks
    //! rather than the first threads taking them all.
    using OrderRange = std::uint64_t (LoopScalars::*)[2];
    template <class F>
    void run(char const* name, F const& f, OrderRange range = &LoopScalars::order_all)
    {
        if (track_order_ == TrackOrder::slots) return run_all(name, f);
        if (track_order_ == TrackOrder::compact) {
            std::uint64_t const* r = scalars_.data()->*range;
            if constexpr (Ops::space == MemSpace::host) {
                timed(name, [&] {
                    if (!scalars_.data()->paused && r[1] > r[0])
                        Ops::for_each(r[1] - r[0], FromSlot<F>{f, r[0]});
                    return std::uint64_t(0);
                });
            } else {
                run_all(name, InRange<F>{f, r});
            }
            return;
        }
        run_all(name, OnSlots<F>{f, order_.data(), scalars_.data()->*range});
    }

    //! One step iteration, queued: nothing here waits for the backend or reads a count back.
    void queue_iteration()
    {
        std::size_t const n = state_.size();
        TrackView t = state_.view();
        LoopScalars* const plan = scalars_.data();
        std::uint64_t* const counters = counters_.data();
        timed("scan_vacancies", [&] {
            Ops::exclusive_scan(VacantKey{t.status}, t.vacancy_rank, n);
            return std::uint64_t(0);
        });
        run_one("plan_iteration",
                PlanIteration{plan, t.status, t.vacancy_rank, n, params_.gun.primaries,
                              counters + k_hit_count, counters + k_secondaries, hits_.size(), stack_.size(),
                              params_.physics.showers ? stack_limit_ : 0, EmFinalState::k_max_secondaries});
        EventEnergyView const energy{event_energy_.data(), event_energy_.size() / k_num_energy_categories};
        run_all("initialize", InitializeTracks{params_, t, 0, stack_.data(), 0, 0, counters, energy, plan});
        if (track_order_ != TrackOrder::slots) order_tracks(t);
        if (track_order_ == TrackOrder::compact) t = compact_tracks(t);
        run("limit_step", LimitStep{params_, t});
        if (params_.field.type == FieldType::none) {
            run("propagate", Propagate<NoField>{params_, t, counters});
        } else {
            visit_field_kind(params_.field, [&](auto kind) {
                run("propagate", Propagate<decltype(kind)>{params_, t, counters});
            });
        }
        EventTrackLengthView const lengths{event_lengths_.data(),
                                           event_lengths_.size() / k_num_length_categories};
        run("along_step", AlongStep{params_, t, lengths});
        if (params_.physics.showers) interact(t, counters);
        run("score_hits",
            ScoreHits{params_, t, hits_.data(), hits_.size(), counters, tallies_.data(), energy});
        run("cross_boundary", CrossBoundary{params_, t});
        run("end_step", EndStep{params_, t, counters, energy});
    }

    //! The live slots into order_ (charged ones first for TrackOrder::charge) and the plan's ranges:
    //! one scan and one scatter, in slot order within each group.
    void order_tracks(TrackView const& t)
    {
        std::size_t const n = state_.size();
        OrderKey const key{t.status, t.particle, params_.particles, track_order_ != TrackOrder::alive};
        timed("order_scan", [&] {
            Ops::exclusive_scan(key, order_rank_.data(), n);
            return std::uint64_t(0);
        });
        run_all("order_tracks", ScatterOrder{key, order_rank_.data(), order_.data(), n, scalars_.data()});
    }

    //! run.track_order "compact", after order_tracks: the tracks moved to their places in the order
    //! (slots [0, alive), charged ones first), in the spare state, which becomes the state. The host
    //! swaps every iteration, paused or not (CompactTracks then copies every slot in place), so
    //! that it always knows which of the two holds the tracks. Returns the state's view.
    TrackView compact_tracks(TrackView const& t)
    {
        TrackView const to = spare_.view();
        timed("compact_tracks", [&] {
            Ops::for_each(state_.size(), CompactTracks{t, to, order_.data(), scalars_.data()});
            return std::uint64_t(0);
        });
        std::swap(state_, spare_);
        return to;
    }

    //! The buffers grown for the iteration that paused: the hit buffer as the loop that read every
    //! count grew it (from the same count, at the same iteration), the stack for the most secondaries
    //! an iteration can add; the scalars unpaused.
    void make_room()
    {
        std::size_t const n = state_.size();
        if (host_.hit_count + n > hits_.size()) grow_hits(host_.hit_count + n);
        if (params_.physics.showers) {
            std::uint64_t const most = EmFinalState::k_max_secondaries * n;
            std::uint64_t const needed = host_.stack_count + (most < stack_limit_ ? most : stack_limit_);
            if (needed > stack_.size()) {
                std::size_t cap = stack_.size() > 0 ? stack_.size() : stack_limit_;
                while (cap < needed) cap *= 2;
                Buffer<Secondary> bigger(cap, Ops::space);
                Ops::copy_within(bigger.data(), stack_.data(), host_.stack_count * sizeof(Secondary));
                stack_ = std::move(bigger);
            }
        }
        host_.paused = 0;
        write_scalars();
    }

    void write_scalars() { scalars_.copy_raw(&host_, MemSpace::host); }

    //! Shower tables into the backend's memory; the secondary stack and the energy balance.
    void setup_showers(DetectorTables const& tables, std::size_t capacity)
    {
        em_values_ = upload(tables.em.values);
        em_materials_ = upload(tables.em.materials);
        em_photoelectric_ = upload(tables.em.photoelectric);
        params_.em = EmTablesView{tables.em.n_energy,   tables.em.log_e_min,     tables.em.inv_dlog,
                                  tables.em.e_min,      tables.em.e_max,         em_values_.data(),
                                  em_materials_.data(), em_photoelectric_.data()};
        // at least one interaction's worth, so that the first slot with secondaries always fits
        stack_limit_ = tables.secondary_buffer > 0 ? tables.secondary_buffer : 2 * capacity;
        if (stack_limit_ < EmFinalState::k_max_secondaries) stack_limit_ = EmFinalState::k_max_secondaries;
        // room for the most the first iteration can add (and for the most one iteration adds after)
        std::uint64_t const most = EmFinalState::k_max_secondaries * capacity;
        stack_ = Buffer<Secondary>(params_.physics.showers ? (most < stack_limit_ ? most : stack_limit_) : 0,
                                   Ops::space);
        finals_ = Buffer<EmFinalState>(params_.physics.showers ? capacity : 0, Ops::space);
        std::uint64_t const events = !params_.physics.showers ? 0
                                     : tables.end_event > 0   ? tables.end_event
                                     : params_.gun.per_event > 0
                                         ? params_.gun.primaries / params_.gun.per_event
                                         : 0;
        event_energy_ = Buffer<std::uint64_t>(events * k_num_energy_categories, Ops::space);
        event_lengths_ =
            Buffer<std::uint64_t>(tables.track_lengths ? events * k_num_length_categories : 0, Ops::space);
    }

    //! The interactions: sampled (photons and the rest by kernels of their own; under
    //! track_order "charge" each over its group of the order), their secondaries counted and scanned
    //! in slot order, then written on top of the waiting ones as far as this iteration's room goes
    //! (the rest held back). A neutral particle without shower physics never interacts (LimitStep
    //! sets `interacts` for shower particles only), so the charged group holds every slot the
    //! lepton kernel has work in.
    void interact(TrackView const& t, std::uint64_t* counters)
    {
        bool const by_charge = track_order_ == TrackOrder::charge || track_order_ == TrackOrder::compact;
        run("interact_photons", EmInteractPhotons{params_, t, finals_.data()},
            by_charge ? &LoopScalars::order_neutral : &LoopScalars::order_all);
        run("interact_leptons", EmInteractLeptons{params_, t, finals_.data()},
            by_charge ? &LoopScalars::order_charged : &LoopScalars::order_all);
        timed("scan_secondaries", [&] {
            Ops::exclusive_scan(SecondaryKey{t.secondaries}, t.secondary_offset, state_.size());
            return std::uint64_t(0);
        });
        run("commit_secondaries",
            EmCommit{params_, t, finals_.data(),
                     SecondaryStackView{stack_.data(), &scalars_.data()->stack_count, stack_limit_},
                     counters});
        run_one("close_commit", CloseCommit{scalars_.data(), counters + k_secondaries});
    }

    std::uint64_t read_counter(int which)
    {
        std::uint64_t v = 0;
        Ops::copy_to_host(&v, counters_.data() + which, sizeof(v));
        return v;
    }

    //! Room for `needed` hits (`host_.hit_count` of them scored).
    void grow_hits(std::uint64_t needed)
    {
        std::size_t cap = hits_.size();
        while (cap < needed) cap *= 2;
        Buffer<Hit> bigger(cap, Ops::space);
        std::uint64_t const used = host_.hit_count < hits_.size() ? host_.hit_count : hits_.size();
        Ops::copy_within(bigger.data(), hits_.data(), used * sizeof(Hit));
        hits_ = std::move(bigger);
        ++growths_;
    }

    DetectorParamsView params_;
    Buffer<PlacedVolume> volumes_;
    Buffer<BvhNode> nodes_;
    Buffer<std::int32_t> items_;
    Buffer<PolyconeSection> sections_;
    Buffer<MaterialParams> materials_;
    Buffer<ParticleType> particles_;
    Buffer<double> field_map_;
    Buffer<Primary> primary_list_;
    TrackState state_;
    TrackState spare_;  //!< run.track_order "compact": where the next iteration's order is written
    Buffer<Hit> hits_;
    Buffer<std::uint64_t> counters_;
    Buffer<std::uint64_t> tallies_;
    Buffer<double> em_values_;
    Buffer<EmMaterial> em_materials_;
    Buffer<PhotoelectricInterval> em_photoelectric_;
    Buffer<Secondary> stack_;              //!< secondaries waiting for a slot
    Buffer<EmFinalState> finals_;          //!< per slot: an interaction waiting for stack room
    Buffer<std::uint64_t> event_energy_;   //!< [event][EnergyCategory] in k_tally_unit
    Buffer<std::uint64_t> event_lengths_;  //!< [event][TrackLengthCategory] in k_length_unit (on request)
    std::uint64_t stack_limit_ = 0;        //!< most secondaries one iteration adds
    TrackOrder track_order_ = TrackOrder::slots;
    Buffer<std::uint32_t> order_;       //!< the slots the step actions run over (not for TrackOrder::slots)
    Buffer<std::uint64_t> order_rank_;  //!< the scan of OrderKey that places them
    Buffer<LoopScalars> scalars_;       //!< the loop's counts, in the backend's memory
    LoopScalars host_;                  //!< their copy, as of the last read (after each batch)
    std::uint64_t batch_ = Ops::k_batch;
    bool untimed_ = false;  //!< load_kernels: the actions run outside the stage timer
    int growths_ = 0;
    KernelTimer timer_;
    mutable typename Ops::StageTimer stages_{timer_};  //!< after timer_, which it fills
};

}  // namespace gt
