// `gtrack run` for a beamline deck: set up, track between output points, write, summarize.
#include "run/BeamRun.hh"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "beam/BeamSetup.hh"
#include "beam/BeamStatistics.hh"
#include "deck/DeckError.hh"
#include "io/BeamPhysicsReader.hh"
#include "io/OpenPmdWriter.hh"
#include "io/OutputFile.hh"
#include "io/Provenance.hh"
#include "io/TableWriter.hh"
#include "kernels/core/Device.hh"
#include "kernels/cpu/Executor.hh"
#include "optics/PeriodicTwiss.hh"
#include "parallel/Agreement.hh"
#include "parallel/Communicator.hh"
#include "parallel/DeviceBinding.hh"
#include "parallel/OrderedWrites.hh"
#include "parallel/WorldCrossRank.hh"
#include "perf/TraceScope.hh"
#include "run/BeamCheckpoint.hh"
#include "run/BeamRunStages.hh"
#include "run/BeamTracker.hh"
#include "run/CheckpointToResume.hh"
#include "run/CollectiveSchedule.hh"
#include "run/DeviceMemory.hh"
#include "run/ParticleDownload.hh"
#include "run/Progress.hh"
#include "run/RunProfile.hh"
#include "run/RunProvenance.hh"
#include "run/SpaceChargeSchedule.hh"
#include "run/StopRequest.hh"
#include "run/TimeCodeSpaceCharge.hh"

namespace gt {

namespace {

BackendChoice backend_choice(DeckConfig const& deck, RunOptions const& options)
{
    if (options.backend.empty()) return deck.run.backend;
    if (options.backend == "auto") return BackendChoice::automatic;
    if (options.backend == "cpu") return BackendChoice::cpu;
    if (options.backend == "gpu") return BackendChoice::gpu;
    throw std::runtime_error(fmt::format("--backend: expected auto, cpu or gpu, got '{}'", options.backend));
}

}  // namespace

ReferenceParticle reference_at(Lattice const& lattice, OutputPoint const& p)
{
    ReferenceParticle r =
        p.entry < 0 ? lattice.reference_begin : lattice.reference_after[std::size_t(p.entry)];
    double const turn_time = lattice.reference_end().t - lattice.reference_begin.t;
    r.t += double(p.turn) * turn_time;
    r.s = p.s;
    return r;
}

std::unique_ptr<BeamKernels> select_beam_backend(DeckConfig const& deck, RunOptions const& options)
{
    switch (backend_choice(deck, options)) {
        case BackendChoice::cpu:
            return make_cpu_beam_kernels();
        case BackendChoice::gpu:
            if (!device::compiled_in())
                throw std::runtime_error(
                    "--backend gpu: this gtrack was built without CUDA (GTRACK_CUDA=OFF)");
            if (device::count() == 0)
                throw std::runtime_error(
                    "--backend gpu: no GPU found on this machine (use --backend cpu or auto)");
            return make_cuda_beam_kernels();
        case BackendChoice::automatic:
            break;
    }
    if (device::count() > 0) return make_cuda_beam_kernels();
    if (!options.quiet)
        std::fprintf(stderr, "gtrack: no GPU found (%s): running on the CPU\n",
                     device::compiled_in() ? "none visible" : "built without CUDA");
    return make_cpu_beam_kernels();
}

ParticleState initial_beam(DeckConfig const& deck, BeamKernels& kernels)
{
    return initial_beam(deck, kernels, parallel::ParticleShare{0, deck.beam.macroparticles});
}

ParticleState initial_beam(DeckConfig const& deck, BeamKernels& kernels, parallel::ParticleShare share)
{
    BeamConfig const beam = optics::with_periodic_twiss(deck);  // [beam.twiss] periodic = true
    if (beam.distribution != "file") {
        // Particle i is drawn from the stream keyed by id i, whichever rank draws it.
        ParticleState state(share.count, kernels.memory());
        kernels.generate(state.view(), make_beam_sampler(beam, deck.run.seed), share.first);
        return state;
    }
    PhaseSpaceFile const file = holds_gtrack_coordinates(beam.file)
                                    ? read_phase_space(beam.file)
                                    : read_beamphysics(beam.file, initial_reference(deck));
    if (file.beam.size() < beam.macroparticles)  // fewer: the first ones
        throw DeckError(beam.where, "beam.macroparticles",
                        fmt::format("'{}' holds {} particles but beam.macroparticles = {}: remove "
                                    "macroparticles to take all of them, or ask for at most {}",
                                    beam.file, file.beam.size(), beam.macroparticles, file.beam.size()));
    ParticleState host(share.count, MemSpace::host);
    ParticleView v = host.view();
    for (size_type i = 0; i < v.size; ++i) {
        std::size_t const j = share.first + i;
        v.x[i] = file.beam.x[j];
        v.px[i] = file.beam.px[j];
        v.y[i] = file.beam.y[j];
        v.py[i] = file.beam.py[j];
        v.t[i] = file.beam.t[j];
        v.pt[i] = file.beam.pt[j];
        v.id[i] = file.beam.id[j];
        v.lost_element[i] = -1;
        v.lost_turn[i] = -1;
    }
    return ParticleState(host, kernels.memory());
}

namespace {

//! The space-charge backend of a run and its t-code stepper (null: none).
struct SpaceChargeStage {
    std::unique_ptr<SpaceChargeKernels> kernels;
    std::unique_ptr<TimeCodeSpaceCharge> time_code;
};

//! The space-charge kicks of a run: a kick after each scheduled entry (rows into `table`), and the
//! t-code entries pushed as a bunch and kicked at fixed time between the steps.
SpaceChargeStage add_space_charge_kicks(BeamTracker& tracker, DeckConfig const& deck,
                                        DeckConfig const& sliced, Lattice const& lattice,
                                        std::vector<SpaceChargeKickPoint> const& kicks, BeamKernels& kernels,
                                        ParticleView particles, Table& table)
{
    SpaceChargeStage stage;
    stage.kernels = kernels.memory() == MemSpace::device ? make_cuda_space_charge() : make_cpu_space_charge();
    stage.kernels->set_cross_rank(parallel::world_cross_rank());
    SpaceChargeKernels* const sc = stage.kernels.get();
    SpaceChargeSettings const settings = space_charge_settings(deck.space_charge);
    auto const macroparticles = static_cast<std::uint64_t>(deck.beam.macroparticles);
    double const bunch_charge = deck.beam.bunch_charge;
    std::vector<std::int64_t> entries;
    std::map<std::int64_t, double> ds_at;
    for (auto const& k : kicks) {
        entries.push_back(k.entry);
        ds_at[k.entry] = k.ds;
    }
    tracker.add_kicks(entries, [&lattice, &table, sc, particles, settings, ds_at, bunch_charge,
                                macroparticles](std::int64_t entry, std::int64_t turn) {
        ReferenceParticle const& r = lattice.reference_after[std::size_t(entry)];
        double const ds = ds_at.at(entry);
        SpaceChargeDiagnostics const d =
            sc->kick(particles, settings, beam_frame(r, bunch_charge, macroparticles), ds);
        double const s = lattice.reference_begin.s + double(turn) * lattice.length +
                         lattice.info[std::size_t(entry)].s_end;
        table.append_row(space_charge_row(d, s, turn, entry, ds));
    });
    // A t-code row's s is where the entrance reference would be at the kick (s_begin + beta0 sigma,
    // inside the entry).
    std::vector<std::int64_t> const timed = time_code_space_charge_entries(lattice, sliced);
    if (timed.empty()) return stage;
    stage.time_code = std::make_unique<TimeCodeSpaceCharge>(
        lattice, kernels, *sc, settings, beam_frame(lattice.reference_begin, bunch_charge, macroparticles),
        particles);
    TimeCodeSpaceCharge* const time_code = stage.time_code.get();
    tracker.replace_entries(timed, [&lattice, &table, time_code](std::int64_t entry, std::int64_t turn) {
        ElementInfo const& info = lattice.info[std::size_t(entry)];
        double const beta0 = 1.0 / lattice.elements[std::size_t(entry)].time_code.inv_beta0;
        time_code->track(entry, turn, [&](TimeCodeKick const& k) {
            double const along = std::clamp(beta0 * k.sigma, 0.0, info.s_end - info.s_begin);
            double const s = lattice.reference_begin.s + double(turn) * lattice.length + info.s_begin + along;
            table.append_row(space_charge_row(k.diagnostics, s, turn, entry, k.ds));
        });
    });
    return stage;
}

//! What the tracking stage calls back into the run for.
struct TrackingHooks {
    std::function<void(OutputPoint const&)> at_point;  //!< record a point (statistics, snapshot)
    std::function<bool()> checkpoint_due;
    std::function<void()> write_checkpoint;
};

//! The tracking stage: every point recorded as it comes (the first too, unless resumed), checkpoints
//! when due, and a stop at the first safe point where any rank was asked to stop (false: stopped,
//! its checkpoint written and said). `alive` is the count the last statistics point found.
bool track_beamline(BeamTracker& tracker, Lattice const& lattice, Progress& progress, StopRequest& stop,
                    CheckpointEvery const& every, bool record_first, TrackingHooks const& hooks,
                    double const& alive, std::string const& path, std::string const& checkpoint_path)
{
    parallel::Communicator const& world = parallel::Communicator::world();
    bool const ring = tracker.turns() > 1;
    if (record_first) hooks.at_point(tracker.point());
    while (tracker.advance()) {
        hooks.at_point(tracker.point());
        OutputPoint const& p = tracker.point();
        progress.update(tracker.fraction_done(), 1.0,
                        fmt::format("turn {}/{}, element {}/{}, {:.0f} alive", p.turn + 1, tracker.turns(),
                                    p.entry + 1, lattice.elements.size(), alive));
        if (tracker.done()) break;
        // A safe point: everything due here is recorded. Rings count turns, single passes entries.
        bool stopping = stop.stop_here(ring ? tracker.turns_done() : tracker.entries_done_in_turn());
        if (world.size() > 1) stopping = !world.all(!stopping);
        bool due = !stopping && hooks.checkpoint_due();
        if (world.size() > 1 && every.seconds > 0) due = !world.all(!due);  // clocks differ between ranks
        if (due) {
            try {
                hooks.write_checkpoint();
            } catch (std::runtime_error const& e) {
                // One process goes on; the previous checkpoint is still whole. Under MPI the ranks might
                // disagree on where they are: the run ends (main reports it).
                if (world.size() > 1) throw;
                std::fprintf(stderr, "gtrack: warning: the checkpoint was not written: %s\n", e.what());
            }
        }
        if (stopping) {
            progress.finish();
            hooks.write_checkpoint();
            BeamTracker::Position const at = tracker.position();
            if (world.is_root())
                std::fprintf(
                    stderr,
                    "gtrack: stopped by %s after %lld of %lld turns and %lld of %zu entries of the next; "
                    "%s was not written. Checkpoint: %s. Resume with the same command and --resume %s "
                    "(exit status %d)\n",
                    stop.requested() ? stop.signal_name().c_str() : "a signal to another rank",
                    static_cast<long long>(at.turn), static_cast<long long>(tracker.turns()),
                    static_cast<long long>(at.entry), lattice.elements.size(), path.c_str(),
                    checkpoint_path.c_str(), checkpoint_path.c_str(), k_exit_stopped);
            return false;
        }
    }
    return true;
}

}  // namespace

int run_beamline(DeckConfig const& deck, RunOptions const& run_options)
{
    auto const wall_start = std::chrono::steady_clock::now();
    std::optional<TraceScope> phase(std::in_place, "setup");  // then "tracking", "output"
    cpu::set_thread_count(run_options.threads);  // inside set-up: the thread pool may start here
    // Under MPI every rank runs this function on its share of the particles (docs/cluster.md); rank 0
    // alone prints and holds the output file.
    parallel::Communicator const& world = parallel::Communicator::world();
    RunOptions options = run_options;
    options.quiet = options.quiet || !world.is_root();

    std::string const path = options.output.empty() ? deck.output.file : options.output;
    auto const macroparticles = static_cast<std::uint64_t>(deck.beam.macroparticles);
    // The checkpoint: the one to go on from (checked before anything is written), and where ours go.
    std::string const checkpoint_path = checkpoint_path_for(path);
    std::string const resume_path = options.resume == "auto" ? checkpoint_path : options.resume;
    CheckpointEvery const& every = deck.output.checkpoint_every;
    parallel::ParticleShare const share = parallel::my_particle_share(macroparticles);
    // What can fail on some ranks only (the output directory, a GPU) fails on all of them, said once.
    struct Setup {
        ReferenceParticle ref;
        Lattice lattice;
        std::vector<SpaceChargeKickPoint> kicks;
        std::unique_ptr<BeamKernels> kernels;
        std::unique_ptr<OutputFile> out;  // rank 0's; created before tracking, so a bad path fails early
        ParticleState state;
        DeckConfig sliced;
        std::unique_ptr<CollectivePlan> collective_plan;  // wakes, LSC, CSR (deck errors before tracking)
        CheckpointIdentity identity;
        std::optional<BeamCheckpoint> resumed;
    };
    // Before the output file, whose cleanup handler then offers us the first signal. Under several
    // ranks SIGUSR1 alone asks to stop (SIGTERM is a launcher ending the job), and every rank stops at
    // the first safe point where any of them was asked to (they agree there).
    std::optional<StopRequest> stop;
    stop.emplace(world.size() > 1);
    Setup setup = parallel::all_or_none([&] {
        if (deck.space_charge.enabled && world.size() > 1) check_space_charge_over_ranks(deck.space_charge);
        ReferenceParticle ref = initial_reference(deck);
        // With space charge, elements are cut so that kicks sit between their slices.
        DeckConfig const sliced = with_space_charge_slices(deck);
        Lattice lattice = build_lattice(sliced, ref);
        std::vector<SpaceChargeKickPoint> kicks = space_charge_schedule(lattice, sliced);
        std::unique_ptr<BeamKernels> kernels = select_beam_backend(deck, options);
        if (kernels->memory() == MemSpace::device)  // before any output or work
            check_device_memory(estimate_beamline_device_memory(deck));
        CheckpointIdentity identity =
            checkpoint_identity(deck, kernels->memory() == MemSpace::device ? "gpu" : "cpu");
        std::optional<BeamCheckpoint> resumed =
            checkpoint_to_resume(options.resume, checkpoint_path, options.quiet,
                                 [&](std::string const& p) { return read_beam_checkpoint(p, identity); });
        std::unique_ptr<OutputFile> out = world.is_root() ? std::make_unique<OutputFile>(path) : nullptr;
        // A resumed run goes on with the checkpoint's particles (one rank: all of them, lost ones too).
        ParticleState state = resumed ? ParticleState(resumed->particles, kernels->memory())
                                      : initial_beam(deck, *kernels, share);
        return Setup{ref,
                     std::move(lattice),
                     std::move(kicks),
                     std::move(kernels),
                     std::move(out),
                     std::move(state),
                     sliced,
                     nullptr,
                     std::move(identity),
                     std::move(resumed)};
    });
    // The plan refers to the lattice where it lives now; its deck errors are still agreed by all ranks.
    setup.collective_plan = parallel::all_or_none([&] {
        auto plan = std::make_unique<CollectivePlan>(setup.lattice, setup.sliced);
        if (!plan->empty() && world.size() > 1 && deck.collective.histogram != "deterministic")
            throw DeckError(
                deck.collective.where, "collective.histogram",
                fmt::format("\"{}\" sums doubles in an order that depends on the ranks: use "
                            "\"deterministic\" under mpirun (its fixed-point nodes are summed exactly)",
                            deck.collective.histogram));
        return plan;
    });
    CollectivePlan const& collective_plan = *setup.collective_plan;
    DeckConfig const& sliced = setup.sliced;
    ReferenceParticle const ref = setup.ref;
    Lattice const& lattice = setup.lattice;
    std::vector<SpaceChargeKickPoint> const& kicks = setup.kicks;
    std::unique_ptr<BeamKernels>& kernels = setup.kernels;
    OutputFile* const out = setup.out.get();
    ParticleState& state = setup.state;
    CheckpointIdentity const& identity = setup.identity;
    std::optional<BeamCheckpoint>& resumed = setup.resumed;
    bool const on_gpu = kernels->memory() == MemSpace::device;
    trace_log().set_device(kernels->description());
    kernels->set_cross_rank(parallel::world_cross_rank());
    Provenance prov = run_provenance(deck, options.command_line);
    prov.start_time = resumed ? resumed->start_time : iso8601_utc_now();

    kernels->set_elements(lattice.elements, *lattice.field_data);
    ParticleView const particles = state.view();
    std::string const species = "beam";

    if (!options.quiet)
        std::printf("gtrack run %s: %llu macroparticles, %s %.6g MeV, %zu entries x %lld turn%s, on %s%s\n",
                    deck.path.c_str(), static_cast<unsigned long long>(macroparticles),
                    deck.beam.species.name.c_str(), ref.kinetic_mev, lattice.elements.size(),
                    static_cast<long long>(deck.lattice.turns), deck.lattice.turns == 1 ? "" : "s",
                    kernels->description().c_str(),
                    world.size() > 1 ? (" x " + parallel::describe_world()).c_str() : "");

    if (out) write_openpmd_root(*out);
    Table stats(statistics_columns());
    BeamStatistics last;
    std::int64_t iteration = 0;
    Progress progress(!options.quiet);
    BeamTracker tracker(lattice, deck.output, deck.lattice.turns, *kernels, particles);

    // Space charge: the backend beside the beam's (same memory), a kick after each scheduled entry.
    Table sc_table(space_charge_columns());
    SpaceChargeStage const sc_stage =
        deck.space_charge.enabled
            ? add_space_charge_kicks(tracker, deck, sliced, lattice, kicks, *kernels, particles, sc_table)
            : SpaceChargeStage{};
    SpaceChargeKernels* const space_charge = sc_stage.kernels.get();
    // Collective effects: the backend beside the beam's, after the space-charge kicks at shared entries.
    std::unique_ptr<CollectiveKernels> collective_kernels;
    std::unique_ptr<CollectiveSolver> collective;
    Table collective_table(collective_columns());
    if (!collective_plan.empty()) {
        collective_kernels = on_gpu ? make_cuda_collective() : make_cpu_collective();
        collective_kernels->set_cross_rank(parallel::world_cross_rank());
        collective = std::make_unique<CollectiveSolver>(*collective_kernels);
        add_collective_kicks(tracker, collective_plan, *collective, particles, lattice, sliced,
                             &collective_table);
    }
    if (deck.output.checkpoint_every.steps > 0 && deck.lattice.turns == 1)
        tracker.stop_every(deck.output.checkpoint_every.steps);
    if (resumed) {
        stats = std::move(resumed->stats);
        if (space_charge) {
            sc_table = std::move(resumed->space_charge);
            if (resumed->solver) space_charge->restore_cache(*resumed->solver);
        }
        if (collective && resumed->collective) collective_table = std::move(*resumed->collective);
        iteration = resumed->snapshots;
        if (out) copy_checkpoint_snapshots(resume_path, iteration, *out);
        tracker.resume_at(resumed->position);
        if (!options.quiet)
            std::printf("gtrack: resuming from %s after %lld turns and %lld entries\n", resume_path.c_str(),
                        static_cast<long long>(resumed->position.turn),
                        static_cast<long long>(resumed->position.entry));
    }
    // Checkpoints: every N turns (rings) or entries (a single pass), or after a wall time.
    bool const ring = deck.lattice.turns > 1;
    auto last_checkpoint = std::chrono::steady_clock::now();
    auto const checkpoint_due = [&] {
        BeamTracker::Position const at = tracker.position();
        if (every.steps > 0)
            return ring ? at.entry == 0 && at.turn % every.steps == 0 : at.entry % every.steps == 0;
        return every.seconds > 0 &&
               std::chrono::duration<double>(std::chrono::steady_clock::now() - last_checkpoint).count() >=
                   every.seconds;
    };
    auto const write_checkpoint = [&] {
        BeamCheckpoint c;
        c.identity = identity;
        c.position = tracker.position();
        c.turns = deck.lattice.turns;
        c.snapshots = iteration;
        c.start_time = prov.start_time;
        c.particles = ParticleState(state, MemSpace::host);
        c.stats = stats;
        if (space_charge) {
            c.space_charge = sc_table;
            c.solver = space_charge->cache();
        }
        if (collective) c.collective = collective_table;
        write_beam_checkpoint(checkpoint_path, c, out);
        last_checkpoint = std::chrono::steady_clock::now();
    };

    double alive = double(macroparticles);
    auto const at_point = [&](OutputPoint const& p) {
        ReferenceParticle const r = reference_at(lattice, p);
        if (p.stats) {
            BeamStatistics s = derive_statistics(kernels->moments(particles), r);
            s.element = p.entry;
            s.turn = p.turn;
            auto const row = statistics_row(s);
            stats.append_row(row);
            last = s;
            alive = s.alive;
        }
        if (p.phase_space) {
            std::string const where = p.end ? std::string("end") : lattice.info[std::size_t(p.entry)].name;
            parallel::write_phase_space_in_rank_order(out, iteration++, species,
                                                      live_particles(*kernels, particles), r, where,
                                                      deck.beam.bunch_charge, macroparticles);
        }
    };
    phase.emplace("tracking");
    TrackingHooks const hooks{at_point, checkpoint_due, write_checkpoint};
    if (!track_beamline(tracker, lattice, progress, *stop, every, !resumed, hooks, alive, path,
                        checkpoint_path))
        return k_exit_stopped;
    progress.finish();
    phase.emplace("output");

    std::vector<KernelTimer const*> timers;
    if (space_charge) timers.push_back(&space_charge->timer());
    if (collective) timers.push_back(&collective->timer());
    BeamRunTables const tables{stats, space_charge ? &sc_table : nullptr,
                               collective ? &collective_table : nullptr};
    BeamRunTotals const totals = write_beamline_output(deck, options, *kernels, particles, lattice, tables,
                                                       timers, std::move(prov), out, checkpoint_path);
    double const wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    report_beamline(options, lattice, macroparticles, tables, totals, last, path, iteration, wall);
    return 0;
}

}  // namespace gt
