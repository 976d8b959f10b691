// CPU-versus-GPU validation: track on two backends in lock step, compare after every stage, report.
#include "run/Validation.hh"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "beam/BeamStatistics.hh"
#include "beam/Lattice.hh"
#include "deck/DeckError.hh"
#include "run/BeamRun.hh"
#include "run/BeamTracker.hh"
#include "run/CollectiveSchedule.hh"
#include "run/RoundOffTolerance.hh"
#include "run/SpaceChargeSchedule.hh"
#include "run/TimeCodeSpaceCharge.hh"
#include "run/TextTable.hh"

namespace gt {

namespace {

constexpr char const* k_coordinates[6] = {"x", "px", "y", "py", "t", "pt"};
constexpr char const* k_coordinate_units[6] = {"m", "1", "m", "1", "m", "1"};

//! Seconds the backend's kernels have run so far (all kernels: generate, track, moments).
double busy_seconds(BeamKernels const& k)
{
    double s = 0;
    for (auto const& [name, r] : k.timer().records()) s += r.seconds;
    return s;
}

//! A host view of a state, copied out of device memory when it lives there.
struct HostView {
    ParticleState copy;
    ParticleView view;
    explicit HostView(ParticleState& s)
    {
        if (s.space() == MemSpace::host) {
            view = s.view();
        } else {
            copy = ParticleState(s, MemSpace::host);
            view = copy.view();
        }
    }
    //! Particles in id order, in a copy (space-charge kicks sort particles by grid cell: a rounding
    //! difference in a coordinate can put two particles in another order on the other backend).
    void order_by_id()
    {
        std::vector<size_type> order(view.size);
        for (size_type i = 0; i < view.size; ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](size_type a, size_type b) { return view.id[a] < view.id[b]; });
        ParticleState sorted(view.size, MemSpace::host);
        ParticleView out = sorted.view();
        for (size_type i = 0; i < view.size; ++i) {
            size_type const j = order[i];
            out.x[i] = view.x[j];
            out.px[i] = view.px[j];
            out.y[i] = view.y[j];
            out.py[i] = view.py[j];
            out.t[i] = view.t[j];
            out.pt[i] = view.pt[j];
            out.id[i] = view.id[j];
            out.lost_element[i] = view.lost_element[j];
            out.lost_turn[i] = view.lost_turn[j];
        }
        copy = std::move(sorted);
        view = copy.view();
    }
};

std::string num(double v)
{
    if (v == 0) return "0";
    if (std::isinf(v)) return "inf";
    return fmt::format("{:.3g}", v);
}

std::string seconds(double v) { return fmt::format("{:.4g}", v); }

std::string speedup(double reference, double candidate)
{
    if (candidate <= 0 || reference <= 0) return "-";
    return fmt::format("{:.3g}x", reference / candidate);
}

//! The coordinate with the largest relative difference at a stage (-1: none differs).
int worst_coordinate(StageComparison const& s)
{
    int worst = -1;
    for (int k = 0; k < 6; ++k)
        if (s.coordinate[k].differing > 0 &&
            (worst < 0 || s.coordinate[k].max_rel > s.coordinate[worst].max_rel))
            worst = k;
    return worst;
}

//! Short column labels for the two backends: "cpu" and "gpu", or "reference" and "candidate" when the
//! first words are the same.
std::pair<std::string, std::string> backend_labels(ValidationResult const& r)
{
    std::string a = r.reference_name.substr(0, r.reference_name.find(' '));
    std::string b = r.candidate_name.substr(0, r.candidate_name.find(' '));
    if (a == b) return {"reference", "candidate"};
    return {a, b};
}

std::string stage_where(StageComparison const& s)
{
    if (s.entry < 0) return "the initial beam";
    return fmt::format("stage {} (element {}, turn {}, entry {}, s = {:.6g} m)", s.index, s.name, s.turn,
                       s.entry, s.s);
}

class StageComparer {
  public:
    StageComparer(ValidationOptions const& options)
    {
        for (int k = 0; k < 6; ++k) {
            tolerance_[k] = base_[k] = options.tolerances.for_name(k_coordinates[k]);
            ruled_[k] = options.tolerances.has_rule_for(k_coordinates[k]);
        }
        for (auto const& [name, unit] : statistics_columns()) {
            columns_.push_back(name);
            column_tolerance_.push_back(options.tolerances.for_name("stats/" + name));
            column_ruled_.push_back(options.tolerances.has_rule_for("stats/" + name));
        }
        column_base_ = column_tolerance_;
    }

    //! The tolerances of one stage: the rules' where they name a quantity; elsewhere bitwise, or with
    //! tau > 0 (after space-charge kicks) tau times the reference's rms of the coordinate, and for the
    //! statistics rel 4 tau (a sigma moves by at most tau of itself, an emittance or beta, products of
    //! two or four such, by 2 or 4 tau) with abs tau x rms for the centroids and extents and abs 4 tau
    //! for the dimensionless alphas, which cross zero. Counters (s, element, turn, alive) stay exact.
    void set_stage(double tau, std::vector<double> const& reference_stats)
    {
        auto const rms = [&](int k) { return reference_stats[column("sigma_" + std::string(k_coordinates[k]))]; };
        for (int k = 0; k < 6; ++k)
            tolerance_[k] = ruled_[k] || tau == 0 ? base_[k] : Tolerance{0, tau * rms(k)};
        for (std::size_t j = 0; j < columns_.size(); ++j) {
            std::string const& c = columns_[j];
            if (column_ruled_[j] || tau == 0 || c == "s" || c == "element" || c == "turn" || c == "alive") {
                column_tolerance_[j] = column_base_[j];
                continue;
            }
            Tolerance t{4 * tau, 0};
            for (int k = 0; k < 6; ++k)
                if (c == "mean_" + std::string(k_coordinates[k]) || c == "max_abs_" + std::string(k_coordinates[k]))
                    t.atol = tau * rms(k);
            if (c.rfind("alpha_", 0) == 0) t.atol = 4 * tau;
            column_tolerance_[j] = t;
        }
    }

    Tolerance const& coordinate_tolerance(int k) const { return tolerance_[k]; }
    //! The statistics columns' common tolerance, or "per column".
    std::string statistics_tolerance() const
    {
        for (auto const& t : column_tolerance_)
            if (t.describe() != column_tolerance_.front().describe()) return "per column";
        return column_tolerance_.front().describe();
    }

    void compare_particles(ParticleView a, ParticleView b, StageComparison& st) const
    {
        if (a.size != b.size)
            throw std::logic_error(
                fmt::format("validate: the backends hold {} and {} particles", a.size, b.size));
        for (size_type i = 0; i < a.size; ++i) {
            double const za[6] = {a.x[i], a.px[i], a.y[i], a.py[i], a.t[i], a.pt[i]};
            double const zb[6] = {b.x[i], b.px[i], b.y[i], b.py[i], b.t[i], b.pt[i]};
            bool outside = false;
            std::size_t differing_before = 0, differing_after = 0;
            for (int k = 0; k < 6; ++k) {
                differing_before += st.coordinate[k].differing;
                outside = st.coordinate[k].add(za[k], zb[k], tolerance_[k], i) || outside;
                differing_after += st.coordinate[k].differing;
            }
            bool const records = a.id[i] != b.id[i] || a.lost_element[i] != b.lost_element[i] ||
                                 a.lost_turn[i] != b.lost_turn[i];
            if (records) ++st.loss_records_differing;
            if (outside || records) ++st.particles_outside;
            if (differing_after > differing_before || records) ++st.particles_differing;
        }
    }

    void compare_statistics(std::vector<double> const& a, std::vector<double> const& b,
                            StageComparison& st) const
    {
        double worst_rel = -1;
        for (std::size_t j = 0; j < columns_.size(); ++j) {
            DifferenceSummary one;
            if (one.add(a[j], b[j], column_tolerance_[j], j)) ++st.stats_outside;
            if (one.differing > 0 && one.max_rel > worst_rel) {
                worst_rel = one.max_rel;
                st.worst_stat = columns_[j];
            }
            st.stats.merge(one);
        }
    }

  private:
    std::size_t column(std::string const& name) const
    {
        return std::size_t(std::find(columns_.begin(), columns_.end(), name) - columns_.begin());
    }

    Tolerance base_[6], tolerance_[6];
    bool ruled_[6] = {};
    std::vector<std::string> columns_;
    std::vector<Tolerance> column_base_, column_tolerance_;
    std::vector<bool> column_ruled_;
};

std::vector<double> statistics_at(BeamKernels& kernels, ParticleView particles, Lattice const& lattice,
                                  OutputPoint const& p, double& alive)
{
    BeamStatistics s = derive_statistics(kernels.moments(particles), reference_at(lattice, p));
    s.element = p.entry;
    s.turn = p.turn;
    alive = s.alive;
    return statistics_row(s);
}

}  // namespace

bool ValidationResult::ok() const { return first_failure() == nullptr && !stages.empty(); }

StageComparison const* ValidationResult::first_failure() const
{
    for (auto const& s : stages)
        if (!s.ok()) return &s;
    return nullptr;
}

ValidationResult validate_beamline(DeckConfig const& deck, BeamKernels& reference, BeamKernels& candidate,
                                   ValidationOptions const& options)
{
    ReferenceParticle const ref = initial_reference(deck);
    // With space charge, elements are cut for the kicks as in the run (run/SpaceChargeSchedule.hh).
    DeckConfig const sliced = with_space_charge_slices(deck);
    Lattice const lattice = build_lattice(sliced, ref);
    OutputConfig schedule = deck.output;
    schedule.stats = options.stages;
    schedule.phase_space.clear();  // snapshots add no stages: every stage compares the whole state

    ValidationResult result;
    result.deck_path = deck.path;
    result.reference_name = reference.description();
    result.candidate_name = candidate.description();
    result.turns = deck.lattice.turns;
    result.stages_where = describe(options.stages);
    result.tolerances = options.tolerances.describe();
    StageComparer comparer(options);
    RoundOffTolerance const round_off = space_charge_round_off(deck);
    bool const round_off_applies = options.round_off_defaults && round_off.per_kick > 0;
    if (round_off_applies) result.round_off = round_off.describe();
    for (int k = 0; k < 6; ++k)
        result.coordinate_tolerance.push_back(comparer.coordinate_tolerance(k).describe());
    result.stats_tolerance = comparer.statistics_tolerance();

    double ref_busy = busy_seconds(reference), cand_busy = busy_seconds(candidate);
    ParticleState ref_state = initial_beam(deck, reference);
    ParticleState cand_state = initial_beam(deck, candidate);
    result.macroparticles = ref_state.size();
    reference.set_elements(lattice.elements, *lattice.field_data);
    candidate.set_elements(lattice.elements, *lattice.field_data);
    ParticleView const ref_view = ref_state.view();
    ParticleView const cand_view = cand_state.view();
    BeamTracker ref_tracker(lattice, schedule, deck.lattice.turns, reference, ref_view);
    BeamTracker cand_tracker(lattice, schedule, deck.lattice.turns, candidate, cand_view);

    // Space charge: each backend kicks with the solver beside it (the same memory).
    std::unique_ptr<SpaceChargeKernels> ref_sc, cand_sc;
    std::unique_ptr<TimeCodeSpaceCharge> ref_timed, cand_timed;
    std::int64_t kicks_done = 0;
    if (deck.space_charge.enabled) {
        auto const solver_for = [&options](BeamKernels const& k) {
            if (options.space_charge_solver) return options.space_charge_solver(k);
            return k.memory() == MemSpace::device ? make_cuda_space_charge() : make_cpu_space_charge();
        };
        ref_sc = solver_for(reference);
        cand_sc = solver_for(candidate);
        SpaceChargeSettings const settings = space_charge_settings(deck.space_charge);
        std::vector<std::int64_t> entries;
        std::map<std::int64_t, double> ds_at;
        for (auto const& k : space_charge_schedule(lattice, sliced)) {
            entries.push_back(k.entry);
            ds_at[k.entry] = k.ds;
        }
        auto const kicker = [&, settings, ds_at](SpaceChargeKernels& sc, ParticleView v) {
            return [&sc, &lattice, &deck, settings, ds_at, v, n = ref_state.size()](std::int64_t entry, std::int64_t) {
                BeamFrame const frame =
                    beam_frame(lattice.reference_after[std::size_t(entry)], deck.beam.bunch_charge, n);
                sc.kick(v, settings, frame, ds_at.at(entry));
            };
        };
        ref_tracker.add_kicks(entries, [&kicks_done, kick = kicker(*ref_sc, ref_view)](std::int64_t e, std::int64_t t) {
            kick(e, t);
            ++kicks_done;
        });
        cand_tracker.add_kicks(entries, kicker(*cand_sc, cand_view));
        // t-code entries: pushed as a bunch with kicks at fixed time, on each backend.
        std::vector<std::int64_t> const timed = time_code_space_charge_entries(lattice, sliced);
        if (!timed.empty()) {
            BeamFrame const species = beam_frame(lattice.reference_begin, deck.beam.bunch_charge, ref_state.size());
            ref_timed = std::make_unique<TimeCodeSpaceCharge>(lattice, reference, *ref_sc, settings, species, ref_view);
            cand_timed = std::make_unique<TimeCodeSpaceCharge>(lattice, candidate, *cand_sc, settings, species, cand_view);
            ref_tracker.replace_entries(timed, [&](std::int64_t e, std::int64_t t) {
                ref_timed->track(e, t, [&kicks_done](TimeCodeKick const&) { ++kicks_done; });
            });
            cand_tracker.replace_entries(timed, [&](std::int64_t e, std::int64_t t) {
                cand_timed->track(e, t, [](TimeCodeKick const&) {});
            });
        }
    }
    // Collective effects: each backend kicks with the collective kernels beside it.
    CollectivePlan const collective_plan(lattice, sliced);
    std::unique_ptr<CollectiveKernels> ref_ck, cand_ck;
    std::unique_ptr<CollectiveSolver> ref_cs, cand_cs;
    if (!collective_plan.empty()) {
        auto const kernels_for = [](BeamKernels const& k) {
            return k.memory() == MemSpace::device ? make_cuda_collective() : make_cpu_collective();
        };
        ref_ck = kernels_for(reference);
        cand_ck = kernels_for(candidate);
        ref_cs = std::make_unique<CollectiveSolver>(*ref_ck);
        cand_cs = std::make_unique<CollectiveSolver>(*cand_ck);
        add_collective_kicks(ref_tracker, collective_plan, *ref_cs, ref_view, lattice, sliced, nullptr);
        add_collective_kicks(cand_tracker, collective_plan, *cand_cs, cand_view, lattice, sliced, nullptr);
    }
    auto const sc_seconds = [](std::unique_ptr<SpaceChargeKernels> const& sc) {
        double s = 0;
        if (sc)
            for (auto const& [name, r] : sc->timer().records()) s += r.seconds;
        return s;
    };

    auto const compare_here = [&](OutputPoint const& p) {
        StageComparison st;
        st.index = result.stages.size();
        st.entry = p.entry;
        st.turn = p.turn;
        st.s = p.s;
        if (p.entry < 0) {
            st.name = "initial beam";
        } else {
            ElementInfo const& info = lattice.info[std::size_t(p.entry)];
            st.name = info.name;
            st.type = info.type;
        }
        auto const ref_stats = statistics_at(reference, ref_view, lattice, p, st.alive_reference);
        auto const cand_stats = statistics_at(candidate, cand_view, lattice, p, st.alive_candidate);
        double const ref_now = busy_seconds(reference) + sc_seconds(ref_sc);
        double const cand_now = busy_seconds(candidate) + sc_seconds(cand_sc);
        st.reference_seconds = ref_now - ref_busy;
        st.candidate_seconds = cand_now - cand_busy;
        ref_busy = ref_now;
        cand_busy = cand_now;
        result.reference_seconds += st.reference_seconds;
        result.candidate_seconds += st.candidate_seconds;
        st.kicks = kicks_done;
        st.round_off = round_off_applies ? round_off.tau(kicks_done) : 0.0;
        comparer.set_stage(st.round_off, ref_stats);
        {
            HostView a(ref_state), b(cand_state);
            if (deck.space_charge.enabled) {
                a.order_by_id();
                b.order_by_id();
            }
            comparer.compare_particles(a.view, b.view, st);
        }
        comparer.compare_statistics(ref_stats, cand_stats, st);
        result.stages.push_back(std::move(st));
    };

    compare_here(ref_tracker.point());
    for (;;) {
        bool const more = ref_tracker.advance();
        if (more != cand_tracker.advance())
            throw std::logic_error("validate: the two trackers fell out of step");
        if (!more) break;
        OutputPoint const& p = ref_tracker.point();
        OutputPoint const& q = cand_tracker.point();
        if (p.entry != q.entry || p.turn != q.turn)
            throw std::logic_error("validate: the two trackers stopped at different points");
        compare_here(p);
    }
    result.reference_kernels = reference.timer().records();
    result.candidate_kernels = candidate.timer().records();
    if (ref_sc)
        for (auto const& [name, r] : ref_sc->timer().records()) result.reference_kernels[name] = r;
    if (cand_sc)
        for (auto const& [name, r] : cand_sc->timer().records()) result.candidate_kernels[name] = r;
    return result;
}

std::string validation_verdict(ValidationResult const& r)
{
    std::size_t failed = 0, differing_values = 0;
    for (auto const& s : r.stages) {
        if (!s.ok()) ++failed;
        for (auto const& c : s.coordinate) differing_values += c.differing;
        differing_values += s.stats.differing;
    }
    StageComparison const* first = r.first_failure();
    if (!first) {
        if (differing_values == 0)
            return fmt::format(
                "PASS: {} and {} agree bit for bit at all {} stages (coordinates, loss records and "
                "statistics)",
                r.reference_name, r.candidate_name, r.stages.size());
        return fmt::format(
            "PASS: {} and {} agree within tolerance at all {} stages ({} values differ, all "
            "within tolerance)",
            r.reference_name, r.candidate_name, r.stages.size(), differing_values);
    }
    std::string what;
    if (first->particles_outside > 0) {
        what = fmt::format("{} particle{} outside tolerance", first->particles_outside,
                           first->particles_outside == 1 ? "" : "s");
        if (int const k = worst_coordinate(*first); k >= 0)
            what += fmt::format(" (worst: {}, |diff| {}, rel {})", k_coordinates[k],
                                num(first->coordinate[k].max_abs), num(first->coordinate[k].max_rel));
        if (first->loss_records_differing > 0)
            what += fmt::format(", {} with different loss records", first->loss_records_differing);
    }
    if (first->stats_outside > 0)
        what += fmt::format("{}{} statistics outside tolerance (worst: {}, rel {})", what.empty() ? "" : "; ",
                            first->stats_outside, first->worst_stat, num(first->stats.max_rel));
    return fmt::format("FAIL: {} of {} stages disagree; first at {}: {}", failed, r.stages.size(),
                       stage_where(*first), what);
}

namespace {

//! Per-quantity summary over all stages.
TextTable quantity_table(ValidationResult const& r)
{
    TextTable t({"quantity", "tolerance", "max |diff|", "max rel diff", "values differing",
                 "outside tolerance", "stages outside", "worst stage"});
    for (int k = 0; k < 6; ++k) {
        DifferenceSummary all;
        std::size_t stages_out = 0, worst_stage = 0;
        double worst_rel = -1;
        for (auto const& s : r.stages) {
            auto const& c = s.coordinate[k];
            all.merge(c);
            if (c.outside > 0) ++stages_out;
            if (c.differing > 0 && c.max_rel > worst_rel) {
                worst_rel = c.max_rel;
                worst_stage = s.index;
            }
        }
        t.add_row({fmt::format("{} [{}]", k_coordinates[k], k_coordinate_units[k]), r.coordinate_tolerance[k],
                   num(all.max_abs), num(all.max_rel), std::to_string(all.differing),
                   std::to_string(all.outside), std::to_string(stages_out),
                   all.differing ? std::to_string(worst_stage) : "-"});
    }
    std::size_t records = 0, rec_stages = 0, first_rec = 0;
    DifferenceSummary stats;
    std::size_t stats_out_stages = 0, stats_out = 0, worst_stats_stage = 0;
    double worst_rel = -1;
    for (auto const& s : r.stages) {
        if (s.loss_records_differing > 0 && rec_stages++ == 0) first_rec = s.index;
        records += s.loss_records_differing;
        stats.merge(s.stats);
        stats_out += s.stats_outside;
        if (s.stats_outside > 0) ++stats_out_stages;
        if (s.stats.differing > 0 && s.stats.max_rel > worst_rel) {
            worst_rel = s.stats.max_rel;
            worst_stats_stage = s.index;
        }
    }
    t.add_row({"loss records, ids", "exact", "-", "-", std::to_string(records), std::to_string(records),
               std::to_string(rec_stages), rec_stages ? std::to_string(first_rec) : "-"});
    t.add_row({"statistics (all columns)", r.stats_tolerance, num(stats.max_abs), num(stats.max_rel),
               std::to_string(stats.differing), std::to_string(stats_out), std::to_string(stats_out_stages),
               stats.differing ? std::to_string(worst_stats_stage) : "-"});
    return t;
}

std::vector<std::string> stage_row(StageComparison const& s, bool full)
{
    int const k = worst_coordinate(s);
    std::vector<std::string> row = {std::to_string(s.index), std::to_string(s.turn), s.name,
                                    fmt::format("{:.6g}", s.s)};
    if (full) {
        row.insert(row.begin() + 2, std::to_string(s.entry));
        row.insert(row.begin() + 4, s.type);
        row.push_back(fmt::format("{:.0f}", s.alive_reference));
        row.push_back(fmt::format("{:.0f}", s.alive_candidate));
        for (auto const& c : s.coordinate)
            row.push_back(c.differing ? fmt::format("{} / {}", num(c.max_abs), num(c.max_rel)) : "0");
    }
    row.push_back(k < 0 ? "0" : fmt::format("{} ({})", num(s.coordinate[k].max_rel), k_coordinates[k]));
    row.push_back(fmt::format("{} ({})", s.particles_differing, s.particles_outside));
    if (full) row.push_back(std::to_string(s.loss_records_differing));
    row.push_back(s.stats.differing
                      ? fmt::format("{} ({} {})", s.stats_outside, s.worst_stat, num(s.stats.max_rel))
                      : "0");
    row.push_back(seconds(s.reference_seconds));
    row.push_back(seconds(s.candidate_seconds));
    row.push_back(speedup(s.reference_seconds, s.candidate_seconds));
    if (full) row.push_back(fmt::format("{} ({})", num(s.round_off), s.kicks));
    row.push_back(s.ok() ? "ok" : "FAIL");
    return row;
}

std::vector<std::string> stage_header(ValidationResult const& r, bool full)
{
    std::vector<std::string> h = {"stage", "turn", "element", "s [m]"};
    if (full) {
        h.insert(h.begin() + 2, "entry");
        h.insert(h.begin() + 4, "type");
        h.push_back("alive (ref)");
        h.push_back("alive (cand)");
        for (int k = 0; k < 6; ++k) h.push_back(fmt::format("d{} max abs / rel", k_coordinates[k]));
    }
    h.push_back("max rel diff");
    h.push_back("particles differing (outside tol)");
    if (full) h.push_back("loss records differing");
    h.push_back("stats outside (worst)");
    h.push_back(backend_labels(r).first + " [s]");
    h.push_back(backend_labels(r).second + " [s]");
    h.push_back("speedup");
    if (full) h.push_back("default tau (kicks)");
    h.push_back("verdict");
    return h;
}

//! One row per deck element (in order of first appearance), summed over its stages.
TextTable element_table(ValidationResult const& r)
{
    struct Group {
        std::string name, type;
        std::size_t stages = 0, failed = 0, particles_outside = 0, stats_outside = 0;
        DifferenceSummary coord;
        int worst_k = -1;
        double ref_s = 0, cand_s = 0;
    };
    std::vector<Group> groups;
    for (auto const& s : r.stages) {
        auto it =
            std::find_if(groups.begin(), groups.end(), [&](Group const& g) { return g.name == s.name; });
        if (it == groups.end()) {
            groups.emplace_back();
            groups.back().name = s.name;
            groups.back().type = s.type;
            it = groups.end() - 1;
        }
        Group& g = *it;
        ++g.stages;
        if (!s.ok()) ++g.failed;
        g.particles_outside = std::max(g.particles_outside, s.particles_outside);
        g.stats_outside += s.stats_outside;
        if (int const k = worst_coordinate(s);
            k >= 0 && (g.worst_k < 0 || s.coordinate[k].max_rel > g.coord.max_rel)) {
            g.worst_k = k;
            g.coord.max_rel = s.coordinate[k].max_rel;
        }
        g.ref_s += s.reference_seconds;
        g.cand_s += s.candidate_seconds;
    }
    auto const [ref, cand] = backend_labels(r);
    TextTable t({"element", "type", "stages", "stages failed", "max particles outside", "max rel diff",
                 "stats outside", ref + " [s]", cand + " [s]", "speedup"});
    for (auto const& g : groups)
        t.add_row(
            {g.name, g.type.empty() ? "-" : g.type, std::to_string(g.stages), std::to_string(g.failed),
             std::to_string(g.particles_outside),
             g.worst_k < 0 ? "0" : fmt::format("{} ({})", num(g.coord.max_rel), k_coordinates[g.worst_k]),
             std::to_string(g.stats_outside), seconds(g.ref_s), seconds(g.cand_s),
             speedup(g.ref_s, g.cand_s)});
    return t;
}

//! Stages that differ at all, worst first (failed before passed, then by particles and relative size).
std::vector<StageComparison const*> worst_stages(ValidationResult const& r, std::size_t n)
{
    std::vector<StageComparison const*> v;
    for (auto const& s : r.stages) {
        std::size_t differing = s.stats.differing + s.loss_records_differing;
        for (auto const& c : s.coordinate) differing += c.differing;
        if (differing > 0) v.push_back(&s);
    }
    auto const rel = [](StageComparison const* s) {
        int const k = worst_coordinate(*s);
        return std::max(k < 0 ? 0.0 : s->coordinate[k].max_rel, s->stats.max_rel);
    };
    std::stable_sort(v.begin(), v.end(), [&](auto a, auto b) {
        if (a->ok() != b->ok()) return !a->ok();
        if (a->particles_outside != b->particles_outside) return a->particles_outside > b->particles_outside;
        return rel(a) > rel(b);
    });
    if (v.size() > n) v.resize(n);
    return v;
}

//! [s] the first call of every kernel of one backend: the one-time part of its time (loading the GPU
//! module of each kernel on its first launch, first touch of memory, thread start).
double first_calls_seconds(std::map<std::string, KernelRecord> const& kernels)
{
    double sum = 0;
    for (auto const& [name, k] : kernels) sum += k.first_seconds;
    return sum;
}

std::string totals_line(ValidationResult const& r)
{
    return fmt::format(
        "{:.4g} s on {}, {:.4g} s on {}: speedup {} (each backend's kernel timers: generation, "
        "tracking and moments)",
        r.reference_seconds, r.reference_name, r.candidate_seconds, r.candidate_name,
        speedup(r.reference_seconds, r.candidate_seconds));
}

//! The same totals without each kernel's first call: what a longer run of the deck would see per call.
std::string steady_totals_line(ValidationResult const& r)
{
    double const ref_first = first_calls_seconds(r.reference_kernels);
    double const cand_first = first_calls_seconds(r.candidate_kernels);
    double const ref = std::max(0.0, r.reference_seconds - ref_first);
    double const cand = std::max(0.0, r.candidate_seconds - cand_first);
    return fmt::format("{:.4g} s on {}, {:.4g} s on {}: speedup {} (the first calls, {:.4g} s and {:.4g} s, "
                       "left out)",
                       ref, r.reference_name, cand, r.candidate_name, speedup(ref, cand), ref_first, cand_first);
}

TextTable kernel_table(ValidationResult const& r)
{
    auto const [ref, cand] = backend_labels(r);
    TextTable t({"kernel", "calls", ref + " [s]", cand + " [s]", "speedup", ref + " first call [s]",
                 cand + " first call [s]", cand + " GB/s"});
    for (auto const& [name, a] : r.reference_kernels) {
        auto it = r.candidate_kernels.find(name);
        KernelRecord const b = it == r.candidate_kernels.end() ? KernelRecord{} : it->second;
        t.add_row({name, std::to_string(a.calls), seconds(a.seconds), seconds(b.seconds),
                   speedup(a.seconds, b.seconds), seconds(a.first_seconds), seconds(b.first_seconds),
                   b.seconds > 0 ? fmt::format("{:.3g}", b.bytes / b.seconds / 1e9) : "-"});
    }
    return t;
}

}  // namespace

std::string validation_summary(ValidationResult const& r, std::size_t max_rows)
{
    std::string out = fmt::format(
        "gtrack validate {}: {} macroparticles, {} turn{}, {} stages (the initial beam, "
        "then {})\n",
        r.deck_path, r.macroparticles, r.turns, r.turns == 1 ? "" : "s", r.stages.size(), r.stages_where);
    out += fmt::format("reference: {}\ncandidate: {}\ntolerances: {}; loss records and ids exact\n",
                       r.reference_name, r.candidate_name, r.tolerances);
    if (!r.round_off.empty()) out += fmt::format("default tolerance: {}\n", r.round_off);
    out += "\n";
    out += "per quantity, over all stages:\n" + quantity_table(r).text() + "\n";
    if (r.stages.size() <= max_rows) {
        TextTable t(stage_header(r, false));
        for (auto const& s : r.stages) t.add_row(stage_row(s, false));
        out += "every stage:\n" + t.text();
    } else {
        out += fmt::format("by deck element ({} stages; every stage is in the report):\n", r.stages.size());
        out += element_table(r).text();
        auto const worst = worst_stages(r, 10);
        if (!worst.empty()) {
            TextTable t(stage_header(r, false));
            for (auto const* s : worst) t.add_row(stage_row(*s, false));
            out += fmt::format("\nworst stages ({} shown):\n", worst.size()) + t.text();
        }
    }
    out += "\nper kernel:\n" + kernel_table(r).text();
    out += "totals: " + totals_line(r) + "\n";
    out += "after the first calls: " + steady_totals_line(r) + "\n";
    out += "verdict: " + validation_verdict(r) + "\n";
    return out;
}

std::string validation_report(ValidationResult const& r)
{
    std::string out = fmt::format("# gtrack validate: {}\n\n", r.deck_path);
    out += "**" + validation_verdict(r) + "**\n\n";
    out += "| | |\n|---|---|\n";
    out += fmt::format("| deck | `{}` |\n| reference backend | {} |\n| candidate backend | {} |\n",
                       r.deck_path, r.reference_name, r.candidate_name);
    out +=
        fmt::format("| macroparticles | {} |\n| turns | {} |\n| stages | {} (the initial beam, then {}) |\n",
                    r.macroparticles, r.turns, r.stages.size(), r.stages_where);
    out += fmt::format("| tolerances | {}; loss records and ids exact |\n", r.tolerances);
    if (!r.round_off.empty()) out += fmt::format("| default tolerance | {} |\n", r.round_off);
    out += "\n";
    out += "## Per quantity, over all stages\n\n" + quantity_table(r).markdown() + "\n";
    out += "## By deck element\n\n" + element_table(r).markdown() + "\n";
    out += "## Totals\n\n" + totals_line(r) + "\n\nAfter the first calls: " + steady_totals_line(r) + "\n\n";
    out += "Per kernel:\n\n" + kernel_table(r).markdown() + "\n";
    out += "## Every stage\n\n";
    out +=
        "`d<q> max abs / rel`: the largest |reference - candidate| of coordinate q over all particles "
        "(lost ones included) and the largest relative difference; `max rel diff`: the largest relative "
        "difference over the coordinates, and which; `particles differing (outside tol)`: particles with any "
        "bit different, and those outside tolerance; `stats outside`: statistics columns outside tolerance "
        "(the column with the largest relative difference, and its size); times: each backend's kernels to "
        "reach and measure the stage.\n\n";
    TextTable t(stage_header(r, true));
    for (auto const& s : r.stages) t.add_row(stage_row(s, true));
    out += t.markdown();
    return out;
}

}  // namespace gt
