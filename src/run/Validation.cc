// CPU-versus-GPU validation: the same deck tracked on two backends in lock step and compared after every
// stage (the comparison: ValidationCompare.cc; the report: ValidationReport.cc).
#include "run/Validation.hh"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "beam/BeamStatistics.hh"
#include "beam/Lattice.hh"
#include "beam/LatticeCompaction.hh"
#include "deck/DeckError.hh"
#include "run/BeamRun.hh"
#include "run/BeamTracker.hh"
#include "run/CollectiveSchedule.hh"
#include "compare/RoundOffTolerance.hh"
#include "run/SpaceChargeSchedule.hh"
#include "run/TimeCodeSpaceCharge.hh"
#include "run/ValidationCompare.hh"
#include "run/ValidationSolvers.hh"

namespace gt {

namespace {

using validation::HostView;
using validation::StageComparer;
using validation::statistics_at;

//! Seconds the backend's kernels have run so far (all kernels: generate, track, moments).
double busy_seconds(BeamKernels const& k)
{
    double s = 0;
    for (auto const& [name, r] : k.timer().records()) s += r.seconds;
    return s;
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
    Lattice const lattice = build_tracking_lattice(sliced, ref);
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
    KickRoundOff kick_sizes;  // the reference's kicks, for the default tolerance
    double last_stage_s = 0;  // [m] where the kicks since the last stage began
    if (options.perturb_candidate.active())
        result.perturbation = "nothing perturbed: the deck has no space-charge kicks";
    if (deck.space_charge.enabled) {
        auto const solver_for = [&options](BeamKernels const& k) {
            if (options.space_charge_solver) return options.space_charge_solver(k);
            return k.memory() == MemSpace::device ? make_cuda_space_charge() : make_cpu_space_charge();
        };
        ref_sc = std::make_unique<KickMeter>(solver_for(reference), kick_sizes, last_stage_s);
        cand_sc = solver_for(candidate);
        if (options.perturb_candidate.active()) {
            result.perturbation = fmt::format("nothing perturbed: the candidate made fewer than {} kicks",
                                              options.perturb_candidate.kick + 1);
            cand_sc = std::make_unique<PerturbedKicks>(std::move(cand_sc), options.perturb_candidate,
                                                       result.perturbation);
        }
        SpaceChargeSettings const settings = space_charge_settings(deck.space_charge);
        std::vector<std::int64_t> entries;
        std::map<std::int64_t, double> ds_at;
        for (auto const& k : space_charge_schedule(lattice, sliced)) {
            entries.push_back(k.entry);
            ds_at[k.entry] = k.ds;
        }
        auto const kicker = [&, settings, ds_at](SpaceChargeKernels& sc, ParticleView v) {
            return [&sc, &lattice, &deck, settings, ds_at, v, n = ref_state.size()](std::int64_t entry,
                                                                                    std::int64_t) {
                BeamFrame const frame =
                    beam_frame(lattice.reference_after[std::size_t(entry)], deck.beam.bunch_charge, n);
                sc.kick(v, settings, frame, ds_at.at(entry));
            };
        };
        ref_tracker.add_kicks(
            entries, [&kicks_done, kick = kicker(*ref_sc, ref_view)](std::int64_t e, std::int64_t t) {
                kick(e, t);
                ++kicks_done;
            });
        cand_tracker.add_kicks(entries, kicker(*cand_sc, cand_view));
        // t-code entries: pushed as a bunch with kicks at fixed time, on each backend.
        std::vector<std::int64_t> const timed = time_code_space_charge_entries(lattice, sliced);
        if (!timed.empty()) {
            BeamFrame const species =
                beam_frame(lattice.reference_begin, deck.beam.bunch_charge, ref_state.size());
            ref_timed = std::make_unique<TimeCodeSpaceCharge>(lattice, reference, *ref_sc, settings, species,
                                                              ref_view);
            cand_timed = std::make_unique<TimeCodeSpaceCharge>(lattice, candidate, *cand_sc, settings,
                                                               species, cand_view);
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
        kick_sizes.bounds(p.s, round_off, lattice.reference_begin.beta_gamma, st.round_off_bound);
        comparer.set_stage(st.round_off, st.round_off_bound, ref_stats);
        last_stage_s = p.s;
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

}  // namespace gt
