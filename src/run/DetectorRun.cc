// Running a detector deck: tables -> backend -> step iterations until every primary has ended ->
// sorted hits, tallies and provenance in one HDF5 file.
#include "run/DetectorRun.hh"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include "kernels/core/TraceScope.hh"
#include "run/RunProfile.hh"

#include <fmt/format.h>

#include "deck/DeckError.hh"
#include "detector/DetectorSetup.hh"
#include "detector/HepMcEvents.hh"
#include "detector/HitTable.hh"
#include "detector/StripRun.hh"
#include "detector/gdml/GdmlSummary.hh"
#include "io/H5Access.hh"
#include "io/H5Handle.hh"
#include "io/Measurement.hh"
#include "io/OutputFile.hh"
#include "io/Provenance.hh"
#include "io/TableWriter.hh"
#include "kernels/core/Device.hh"
#include "kernels/cpu/Executor.hh"
#include "kernels/detector/DetectorKernels.hh"
#include "parallel/Agreement.hh"
#include "parallel/Communicator.hh"
#include "parallel/DeviceBinding.hh"
#include "parallel/OrderedWrites.hh"
#include "parallel/ParticleDecomposition.hh"
#include "run/CheckpointHeader.hh"
#include "run/CheckpointToResume.hh"
#include "run/DetectorCheckpoint.hh"
#include "run/EventFileRun.hh"
#include "run/Progress.hh"
#include "run/RunProvenance.hh"
#include "run/ShowerOutput.hh"
#include "run/StopRequest.hh"
#include "run/StripRanks.hh"

namespace gt {

namespace {

std::unique_ptr<DetectorKernels> make_backend(DeckConfig const& cfg, DetectorRunOptions const& options)
{
    std::string choice = options.backend;
    if (choice.empty())
        choice = cfg.run.backend == BackendChoice::cpu
                     ? "cpu"
                     : (cfg.run.backend == BackendChoice::gpu ? "gpu" : "auto");
    if (choice == "auto") choice = device::count() > 0 ? "gpu" : "cpu";
    if (choice == "gpu") return make_cuda_detector_kernels();
    if (choice != "cpu")
        throw std::invalid_argument("unknown backend '" + choice + "' (expected cpu, gpu or auto)");
    // showers keep the slot walk: their secondaries wait in the GPU's stack and schedule
    if (cfg.detector.cpu_loop == "tracks" && !cfg.detector.physics.showers) return make_cpu_track_loop();
    return make_cpu_detector_kernels();
}

//! Rank 0's part of write_detector_part: tallies and figures, the same on every rank.
void write_detector_figures(OutputFile& out, DeckConfig const& cfg, DetectorRunResult const& r)
{
    Table tallies;
    std::vector<std::int64_t> ids(r.tallies.size());
    for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<std::int64_t>(i);
    tallies.add_column("volume", "1", std::move(ids));
    tallies.add_column("edep", "MeV", r.tallies);
    write_table(out, "tallies", tallies);
    out.set_attribute("tallies", "volume_names", std::span<std::string const>(r.volume_names));
    out.create_group("detector");
    out.set_attribute("detector", "primaries", cfg.detector.gun.total_primaries());
    out.set_attribute("detector", "events", cfg.detector.gun.events);
    out.set_attribute("detector", "escaped", r.counters[k_escaped]);
    out.set_attribute("detector", "stopped", r.counters[k_stopped]);
    out.set_attribute("detector", "looping", r.counters[k_looping]);
    out.set_attribute("detector", "steps", r.counters[k_steps]);
    out.set_attribute("detector", "substeps", r.counters[k_substeps]);
    out.set_attribute("detector", "hits", r.total_hits);
    out.set_attribute("detector", "iterations", r.iterations);
    out.mark_measured_attribute("detector", "iterations", measurement::schedule);  // slot-walk passes
    if (cfg.detector.physics.showers) write_energy_balance(out, r);
    out.set_attribute("detector", "backend", r.backend);
    if (r.profile) write_profile(out, *r.profile);
}

}  // namespace

void write_detector_part(OutputFile* file, DeckConfig const& cfg, DetectorRunResult const& r)
{
    parallel::Communicator const& world = parallel::Communicator::world();
    if (cfg.detector.write_hits) {
        Table const hits = hits_table(r.hits);
        // Each rank's events follow the previous rank's, so its sorted hits follow too: one sorted table.
        parallel::write_table_in_rank_order(file, "hits", hits);
        if (file) file->set_attribute("hits", "volume_names", std::span<std::string const>(r.volume_names));
    }
    // Every rank has handed over its hits; the rest is the same on every rank: rank 0 writes it.
    world.barrier();
    if (file) write_detector_figures(*file, cfg, r);
    // [strips]: each rank's stations' tables, joined (run/StripRanks.hh)
    if (r.strips) write_strip_tables_over_ranks(file, *r.strips);
}

namespace {

//! Writes the run's own output file: the detector part, then provenance, then the commit. Under MPI every
//! rank calls it: `r` holds this rank's hits and the totals of all ranks; rank 0 writes each rank's hits
//! in turn (parallel/OrderedWrites.hh) and the rest.
void write_output(std::string const& path, DeckConfig const& cfg, DetectorRunOptions const& options,
                  DetectorRunResult const& r, std::string const& start_time)
{
    parallel::Communicator const& world = parallel::Communicator::world();
    std::unique_ptr<OutputFile> file = parallel::all_or_none(
        [&] { return world.is_root() ? std::make_unique<OutputFile>(path) : std::unique_ptr<OutputFile>(); });
    std::vector<std::string> const rank_devices =
        world.gather_to_root(parallel::describe_rank_device(r.backend.rfind("gpu", 0) == 0, r.backend));
    write_detector_part(file.get(), cfg, r);
    if (!file) return;
    if (options.event_file) write_event_file_part(*file, *options.event_file);
    Provenance p = run_provenance(cfg, options.command_line);
    p.backend = r.backend.rfind("gpu", 0) == 0 ? "gpu" : "cpu";
    p.device_name = r.backend;
    p.start_time = start_time;
    p.end_time = iso8601_utc_now();
    p.ranks = world.size();
    p.rank_devices = rank_devices;
    write_provenance(*file, p);
    file->commit();
}

//! [strips]: digitize and reconstruct the run's hits on its backend; under MPI each rank takes a share of
//! the strip volumes (run/StripRanks.hh).
std::shared_ptr<StripOutcome> strip_stage(DeckConfig const& cfg, GeometryTables const& geometry,
                                          DetectorRunResult const& r)
{
    TraceScope const phase("strips");
    return run_strip_stage_over_ranks(cfg, geometry, r.hits, r.backend.rfind("gpu", 0) == 0);
}

}  // namespace

namespace {

//! What the set-up stage makes: the tables, the backend holding them, and the checkpoint gone on from.
struct DetectorStage {
    DetectorSetup setup;
    std::unique_ptr<DetectorKernels> kernels;
    CheckpointIdentity identity;
    std::optional<DetectorCheckpoint> resumed;
    std::uint64_t first_event = 0;  //!< of this rank's share
};

//! The set-up stage (agreed by every rank: what fails on one fails on all): tables, backend, this rank's
//! share of the events, given primaries, and the loop's state from a checkpoint when resuming.
DetectorStage set_up_detector(DeckConfig const& cfg, DetectorRunOptions const& options,
                              std::string const& checkpoint_path)
{
    parallel::Communicator const& world = parallel::Communicator::world();
    std::uint64_t const per_event = cfg.detector.gun.per_event;
    return parallel::all_or_none([&] {
        DetectorSetup setup = make_detector_setup(cfg);
        auto kernels = make_backend(cfg, options);
        CheckpointIdentity identity =
            checkpoint_identity(cfg, kernels->memory() == MemSpace::device ? "gpu" : "cpu");
        // an event file's primaries are part of what the run is: another file (or a changed one) is another
        // run
        if (options.event_file)
            identity.deck_fingerprint =
                event_file_fingerprint(identity.deck_fingerprint, *options.event_file);
        std::optional<DetectorCheckpoint> resumed =
            checkpoint_to_resume(options.resume, checkpoint_path, options.quiet,
                                 [&](std::string const& p) { return read_detector_checkpoint(p, identity); });
        parallel::ParticleShare const events =
            parallel::even_share(cfg.detector.gun.events, world.rank(), world.size());
        // the first primary of event e: a fixed number an event, or an event file's own counts
        auto const start_of = [&](std::uint64_t e) {
            return options.event_starts ? options.event_starts->at(e) : e * per_event;
        };
        setup.tables.gun.first_primary = start_of(events.first);
        setup.tables.gun.primaries = start_of(events.first + events.count);
        if (options.event_starts) setup.tables.end_event = events.first + events.count;
        if (options.primaries) {
            if (options.primaries->size() != setup.tables.gun.primaries - setup.tables.gun.first_primary)
                throw std::logic_error(fmt::format("{} given primaries for a share of {} events",
                                                   options.primaries->size(), events.count));
            setup.tables.primary_list = *options.primaries;
            if (options.primary_species) {  // species names -> the particle table's indices
                std::vector<std::int32_t> index;
                for (auto const& name : *options.primary_species) {
                    index.push_back(find_particle_index(setup.tables, name));
                    if (index.back() < 0) throw std::logic_error("no particle '" + name + "' in the table");
                }
                for (Primary& p : setup.tables.primary_list) p.particle = index.at(std::size_t(p.particle));
            }
        }
        setup.tables.track_lengths = options.track_lengths;
        std::size_t const slots = cfg.detector.track_slots;
        kernels->setup(setup.tables, slots, 4 * slots);
        // The loop goes on where the checkpoint left it: this rank's slots, hits, sums and next primary.
        if (resumed) {
            try {
                if (resumed->events != cfg.detector.gun.events)
                    throw std::runtime_error(fmt::format("it holds {} events, the deck {}", resumed->events,
                                                         cfg.detector.gun.events));
                kernels->restore_state(resumed->loop);
            } catch (std::runtime_error const& e) {
                std::string const from = options.resume == "auto" ? checkpoint_path : options.resume;
                throw std::runtime_error(fmt::format("cannot resume from '{}': {}", from, e.what()));
            }
        }
        return DetectorStage{std::move(setup), std::move(kernels), std::move(identity), std::move(resumed),
                             events.first};
    });
}

//! The stepping stage: step iterations until every primary of every rank has ended, or until a signal
//! stops the run at a safe point (r.stopped_by and the figures of where). A safe point is between two
//! step iterations. A checkpoint there holds the loop's whole state, so that the run goes on exactly as
//! it would have: the same schedule, the same bits. Under MPI the ranks agree at each one whether to
//! checkpoint or stop; a rank whose events are done takes part until every rank's are, and the
//! iterations counted are the most any rank ran.
void step_detector(DetectorStage const& stage, DeckConfig const& cfg, StopRequest* stop, bool quiet,
                   std::string const& checkpoint_path, std::string const& start_time,
                   std::vector<std::uint64_t> const* event_starts, DetectorRunResult& r)
{
    parallel::Communicator const& world = parallel::Communicator::world();
    bool const several = world.size() > 1;
    DetectorKernels* const kernels = stage.kernels.get();
    CheckpointEvery const& every = cfg.output.checkpoint_every;
    // Progress in units of `per_event`: primaries started (events x per_event); with an event file's own
    // counts, this rank's events whose primaries have all started
    std::vector<std::uint64_t> const* const starts = event_starts;
    std::uint64_t const per_event = starts ? 1 : cfg.detector.gun.per_event;
    auto const started = [&]() -> std::uint64_t {
        if (!starts) return kernels->primaries_started();
        std::uint64_t const next = stage.setup.tables.gun.first_primary + kernels->primaries_started();
        auto const after = std::upper_bound(starts->begin(), starts->end(), next) - starts->begin();
        return after > std::ptrdiff_t(stage.first_event + 1) ? std::uint64_t(after) - 1 - stage.first_event
                                                             : 0;
    };
    std::uint64_t const primaries = stage.setup.tables.gun.primaries - stage.setup.tables.gun.first_primary;
    Progress progress(!quiet);
    auto const t0 = std::chrono::steady_clock::now();
    std::uint64_t iterations = stage.resumed ? stage.resumed->iterations : 0;
    std::uint64_t const per_checkpoint = stop && every.steps > 0 ? std::uint64_t(every.steps) * per_event : 0;
    std::uint64_t checkpoints_passed = per_checkpoint > 0 ? world.sum(started()) / per_checkpoint : 0;
    auto last_checkpoint = std::chrono::steady_clock::now();
    auto const time_due = [&] {
        return stop && every.seconds > 0 &&
               std::chrono::duration<double>(std::chrono::steady_clock::now() - last_checkpoint).count() >=
                   every.seconds;
    };
    // A backend whose iteration runs long (the CPU track loop) also stops, or checkpoints by wall time,
    // inside one, between its tracks; not under MPI, whose ranks agree only between iterations.
    if (stop && !several)
        kernels->set_stop_poll(
            [&](std::uint64_t tracked) { return stop->stop_within(std::int64_t(tracked)) || time_due(); });
    // Several iterations a call where nothing needs them one by one (a GPU backend then reads its
    // counts once per batch): not under MPI, whose ranks agree after each, nor with checkpoints
    // every N events, which follow the iteration their N-th event starts in.
    std::uint64_t const most = several || per_checkpoint > 0 ? 1 : std::uint64_t(-1);
    bool done = false;
    for (;;) {
        bool ran = false;
        IterationResult it;
        if (!done) {
            it = kernels->iterate(most);
            done = it.finished;
            ran = !it.finished;
            if (ran && !it.interrupted && (iterations + it.iterations) / 64 > iterations / 64)
                progress.update(static_cast<double>(kernels->primaries_started()),
                                static_cast<double>(primaries), fmt::format("{} tracks in flight", it.alive));
        }
        if (!several && !ran) break;
        // an interrupted iteration is not over: the hooks of stop_here count whole ones
        bool const asked =
            stop &&
            (it.interrupted ? stop->requested()
                            : stop->stop_here(std::int64_t(iterations + (several ? 1 : it.iterations))));
        // ran, asked to stop, a wall-time checkpoint due (clocks differ between ranks), primaries started
        std::array<std::int64_t, 4> agreed = {ran, asked, time_due(), std::int64_t(started())};
        if (several) world.sum_in_place(agreed);
        if (agreed[0] == 0) break;  // every rank is done
        // under MPI one iteration a pass, run by at least one rank
        if (!it.interrupted) iterations += several ? 1 : it.iterations;
        bool const stopping = agreed[1] > 0;
        // every N events: after the iteration in which the primaries of the N-th, 2N-th, ... event started
        std::uint64_t const passed = per_checkpoint > 0 ? std::uint64_t(agreed[3]) / per_checkpoint : 0;
        bool const due = stopping || agreed[2] > 0 || passed > checkpoints_passed || it.interrupted;
        checkpoints_passed = passed;
        if (!due) continue;
        TraceScope const phase("checkpoint");
        try {
            write_detector_checkpoint(checkpoint_path,
                                      DetectorCheckpoint{stage.identity, start_time, cfg.detector.gun.events,
                                                         iterations, kernels->save_state()});
            r.checkpoint = checkpoint_path;
        } catch (std::runtime_error const& e) {
            // One process goes on; the previous checkpoint is still whole. Under MPI the ranks might
            // disagree on where they are: the run ends (main reports it).
            if (stopping || several) throw;
            std::fprintf(stderr, "gtrack: warning: the checkpoint was not written: %s\n", e.what());
        }
        last_checkpoint = std::chrono::steady_clock::now();
        if (stopping) {
            r.stopped_by = stop->requested() ? stop->signal_name() : "a signal to another rank";
            r.events_started = std::uint64_t(agreed[3]) / per_event;
            if (it.interrupted) {
                r.next_iteration_tracks = it.started;
                r.next_iteration_tracked = it.tracked;
            }
            break;
        }
    }
    kernels->set_stop_poll({});  // it refers to this function's locals
    r.iterations = iterations;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    progress.finish();
}

//! The results stage: the backend holds the whole run's results, those of the runs before a checkpoint
//! included. Hits cross to the host only when they are written (or compared: validate writes nothing).
//! Tallies and counters are integers: their sums over ranks are exact, the same for any rank count.
void collect_detector_results(DetectorStage const& stage, DeckConfig const& cfg,
                              DetectorRunOptions const& options, DetectorRunResult& r)
{
    DetectorKernels* const kernels = stage.kernels.get();
    // [strips] digitizes the hits (steps) whether /hits is written or not.
    bool const hits_needed = cfg.detector.write_hits || !options.write_output || cfg.detector.strips.enabled;
    if (hits_needed) r.hits = kernels->sorted_hits();
    std::vector<std::uint64_t> tally_counts = kernels->tally_counts();
    std::vector<std::int64_t> sums(tally_counts.begin(), tally_counts.end());
    r.counters = kernels->counters();
    sums.insert(sums.end(), r.counters.begin(), r.counters.end());
    sums.push_back(static_cast<std::int64_t>(hits_needed ? r.hits.size() : r.counters[k_hit_count]));
    parallel::Communicator::world().sum_in_place(sums);
    for (std::size_t i = 0; i < tally_counts.size(); ++i) tally_counts[i] = std::uint64_t(sums[i]);
    r.tallies = tallies_in_mev(tally_counts);
    for (std::size_t i = 0; i < r.counters.size(); ++i)
        r.counters[i] = std::uint64_t(sums[tally_counts.size() + i]);
    r.total_hits = std::uint64_t(sums.back());
    r.timer = kernels->timer();
    if (options.profile) {
        DetectorWork const counted = work_of(r);
        r.profile = profile_of_run(cfg, r.timer.records(), r.backend.rfind("gpu", 0) == 0,
                                   options.calibration, &counted);
    }
    if (r.profile) {
        r.profile->counts["track_steps"] = double(r.counters[k_steps]);
        r.profile->counts["substeps"] = double(r.counters[k_substeps]);
    }
    r.hit_buffer_growths = kernels->hit_buffer_growths();
    r.event_energy = kernels->event_energy();
    r.event_track_length = kernels->event_track_length();
    // Each event ran on one rank; the others hold 0 for it (the backend counts events up to its last):
    // the maximum over ranks is every event's balance on every rank, exactly.
    if (cfg.detector.physics.showers && parallel::Communicator::world().size() > 1) {
        r.event_energy.resize(cfg.detector.gun.events * k_num_energy_categories, 0.0);
        parallel::Communicator::world().max_in_place(r.event_energy);
    }
    // A figure of the schedule (each rank's stack its own): under MPI the largest of any rank, as the
    // iterations are (docs/cluster.md).
    double peak = double(kernels->secondary_stack_peak());
    parallel::Communicator::world().max_in_place(std::span<double>(&peak, 1));
    r.secondary_stack_peak = std::uint64_t(peak);
    if (cfg.detector.strips.enabled) r.strips = strip_stage(cfg, stage.setup.geometry, r);
}

}  // namespace

DetectorRunResult run_detector_deck(DeckConfig const& cfg, DetectorRunOptions const& options)
{
    // [gun] file: the events are read, then run as given primaries (run/EventFileRun.hh)
    if (!cfg.detector.gun.file.empty() && !options.primaries) return run_event_file(cfg, options);
    h5::set_output_checksums(cfg.output.checksums);
    if (options.threads > 0) cpu::set_thread_count(options.threads);
    // Under MPI each rank runs a contiguous share of the events: every primary keeps its id, hence
    // its random streams, whichever rank runs it (docs/cluster.md).
    parallel::Communicator const& world = parallel::Communicator::world();
    std::string const path = options.output.empty() ? cfg.output.file : options.output;
    std::string const checkpoint_path =
        options.checkpoint.empty() ? checkpoint_path_for(path) : options.checkpoint;
    // Only a run that writes its output checkpoints and stops at signals (validate's runs end as
    // signals say); a signal during the set-up stops it at the first safe point. Under several ranks
    // SIGUSR1 alone asks to stop (SIGTERM is a launcher ending the job), and every rank stops at the
    // first safe point where any of them was asked to.
    std::optional<StopRequest> stop;
    if (options.write_output) stop.emplace(world.size() > 1);
    DetectorStage const stage = set_up_detector(cfg, options, checkpoint_path);
    std::string const start_time = stage.resumed ? stage.resumed->start_time : iso8601_utc_now();
    DetectorRunResult r;
    r.backend = stage.kernels->description();
    trace_log().set_device(r.backend);
    r.volume_names = stage.setup.geometry.logical_names;
    if (stage.resumed && !options.quiet)
        std::printf("gtrack: resuming from %s after %llu step iterations\n",
                    (options.resume == "auto" ? checkpoint_path : options.resume).c_str(),
                    static_cast<unsigned long long>(stage.resumed->iterations));
    step_detector(stage, cfg, stop ? &*stop : nullptr, options.quiet, checkpoint_path, start_time,
                  options.event_starts, r);
    if (!r.stopped_by.empty()) return r;
    collect_detector_results(stage, cfg, options, r);
    if (options.write_output) {
        TraceScope const phase("output");
        if (options.joined)
            write_detector_part(options.into, cfg, r);
        else
            write_output(path, cfg, options, r, start_time);
        // The output is complete: the run's checkpoint would only resume what is done.
        std::error_code ignored;
        if (world.is_root()) std::filesystem::remove(checkpoint_path, ignored);
    }
    return r;
}

void print_detector_summary(DeckConfig const& cfg, DetectorRunResult const& r)
{
    std::uint64_t const primaries =
        r.event_file ? r.event_file->primaries.size() : cfg.detector.gun.total_primaries();
    if (r.event_file) print_event_file_summary(*r.event_file);
    std::printf("%s: %llu primaries on %s, %llu step iterations in %.3f s\n", cfg.run.name.c_str(),
                static_cast<unsigned long long>(primaries), r.backend.c_str(),
                static_cast<unsigned long long>(r.iterations), r.seconds);
    std::printf("  steps %llu (%.3g track-steps/s), substeps %llu, hits %zu\n",
                static_cast<unsigned long long>(r.counters[k_steps]),
                r.seconds > 0 ? static_cast<double>(r.counters[k_steps]) / r.seconds : 0.0,
                static_cast<unsigned long long>(r.counters[k_substeps]),
                static_cast<std::size_t>(r.total_hits));
    std::printf("  ended: %llu escaped, %llu stopped, %llu looping (step limit)\n",
                static_cast<unsigned long long>(r.counters[k_escaped]),
                static_cast<unsigned long long>(r.counters[k_stopped]),
                static_cast<unsigned long long>(r.counters[k_looping]));
    if (cfg.detector.physics.showers) print_shower_summary(r);
    if (r.strips) std::printf("%s", format_strip_summary(*r.strips).c_str());
    for (std::size_t v = 0; v < r.tallies.size(); ++v)
        if (r.tallies[v] > 0) std::printf("  %-24s %14.6g MeV\n", r.volume_names[v].c_str(), r.tallies[v]);
}

int run_detector(DeckConfig const& cfg, DetectorRunOptions const& options)
{
    DetectorRunOptions opts = options;
    opts.quiet = options.quiet || !parallel::Communicator::world().is_root();
    DetectorRunResult const r = run_detector_deck(cfg, opts);
    if (!r.stopped_by.empty()) {
        if (parallel::Communicator::world().is_root())
            std::fprintf(
                stderr,
                "gtrack: stopped by %s after %llu step iterations%s, with %llu of %llu events started; %s "
                "was not written. Checkpoint: %s. Resume with the same command and --resume %s (exit "
                "status %d)\n",
                r.stopped_by.c_str(), static_cast<unsigned long long>(r.iterations),
                r.next_iteration_tracks == 0 ? ""
                                             : fmt::format(" and {} of the {} tracks of the next",
                                                           r.next_iteration_tracked, r.next_iteration_tracks)
                                                   .c_str(),
                static_cast<unsigned long long>(r.events_started),
                static_cast<unsigned long long>(r.event_file ? r.event_file->events()
                                                             : cfg.detector.gun.events),
                (options.output.empty() ? cfg.output.file : options.output).c_str(), r.checkpoint.c_str(),
                r.checkpoint.c_str(), k_exit_stopped);
        return k_exit_stopped;
    }
    if (!opts.quiet) {
        print_detector_summary(cfg, r);
        if (options.write_output)
            std::printf("  wrote %s\n", (options.output.empty() ? cfg.output.file : options.output).c_str());
    }
    if (options.timing && parallel::Communicator::world().is_root()) {
        // items: track slots visited; the stepping loop's figure of merit is steps per second above
        std::printf("# kernel calls seconds bytes items\n");
        for (auto const& [name, rec] : r.timer.records())
            std::printf("%s %ld %.9g %.9g %.9g\n", name.c_str(), rec.calls, rec.seconds, rec.bytes,
                        rec.items);
        std::printf("steps_per_second %.9g\n",
                    r.seconds > 0 ? static_cast<double>(r.counters[k_steps]) / r.seconds : 0.0);
    }
    if (r.profile && parallel::Communicator::world().is_root())
        std::printf("%s", format_profile(*r.profile).c_str());
    return 0;
}

std::size_t differing_hits(std::vector<Hit> const& a, std::vector<Hit> const& b, std::size_t* first)
{
    std::size_t const common = std::min(a.size(), b.size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < common; ++i) {
        if (identical_hits(a[i], b[i])) continue;
        if (differ == 0 && first) *first = i;
        ++differ;
    }
    return differ + std::max(a.size(), b.size()) - common;
}

int validate_detector(DeckConfig const& cfg, std::string const& report_path,
                      std::vector<Primary> const* primaries)
{
    DetectorRunOptions opt;
    opt.primaries = primaries;
    opt.write_output = false;
    opt.quiet = true;
    opt.backend = "cpu";
    DetectorRunResult const cpu = run_detector_deck(cfg, opt);
    opt.backend = "gpu";
    DetectorRunResult const gpu = run_detector_deck(cfg, opt);
    std::size_t const common = std::min(cpu.hits.size(), gpu.hits.size());
    std::size_t first = common;
    std::size_t const differ = differing_hits(cpu.hits, gpu.hits, &first);
    bool const same_counters = cpu.counters == gpu.counters;
    // the schedule's figures in the output too: the GPU queues batches of iterations, the CPU one at a time
    bool const same_schedule =
        cpu.iterations == gpu.iterations && cpu.secondary_stack_peak == gpu.secondary_stack_peak;
    bool const identical = differ == 0 && cpu.tallies == gpu.tallies && same_counters &&
                           cpu.event_energy == gpu.event_energy && same_schedule;
    std::string text =
        fmt::format("validate {} (detector): CPU {} against GPU {}\n", cfg.path, cpu.backend, gpu.backend);
    text += fmt::format("hits: {} on the CPU, {} on the GPU, {} differing\n", cpu.hits.size(),
                        gpu.hits.size(), differ);
    if (differ > 0 && first < common) {
        Hit const &a = cpu.hits[first], &b = gpu.hits[first];
        text += fmt::format(
            "first difference at row {}: event {} track {} step {}: edep {:.17g} / {:.17g}, post "
            "({:.17g}, {:.17g}, {:.17g}) / ({:.17g}, {:.17g}, {:.17g})\n",
            first, a.event, a.track, a.step, a.edep, b.edep, a.post.x, a.post.y, a.post.z, b.post.x, b.post.y,
            b.post.z);
    }
    text += fmt::format("tallies: {}; counters (steps {} / {}, substeps {} / {}): {}\n",
                        cpu.tallies == gpu.tallies ? "identical" : "DIFFERENT", cpu.counters[k_steps],
                        gpu.counters[k_steps], cpu.counters[k_substeps], gpu.counters[k_substeps],
                        same_counters ? "identical" : "DIFFERENT");
    text += fmt::format("step iterations {} / {}, secondary stack peak {} / {}: {}\n", cpu.iterations,
                        gpu.iterations, cpu.secondary_stack_peak, gpu.secondary_stack_peak,
                        same_schedule ? "identical" : "DIFFERENT");
    if (cfg.detector.physics.showers)
        text += fmt::format("energy balances: {}; secondaries {} / {}\n",
                            cpu.event_energy == gpu.event_energy ? "identical" : "DIFFERENT",
                            cpu.counters[k_secondaries], gpu.counters[k_secondaries]);
    bool strips_identical = true;
    if (cpu.strips && gpu.strips) strips_identical = identical_strip_outcomes(*cpu.strips, *gpu.strips, text);
    text += fmt::format("| kernel | cpu [s] | gpu [s] | speedup |\n|---|---|---|---|\n");
    for (auto const& [name, rc] : cpu.timer.records()) {
        auto const it = gpu.timer.records().find(name);
        double const g = it == gpu.timer.records().end() ? 0.0 : it->second.seconds;
        text += fmt::format("| {} | {:.4g} | {:.4g} | {} |\n", name, rc.seconds, g,
                            g > 0 ? fmt::format("{:.3g}", rc.seconds / g) : std::string("-"));
    }
    text +=
        fmt::format("| stepping loop | {:.4g} | {:.4g} | {} |\n", cpu.seconds, gpu.seconds,
                    gpu.seconds > 0 ? fmt::format("{:.3g}", cpu.seconds / gpu.seconds) : std::string("-"));
    text +=
        fmt::format("verdict: {}\n", identical && strips_identical ? "identical (bit for bit)" : "DIFFERENT");
    std::fputs(text.c_str(), stdout);
    if (!report_path.empty()) {
        std::FILE* f = std::fopen(report_path.c_str(), "w");
        if (!f) throw std::runtime_error(fmt::format("cannot write the report '{}'", report_path));
        std::fputs(text.c_str(), f);
        std::fclose(f);
    }
    return identical && strips_identical ? 0 : 1;
}

std::string describe_geometry(DeckConfig const& cfg, std::size_t* problem_count)
{
    DetectorSetup const setup = make_detector_setup(cfg);
    GeometryTables const& g = setup.geometry;
    DetectorConfig const& d = cfg.detector;
    std::string text = fmt::format("detector deck {} ({})\n", cfg.run.name, cfg.path);
    text += fmt::format("  world: {} of {}\n", d.world.shape, d.world.material);
    text += fmt::format("  {} volumes, {} placements, {} hierarchy nodes\n", d.volumes.size(),
                        g.volumes.size() - 1, g.nodes.size());
    for (std::size_t i = 0; i < d.volumes.size(); ++i) {
        VolumeConfig const& v = d.volumes[i];
        std::size_t copies = 0;
        for (auto const& pv : g.volumes)
            if (pv.logical == static_cast<std::int32_t>(i + 1)) ++copies;
        text += fmt::format("    {:<20} {:<6} {:<14} in {:<12} {:>6} placed{}\n", v.name, v.shape, v.material,
                            v.mother, copies, v.sensitive ? ", sensitive" : "");
    }
    text += fmt::format("  materials: {}\n", fmt::join(setup.material_names, ", "));
    if (!d.gdml.empty()) text += gdml::describe_gdml_geometry(d, g);
    text += fmt::format("  field: {}\n", d.field.type);
    if (d.along_beamline)  // no gun: the beam part's losses are the primaries (run/BeamDetectorRun.hh)
        text += fmt::format("  primaries: the beam's {} particles, one event each\n",
                            d.extracted ? "lost and extracted" : "lost");
    else if (!d.gun.file.empty())
        text += fmt::format("  primaries: the final-state particles of {} events of {} (after {} skipped)\n",
                            d.gun.events > 0 ? fmt::format("{}", d.gun.events) : std::string("every"),
                            d.gun.file, d.gun.skip);
    else
        text += fmt::format("  gun: {} x {} {} per event\n", d.gun.events, d.gun.per_event, d.gun.particle);
    auto const problems = check_geometry(g);
    if (problem_count) *problem_count = problems.size();
    if (problems.empty()) {
        text += "  geometry check: no overlaps, no daughter outside its mother\n";
    } else {
        text += fmt::format("  geometry check: {} problem(s)\n", problems.size());
        for (auto const& p : problems) text += "    " + p.message + "\n";
    }
    return text;
}

}  // namespace gt
