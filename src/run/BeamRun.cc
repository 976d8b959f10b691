// `gtrack run` for a beamline deck: set up, track between output points, write, summarize.
#include "run/BeamRun.hh"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "beam/BeamSetup.hh"
#include "beam/BeamStatistics.hh"
#include "beam/LatticeCompaction.hh"
#include "deck/DeckError.hh"
#include "io/BeamPhysicsReader.hh"
#include "io/H5Access.hh"
#include "io/OpenPmdWriter.hh"
#include "io/OutputFile.hh"
#include "io/Provenance.hh"
#include "io/TableWriter.hh"
#include "kernels/core/Device.hh"
#include "kernels/core/TraceScope.hh"
#include "kernels/cpu/Executor.hh"
#include "optics/PeriodicTwiss.hh"
#include "parallel/Agreement.hh"
#include "parallel/Communicator.hh"
#include "parallel/DeviceBinding.hh"
#include "parallel/OrderedWrites.hh"
#include "parallel/WorldCrossRank.hh"
#include "run/BeamCheckpoint.hh"
#include "run/BeamDetectorRun.hh"
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
#include "run/TurnsPerCall.hh"

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
    // The test hooks stop or kill a run at an exact turn: with one set, one turn per call.
    if (std::getenv(k_test_stop_variable) != nullptr || std::getenv(k_test_kill_variable) != nullptr)
        tracker.many_turns(1);
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

//! What the set-up stage makes; the collective plan refers to the lattice where it lives (held by pointer).
struct BeamlineSetup {
    ReferenceParticle ref;
    Lattice lattice;
    std::vector<SpaceChargeKickPoint> kicks;
    std::unique_ptr<BeamKernels> kernels;
    std::unique_ptr<OutputFile> out;  //!< rank 0's; created before tracking, so a bad path fails early
    ParticleState state;
    DeckConfig sliced;
    std::unique_ptr<CollectivePlan> collective_plan;  //!< wakes, LSC, CSR (deck errors before tracking)
    CheckpointIdentity identity;
    std::optional<BeamCheckpoint> resumed;
};

//! The set-up stage: the reference particle, the lattice (cut for space-charge kicks), the backend,
//! the checkpoint to go on from (checked before anything is written), the output file and the beam (a
//! resumed run's: the checkpoint's particles, lost ones too), the collective effects' plan. What can fail
//! on some ranks only (the output directory, a GPU) fails on all of them, said once.
std::unique_ptr<BeamlineSetup> set_up_beamline(DeckConfig const& deck, RunOptions const& options,
                                               std::string const& path, std::string const& checkpoint_path)
{
    parallel::Communicator const& world = parallel::Communicator::world();
    parallel::ParticleShare const share =
        parallel::my_particle_share(static_cast<std::uint64_t>(deck.beam.macroparticles));
    std::unique_ptr<BeamlineSetup> setup = parallel::all_or_none([&] {
        if (deck.space_charge.enabled && world.size() > 1) check_space_charge_over_ranks(deck.space_charge);
        auto s = std::make_unique<BeamlineSetup>();
        s->ref = initial_reference(deck);
        // With space charge, elements are cut so that kicks sit between their slices.
        s->sliced = with_space_charge_slices(deck);
        s->lattice = build_tracking_lattice(s->sliced, s->ref);
        s->kicks = space_charge_schedule(s->lattice, s->sliced);
        s->kernels = select_beam_backend(deck, options);
        if (s->kernels->memory() == MemSpace::device)  // before any output or work
            check_device_memory(estimate_beamline_device_memory(deck));
        s->identity = checkpoint_identity(deck, s->kernels->memory() == MemSpace::device ? "gpu" : "cpu");
        s->resumed =
            checkpoint_to_resume(options.resume, checkpoint_path, options.quiet,
                                 [&](std::string const& p) { return read_beam_checkpoint(p, s->identity); });
        s->out = world.is_root() ? std::make_unique<OutputFile>(path) : nullptr;
        s->state = s->resumed ? ParticleState(s->resumed->particles, s->kernels->memory())
                              : initial_beam(deck, *s->kernels, share);
        return s;
    });
    // Its deck errors are agreed by all ranks too.
    setup->collective_plan = parallel::all_or_none([&] {
        auto plan = std::make_unique<CollectivePlan>(setup->lattice, setup->sliced);
        if (!plan->empty() && world.size() > 1 && deck.collective.histogram != "deterministic")
            throw DeckError(
                deck.collective.where, "collective.histogram",
                fmt::format("\"{}\" sums doubles in an order that depends on the ranks: use "
                            "\"deterministic\" under mpirun (its fixed-point nodes are summed exactly)",
                            deck.collective.histogram));
        return plan;
    });
    trace_log().set_device(setup->kernels->description());
    setup->kernels->set_cross_rank(parallel::world_cross_rank());
    setup->kernels->set_elements(setup->lattice.elements, *setup->lattice.field_data);
    return setup;
}

//! The tracking stage's state: the tracker with its kicks (space charge, collective effects), the
//! tables it fills, and what it does at each output point and checkpoint.
class BeamlineTracking {
  public:
    BeamlineTracking(DeckConfig const& deck, BeamlineSetup& setup, Provenance const& prov,
                     std::string const& checkpoint_path)
        : deck_(deck),
          setup_(setup),
          prov_(prov),
          checkpoint_path_(checkpoint_path),
          particles_(setup.state.view()),
          alive_(double(deck.beam.macroparticles)),
          tracker_(setup.lattice, deck.output, deck.lattice.turns, *setup.kernels, particles_)
    {
        mark_space_charge_timings(sc_table_);  // wall-clock columns: measurements of the run, not physics
        mark_collective_timings(collective_table_);
        // Space charge: the backend beside the beam's (same memory), a kick after each scheduled entry.
        if (deck.space_charge.enabled)
            sc_stage_ = add_space_charge_kicks(tracker_, deck, setup.sliced, setup.lattice, setup.kicks,
                                               *setup.kernels, particles_, sc_table_);
        // Collective effects: the backend beside the beam's, after the space-charge kicks at shared entries.
        if (!setup.collective_plan->empty()) {
            collective_kernels_ =
                setup.kernels->memory() == MemSpace::device ? make_cuda_collective() : make_cpu_collective();
            collective_kernels_->set_cross_rank(parallel::world_cross_rank());
            collective_ = std::make_unique<CollectiveSolver>(*collective_kernels_);
            add_collective_kicks(tracker_, *setup.collective_plan, *collective_, particles_, setup.lattice,
                                 setup.sliced, &collective_table_);
        }
        if (deck.output.checkpoint_every.steps > 0 && deck.lattice.turns == 1)
            tracker_.stop_every(deck.output.checkpoint_every.steps);
        // The many-turn executor, where nothing is due between turns ([lattice] turns_per_call). The whole
        // beam's count, not this rank's share: every rank makes the same calls (MPI agreements).
        double const pushes = double(deck.beam.macroparticles) * double(setup.lattice.elements.size());
        tracker_.many_turns(turns_per_call(deck.lattice.turns_per_call, pushes,
                                           setup.kernels->memory() == MemSpace::device),
                            deck.lattice.turns > 1 ? deck.output.checkpoint_every.steps : 0);
    }

    //! A resumed run's tables and position from its checkpoint (its snapshots copied into `out`).
    void resume(std::string const& resume_path, OutputFile* out, bool quiet)
    {
        BeamCheckpoint& resumed = *setup_.resumed;
        stats_ = std::move(resumed.stats);
        if (SpaceChargeKernels* const sc = sc_stage_.kernels.get()) {
            sc_table_ = std::move(resumed.space_charge);
            if (resumed.solver) sc->restore_cache(*resumed.solver);
        }
        if (collective_ && resumed.collective) collective_table_ = std::move(*resumed.collective);
        // A checkpoint written before the marks existed: its tables' timings are marked here.
        mark_space_charge_timings(sc_table_);
        mark_collective_timings(collective_table_);
        snapshots_ = resumed.snapshots;
        if (out) copy_checkpoint_snapshots(resume_path, snapshots_, *out);
        tracker_.resume_at(resumed.position);
        if (!quiet)
            std::printf("gtrack: resuming from %s after %lld turns and %lld entries\n", resume_path.c_str(),
                        static_cast<long long>(resumed.position.turn),
                        static_cast<long long>(resumed.position.entry));
    }

    //! Records a point: its statistics row, its phase-space snapshot.
    void at_point(OutputPoint const& p)
    {
        Lattice const& lattice = setup_.lattice;
        ReferenceParticle const r = reference_at(lattice, p);
        if (p.stats) {
            BeamStatistics s = derive_statistics(setup_.kernels->moments(particles_), r);
            s.element = p.entry;
            s.turn = p.turn;
            auto const row = statistics_row(s);
            stats_.append_row(row);
            last_ = s;
            alive_ = s.alive;
        }
        if (p.phase_space) {
            TraceScope const writing("phase-space snapshot");  // inside its phase: the trace shows its share
            std::string const where = p.end ? std::string("end") : lattice.info[std::size_t(p.entry)].name;
            parallel::write_phase_space_in_rank_order(
                setup_.out.get(), snapshots_++, "beam", live_particles(*setup_.kernels, particles_), r, where,
                deck_.beam.bunch_charge, static_cast<std::uint64_t>(deck_.beam.macroparticles));
        }
    }

    //! Checkpoints: every N turns (rings) or entries (a single pass), or after a wall time.
    bool checkpoint_due() const
    {
        CheckpointEvery const& every = deck_.output.checkpoint_every;
        BeamTracker::Position const at = tracker_.position();
        if (every.steps > 0)
            return deck_.lattice.turns > 1 ? at.entry == 0 && at.turn % every.steps == 0
                                           : at.entry % every.steps == 0;
        return every.seconds > 0 &&
               std::chrono::duration<double>(std::chrono::steady_clock::now() - last_checkpoint_).count() >=
                   every.seconds;
    }

    void write_checkpoint()
    {
        BeamCheckpoint c;
        c.identity = setup_.identity;
        c.position = tracker_.position();
        c.turns = deck_.lattice.turns;
        c.snapshots = snapshots_;
        c.start_time = prov_.start_time;
        c.particles = ParticleState(setup_.state, MemSpace::host);
        c.stats = stats_;
        if (SpaceChargeKernels* const sc = sc_stage_.kernels.get()) {
            c.space_charge = sc_table_;
            c.solver = sc->cache();
        }
        if (collective_) c.collective = collective_table_;
        write_beam_checkpoint(checkpoint_path_, c, setup_.out.get());
        last_checkpoint_ = std::chrono::steady_clock::now();
    }

    TrackingHooks hooks()
    {
        return TrackingHooks{[this](OutputPoint const& p) { at_point(p); },
                             [this] { return checkpoint_due(); }, [this] { write_checkpoint(); }};
    }

    BeamTracker& tracker() { return tracker_; }
    double const& alive() const { return alive_; }
    BeamStatistics const& last() const { return last_; }
    std::int64_t snapshots() const { return snapshots_; }
    ParticleView particles() const { return particles_; }
    BeamRunTables tables() const
    {
        return BeamRunTables{stats_, sc_stage_.kernels ? &sc_table_ : nullptr,
                             collective_ ? &collective_table_ : nullptr};
    }
    //! The other backends' kernel timers (space charge, collective effects).
    std::vector<KernelTimer const*> timers() const
    {
        std::vector<KernelTimer const*> t;
        if (sc_stage_.kernels) t.push_back(&sc_stage_.kernels->timer());
        if (collective_) t.push_back(&collective_->timer());
        return t;
    }

  private:
    DeckConfig const& deck_;
    BeamlineSetup& setup_;
    Provenance const& prov_;
    std::string checkpoint_path_;
    ParticleView particles_;
    Table stats_{statistics_columns()};
    Table sc_table_{space_charge_columns()};
    Table collective_table_{collective_columns()};
    BeamStatistics last_;
    double alive_;
    std::int64_t snapshots_ = 0;
    std::chrono::steady_clock::time_point last_checkpoint_ = std::chrono::steady_clock::now();
    BeamTracker tracker_;
    SpaceChargeStage sc_stage_;
    std::unique_ptr<CollectiveKernels> collective_kernels_;
    std::unique_ptr<CollectiveSolver> collective_;
};

}  // namespace

int run_beamline(DeckConfig const& deck, RunOptions const& run_options)
{
    // A detector beside the lattice: the joined run, whose beam part is this function with a stage added.
    if (deck.detector.along_beamline && !run_options.before_commit)
        return run_beam_detector(deck, run_options);
    auto const wall_start = std::chrono::steady_clock::now();
    std::optional<TraceScope> phase(std::in_place, "setup");  // then "tracking", "output"
    h5::set_output_checksums(deck.output.checksums);
    cpu::set_thread_count(run_options.threads);  // inside set-up: the thread pool may start here
    // Under MPI every rank runs this function on its share of the particles (docs/cluster.md); rank 0
    // alone prints and holds the output file.
    parallel::Communicator const& world = parallel::Communicator::world();
    RunOptions options = run_options;
    options.quiet = options.quiet || !world.is_root();
    std::string const path = options.output.empty() ? deck.output.file : options.output;
    auto const macroparticles = static_cast<std::uint64_t>(deck.beam.macroparticles);
    // The checkpoint: the one to go on from, and where ours go.
    std::string const checkpoint_path = checkpoint_path_for(path);
    std::string const resume_path = options.resume == "auto" ? checkpoint_path : options.resume;
    // Before the output file, whose cleanup handler then offers us the first signal. Under several ranks
    // SIGUSR1 alone asks to stop (SIGTERM is a launcher ending the job), and every rank stops at the
    // first safe point where any of them was asked to (they agree there).
    std::optional<StopRequest> stop;
    stop.emplace(world.size() > 1);
    std::unique_ptr<BeamlineSetup> const setup = set_up_beamline(deck, options, path, checkpoint_path);
    Lattice const& lattice = setup->lattice;
    BeamKernels& kernels = *setup->kernels;
    OutputFile* const out = setup->out.get();
    Provenance prov = run_provenance(deck, options.command_line);
    prov.start_time = setup->resumed ? setup->resumed->start_time : iso8601_utc_now();
    if (!options.quiet)
        std::printf("gtrack run %s: %llu macroparticles, %s %.6g MeV, %zu entries x %lld turn%s, on %s%s\n",
                    deck.path.c_str(), static_cast<unsigned long long>(macroparticles),
                    deck.beam.species.name.c_str(), setup->ref.kinetic_mev, lattice.elements.size(),
                    static_cast<long long>(deck.lattice.turns), deck.lattice.turns == 1 ? "" : "s",
                    kernels.description().c_str(),
                    world.size() > 1 ? (" x " + parallel::describe_world()).c_str() : "");
    if (out) write_openpmd_root(*out);

    BeamlineTracking tracking(deck, *setup, prov, checkpoint_path);
    if (setup->resumed) tracking.resume(resume_path, out, options.quiet);
    phase.emplace("tracking");
    Progress progress(!options.quiet);
    if (!track_beamline(tracking.tracker(), lattice, progress, *stop, deck.output.checkpoint_every,
                        !setup->resumed, tracking.hooks(), tracking.alive(), path, checkpoint_path))
        return k_exit_stopped;
    progress.finish();

    phase.emplace("output");
    BeamRunTables const tables = tracking.tables();
    BeamRunTotals const totals = write_beamline_output(deck, options, kernels, tracking.particles(), lattice,
                                                       tables, tracking.timers(), std::move(prov), out);
    if (options.before_commit) {
        stop.reset();  // one StopRequest at a time: the stage may hold its own
        if (int const status =
                options.before_commit(BeamRunEnd{deck, lattice, kernels, tracking.particles(), out, path}))
            return status;
    }
    commit_beamline_output(out, checkpoint_path);
    double const wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    report_beamline(options, lattice, macroparticles, tables, totals, tracking.last(), path,
                    tracking.snapshots(), wall);
    return 0;
}

}  // namespace gt
