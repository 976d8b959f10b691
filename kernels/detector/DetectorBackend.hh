// The detector stepping loop written once over an executor. `Ops` supplies what differs between
// backends: for_each, the memory space, the scan of vacant slots, the hit sort, copies, and a
// synchronization point for timing.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include "kernels/core/NvtxRange.hh"
#include "kernels/detector/DetectorKernels.hh"

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
        params_.seed = tables.seed;
        setup_showers(tables, capacity);
        state_ = TrackState(capacity, Ops::space);
        hits_ = Buffer<Hit>(hit_capacity > capacity ? hit_capacity : capacity, Ops::space);
        counters_ = Buffer<std::uint64_t>(k_num_counters, Ops::space);
        tallies_ = Buffer<std::uint64_t>(static_cast<std::size_t>(tables.num_logical), Ops::space);
        next_primary_ = params_.gun.first_primary;
        primary_limit_ = params_.gun.primaries;
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
        std::uint64_t const end =
            primary_limit_ < params_.gun.primaries ? primary_limit_ : params_.gun.primaries;
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
        if (r.started > 0) {
            DetectorParamsView limited = params_;  // the gun's end as the limit says
            limited.gun.primaries = end;
            run("initialize", InitializeTracks{limited, t, next_primary_, stack_.data(), stack_count_,
                                               from_stack, counters, energy});
        }
        stack_count_ -= from_stack;
        run("limit_step", LimitStep{params_, t});
        run("propagate", Propagate{params_, t, counters});
        run("along_step", AlongStep{params_, t});
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
    void limit_primaries(std::uint64_t end) override { primary_limit_ = end; }
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
    KernelTimer const& timer() const override { return timer_; }

  private:
    template <class T>
    static Buffer<T> upload(std::vector<T> const& v)
    {
        Buffer<T> b(v.size(), Ops::space);
        if (!v.empty()) b.copy_raw(v.data(), MemSpace::host);
        return b;
    }

    template <class F>
    std::uint64_t timed(char const* name, F const& f)
    {
        NvtxRange const range(name);
        auto const start = std::chrono::steady_clock::now();
        std::uint64_t const result = f();
        Ops::synchronize();
        double const dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        timer_.add(name, dt, 0.0, static_cast<double>(state_.size()));
        return result;
    }

    template <class F>
    void run(char const* name, F const& f)
    {
        timed(name, [&] {
            Ops::for_each(state_.size(), f);
            return std::uint64_t(0);
        });
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
        // at least one interaction's worth, so that the first to reserve in an iteration always fits
        stack_limit_ = tables.secondary_buffer > 0 ? tables.secondary_buffer : 2 * capacity;
        if (stack_limit_ < EmFinalState::k_max_secondaries) stack_limit_ = EmFinalState::k_max_secondaries;
        stack_ = Buffer<Secondary>(params_.physics.showers ? stack_limit_ : 0, Ops::space);
        stack_added_ = Buffer<std::uint64_t>(1, Ops::space);
        std::uint64_t const events = params_.physics.showers && params_.gun.per_event > 0
                                         ? params_.gun.primaries / params_.gun.per_event
                                         : 0;
        event_energy_ = Buffer<std::uint64_t>(events * k_num_energy_categories, Ops::space);
    }

    //! The interactions, with room for this iteration's secondaries on top of the waiting ones.
    void interact(TrackView const& t, std::uint64_t* counters)
    {
        if (stack_count_ + stack_limit_ > stack_.size()) {
            std::size_t cap = stack_.size() > 0 ? stack_.size() : stack_limit_;
            while (cap < stack_count_ + stack_limit_) cap *= 2;
            Buffer<Secondary> bigger(cap, Ops::space);
            Ops::copy_within(bigger.data(), stack_.data(), stack_count_ * sizeof(Secondary));
            stack_ = std::move(bigger);
        }
        // As many zeros as the counter holds (one): GCC 13 cannot see the size and warns on a scalar.
        std::vector<std::uint64_t> const zeros(stack_added_.size(), 0);
        stack_added_.copy_raw(zeros.data(), MemSpace::host);
        run("interact",
            EmInteract{params_, t,
                       SecondaryStackView{stack_.data(), stack_count_, stack_limit_, stack_added_.data()},
                       counters});
        std::uint64_t added = 0;
        Ops::copy_to_host(&added, stack_added_.data(), sizeof(added));
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
    TrackState state_;
    Buffer<Hit> hits_;
    Buffer<std::uint64_t> counters_;
    Buffer<std::uint64_t> tallies_;
    Buffer<double> em_values_;
    Buffer<EmMaterial> em_materials_;
    Buffer<PhotoelectricInterval> em_photoelectric_;
    Buffer<Secondary> stack_;             //!< secondaries waiting for a slot
    Buffer<std::uint64_t> stack_added_;   //!< secondaries added in the current iteration
    Buffer<std::uint64_t> event_energy_;  //!< [event][EnergyCategory] in k_tally_unit
    std::uint64_t stack_count_ = 0, stack_limit_ = 0, stack_peak_ = 0;
    std::uint64_t next_primary_ = 0;
    std::uint64_t primary_limit_ = 0;  //!< no primary from this one on starts (limit_primaries)
    int growths_ = 0;
    KernelTimer timer_;
};

}  // namespace gt
