// The detector stepping loop written once over an executor. `Ops` supplies what differs between
// backends: for_each, the memory space, the scans (vacant slots, secondaries per slot), the hit
// sort, copies, and a stage timer (a GPU stage is timed by events, without a wait of its own).
//
// Nothing here depends on the order threads run in, nor on the order slots are visited in
// (run.track_order): slots take waiting secondaries and primaries by
// their vacancy rank, secondaries enter the stack in slot order (EmInteraction.hh), hits are sorted
// by a total order before anyone sees them, and counters, tallies and energy balances are integer
// sums. So a deck gives the same bits on the CPU, for any thread count, and on the GPU.
#pragma once

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/core/NvtxRange.hh"
#include "kernels/detector/DetectorKernels.hh"
#include "kernels/detector/SlotSelection.hh"

namespace gt {

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
        materials_ = upload(tables.materials);
        particles_ = upload(tables.particles);
        field_map_ = upload(tables.field_map);
        params_.geometry = GeometryView{volumes_.data(), static_cast<std::int32_t>(tables.volumes.size()),
                                        nodes_.data(), items_.data()};
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
        hits_ = Buffer<Hit>(hit_capacity > capacity ? hit_capacity : capacity, Ops::space);
        counters_ = Buffer<std::uint64_t>(k_num_counters, Ops::space);
        tallies_ = Buffer<std::uint64_t>(static_cast<std::size_t>(tables.num_logical), Ops::space);
        next_primary_ = params_.gun.first_primary;
        track_order_ = tables.track_order;
        order_ = Buffer<std::uint32_t>(track_order_ == TrackOrder::slots ? 0 : capacity, Ops::space);
        active_ = capacity;
    }

    IterationResult iterate() override
    {
        IterationResult r;
        std::size_t const n = state_.size();
        TrackView const t = state_.view();
        std::uint64_t const vacant =
            timed("scan_vacancies", [&] { return Ops::scan_vacancies(t.status, t.vacancy_rank, n); });
        // vacant slots take waiting secondaries first (the top of the stack), then primaries
        std::uint64_t const from_stack = vacant < stack_count_ ? vacant : stack_count_;
        std::uint64_t const end = params_.gun.primaries;
        std::uint64_t const left = end > next_primary_ ? end - next_primary_ : 0;
        std::uint64_t const primaries = vacant - from_stack < left ? vacant - from_stack : left;
        r.started = from_stack + primaries;
        r.alive = n - vacant + r.started;
        if (r.alive == 0) {
            r.finished = true;
            return r;
        }
        // room for one hit per slot in this iteration: grow the buffer rather than lose any
        std::uint64_t const used = read_counter(k_hit_count);
        if (used + n > hits_.size()) grow_hits(used + n);
        std::uint64_t* const counters = counters_.data();
        EventEnergyView const energy{event_energy_.data(), event_energy_.size() / k_num_energy_categories};
        if (r.started > 0)
            run_all("initialize", InitializeTracks{params_, t, next_primary_, stack_.data(), stack_count_,
                                                   from_stack, counters, energy});
        stack_count_ -= from_stack;
        if (track_order_ != TrackOrder::slots)
            active_ = timed("order_tracks", [&] { return order_tracks(t); });
        run("limit_step", LimitStep{params_, t});
        visit_field_kind(params_.field, [&](auto kind) {
            run("propagate", Propagate<decltype(kind)>{params_, t, counters});
        });
        EventTrackLengthView const lengths{event_lengths_.data(),
                                           event_lengths_.size() / k_num_length_categories};
        run("along_step", AlongStep{params_, t, lengths});
        if (params_.physics.showers) interact(t, counters);
        run("score_hits",
            ScoreHits{params_, t, hits_.data(), hits_.size(), counters, tallies_.data(), energy});
        run("cross_boundary", CrossBoundary{params_, t});
        run("end_step", EndStep{params_, t, counters, energy});
        next_primary_ += primaries;
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

    std::uint64_t primaries_started() const override { return next_primary_ - params_.gun.first_primary; }

    DetectorLoopState save_state() override
    {
        DetectorLoopState s;
        s.next_primary = next_primary_;
        s.secondaries_waiting = stack_count_;
        s.secondary_stack_peak = stack_peak_;
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
        s.arrays.push_back(saved("secondary_stack", stack_.data(), stack_count_));
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
        stack_count_ = s.secondaries_waiting;
        stack_peak_ = s.secondary_stack_peak;
        if (s.next_primary < params_.gun.first_primary || s.next_primary > params_.gun.primaries)
            throw std::runtime_error("the loop state's next primary " + std::to_string(s.next_primary) +
                                     " is not among this run's");
        next_primary_ = s.next_primary;
    }
    int hit_buffer_growths() const override { return growths_; }
    std::uint64_t secondary_stack_peak() const override { return stack_peak_; }

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

    template <class F>
    std::uint64_t timed(char const* name, F const& f)
    {
        NvtxRange const range(name);
        stages_.start();
        std::uint64_t const result = f();
        stages_.stop({name, 0.0, static_cast<double>(state_.size()), 0.0});
        return result;
    }

    //! An action over every slot.
    template <class F>
    void run_all(char const* name, F const& f)
    {
        timed(name, [&] {
            Ops::for_each(state_.size(), f);
            return std::uint64_t(0);
        });
    }

    //! A step action: over every slot, or over the live ones in the run.track_order order.
    template <class F>
    void run(char const* name, F const& f)
    {
        if (track_order_ == TrackOrder::slots) return run_all(name, f);
        timed(name, [&] {
            Ops::for_each(active_, OnSlots<F>{f, order_.data()});
            return std::uint64_t(0);
        });
    }

    //! The live slots into order_ (charged ones first for TrackOrder::charge); returns their number.
    std::uint64_t order_tracks(TrackView const& t)
    {
        std::size_t const n = state_.size();
        SlotSelection s{t.status, t.particle, params_.particles, SlotSelection::live};
        if (track_order_ == TrackOrder::alive) return Ops::select_slots(s, order_.data(), n);
        s.which = SlotSelection::live_charged;
        std::uint64_t const charged = Ops::select_slots(s, order_.data(), n);
        s.which = SlotSelection::live_neutral;
        return charged + Ops::select_slots(s, order_.data() + charged, n);
    }

    //! Shower tables into the backend's memory; the secondary stack and the energy balance.
    void setup_showers(DetectorTables const& tables, std::size_t capacity)
    {
        em_values_ = upload(tables.em.values);
        em_materials_ = upload(tables.em.materials);
        em_photoelectric_ = upload(tables.em.photoelectric);
        params_.em = EmTablesView{tables.em.n_energy,   tables.em.log_e_min,     tables.em.inv_dlog,
                                  tables.em.e_min,      tables.em.e_max,         em_values_.data(),
                                  em_materials_.data(), em_photoelectric_.data()};
        stack_count_ = 0;
        stack_peak_ = 0;
        // at least one interaction's worth, so that the first slot with secondaries always fits
        stack_limit_ = tables.secondary_buffer > 0 ? tables.secondary_buffer : 2 * capacity;
        if (stack_limit_ < EmFinalState::k_max_secondaries) stack_limit_ = EmFinalState::k_max_secondaries;
        stack_ = Buffer<Secondary>(params_.physics.showers ? stack_limit_ : 0, Ops::space);
        stack_added_ = Buffer<std::uint64_t>(1, Ops::space);
        finals_ = Buffer<EmFinalState>(params_.physics.showers ? capacity : 0, Ops::space);
        std::uint64_t const events = params_.physics.showers && params_.gun.per_event > 0
                                         ? params_.gun.primaries / params_.gun.per_event
                                         : 0;
        event_energy_ = Buffer<std::uint64_t>(events * k_num_energy_categories, Ops::space);
        event_lengths_ =
            Buffer<std::uint64_t>(tables.track_lengths ? events * k_num_length_categories : 0, Ops::space);
    }

    //! The interactions: sampled, their secondaries counted and scanned in slot order, then written
    //! on top of the waiting ones as far as this iteration's room goes (the rest held back).
    void interact(TrackView const& t, std::uint64_t* counters)
    {
        run("interact", EmInteract{params_, t, finals_.data()});
        std::uint64_t const total = timed("scan_secondaries", [&] {
            return Ops::exclusive_scan(t.secondaries, t.secondary_offset, state_.size());
        });
        if (total == 0) return;
        std::uint64_t const room = total < stack_limit_ ? total : stack_limit_;
        if (stack_count_ + room > stack_.size()) {
            std::size_t cap = stack_.size() > 0 ? stack_.size() : stack_limit_;
            while (cap < stack_count_ + room) cap *= 2;
            Buffer<Secondary> bigger(cap, Ops::space);
            Ops::copy_within(bigger.data(), stack_.data(), stack_count_ * sizeof(Secondary));
            stack_ = std::move(bigger);
        }
        run("commit_secondaries",
            EmCommit{params_, t, finals_.data(),
                     SecondaryStackView{stack_.data(), stack_count_, stack_limit_, stack_added_.data()},
                     counters});
        // all fit, or the first slot held back wrote what the ones before it added
        std::uint64_t added = total;
        if (total > stack_limit_) Ops::copy_to_host(&added, stack_added_.data(), sizeof(added));
        stack_count_ += added;
        stack_peak_ = stack_count_ > stack_peak_ ? stack_count_ : stack_peak_;
    }

    std::uint64_t read_counter(int which)
    {
        std::uint64_t v = 0;
        Ops::copy_to_host(&v, counters_.data() + which, sizeof(v));
        return v;
    }

    void grow_hits(std::uint64_t needed)
    {
        std::size_t cap = hits_.size();
        while (cap < needed) cap *= 2;
        Buffer<Hit> bigger(cap, Ops::space);
        std::uint64_t const counted = read_counter(k_hit_count);
        std::uint64_t const used = counted < hits_.size() ? counted : hits_.size();
        Ops::copy_within(bigger.data(), hits_.data(), used * sizeof(Hit));
        hits_ = std::move(bigger);
        ++growths_;
    }

    DetectorParamsView params_;
    Buffer<PlacedVolume> volumes_;
    Buffer<BvhNode> nodes_;
    Buffer<std::int32_t> items_;
    Buffer<MaterialParams> materials_;
    Buffer<ParticleType> particles_;
    Buffer<double> field_map_;
    Buffer<Primary> primary_list_;
    TrackState state_;
    Buffer<Hit> hits_;
    Buffer<std::uint64_t> counters_;
    Buffer<std::uint64_t> tallies_;
    Buffer<double> em_values_;
    Buffer<EmMaterial> em_materials_;
    Buffer<PhotoelectricInterval> em_photoelectric_;
    Buffer<Secondary> stack_;              //!< secondaries waiting for a slot
    Buffer<std::uint64_t> stack_added_;    //!< secondaries added in an iteration that held some back
    Buffer<EmFinalState> finals_;          //!< per slot: an interaction waiting for stack room
    Buffer<std::uint64_t> event_energy_;   //!< [event][EnergyCategory] in k_tally_unit
    Buffer<std::uint64_t> event_lengths_;  //!< [event][TrackLengthCategory] in k_length_unit (on request)
    std::uint64_t stack_count_ = 0, stack_limit_ = 0, stack_peak_ = 0;
    std::uint64_t next_primary_ = 0;
    TrackOrder track_order_ = TrackOrder::slots;
    Buffer<std::uint32_t> order_;  //!< the slots the step actions run over (not for TrackOrder::slots)
    std::uint64_t active_ = 0;     //!< how many of them
    int growths_ = 0;
    KernelTimer timer_;
    mutable typename Ops::StageTimer stages_{timer_};  //!< after timer_, which it fills
};

}  // namespace gt
