// Running a detector deck: tables -> backend -> step iterations until every primary has ended ->
// sorted hits, tallies and provenance in one HDF5 file.
#include "detector/DetectorRun.hh"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include "perf/RunProfile.hh"
#include "perf/TraceScope.hh"

#include <fmt/format.h>

#include "deck/DeckError.hh"
#include "detector/DetectorCheckpoint.hh"
#include "detector/DetectorSetup.hh"
#include "detector/HitTable.hh"
#include "detector/ShowerOutput.hh"
#include "io/H5Handle.hh"
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
#include "run/Progress.hh"
#include "run/RunProvenance.hh"
#include "run/StopRequest.hh"

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

//! Writes the output file. Under MPI every rank calls it: `r` holds this rank's hits and the totals
//! of all ranks; rank 0 writes each rank's hits in turn (parallel/OrderedWrites.hh) and the rest.
void write_output(std::string const& path, DeckConfig const& cfg, DetectorRunOptions const& options,
                  DetectorRunResult const& r, std::uint64_t total_hits, std::string const& start_time)
{
    parallel::Communicator const& world = parallel::Communicator::world();
    std::unique_ptr<OutputFile> file = parallel::all_or_none(
        [&] { return world.is_root() ? std::make_unique<OutputFile>(path) : std::unique_ptr<OutputFile>(); });
    std::vector<std::string> const rank_devices =
        world.gather_to_root(parallel::describe_rank_device(r.backend.rfind("gpu", 0) == 0, r.backend));
    if (cfg.detector.write_hits) {
        Table const hits = hits_table(r.hits);
        // Each rank's events follow the previous rank's, so its sorted hits follow too: one sorted table.
        parallel::write_table_in_rank_order(file.get(), "hits", hits);
        if (file) file->set_attribute("hits", "volume_names", std::span<std::string const>(r.volume_names));
    }
    // Every rank has handed over its hits; the rest is the same on every rank: rank 0 writes it.
    world.barrier();
    if (!file) return;
    OutputFile& out = *file;
    Table tallies;
    std::vector<std::int64_t> ids(r.tallies.size());
    for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<std::int64_t>(i);
    tallies.add_column("volume", "1", std::move(ids));
    tallies.add_column("edep", "MeV", r.tallies);
    write_table(out, "tallies", tallies);
    out.set_attribute("tallies", "volume_names", std::span<std::string const>(r.volume_names));
    out.create_group("detector");
    out.set_attribute("detector", "primaries", cfg.detector.gun.events * cfg.detector.gun.per_event);
    out.set_attribute("detector", "events", cfg.detector.gun.events);
    out.set_attribute("detector", "escaped", r.counters[k_escaped]);
    out.set_attribute("detector", "stopped", r.counters[k_stopped]);
    out.set_attribute("detector", "looping", r.counters[k_looping]);
    out.set_attribute("detector", "steps", r.counters[k_steps]);
    out.set_attribute("detector", "substeps", r.counters[k_substeps]);
    out.set_attribute("detector", "hits", total_hits);
    out.set_attribute("detector", "iterations", r.iterations);
    if (cfg.detector.physics.showers) write_energy_balance(out, r);
    out.set_attribute("detector", "backend", r.backend);

    Provenance p = run_provenance(cfg, options.command_line);
    p.backend = r.backend.rfind("gpu", 0) == 0 ? "gpu" : "cpu";
    p.device_name = r.backend;
    p.start_time = start_time;
    p.end_time = iso8601_utc_now();
    p.ranks = world.size();
    p.rank_devices = rank_devices;
    write_provenance(out, p);
    if (r.profile) write_profile(out, *r.profile);
    out.commit();
}

//! The state of the run so far (the checkpoint resumed from, then this run's events before `event`).
DetectorCheckpoint detector_checkpoint(DetectorKernels& kernels, CheckpointIdentity const& identity,
                                       std::optional<DetectorCheckpoint> const& resumed,
                                       std::string const& start_time, std::uint64_t events,
                                       std::uint64_t event, std::uint64_t iterations)
{
    DetectorCheckpoint c;
    c.identity = identity;
    c.start_time = start_time;
    c.events = events;
    c.next_event = event;
    c.iterations = iterations;
    c.secondary_stack_peak = kernels.secondary_stack_peak();
    c.hits = kernels.sorted_hits();
    c.tally_counts = kernels.tally_counts();
    c.counters = kernels.counters();
    c.event_energy = kernels.event_energy();
    if (!resumed) return c;
    // The resumed events all follow the checkpoint's: its sorted hits come first. Counts are integers
    // (energies in k_tally_unit), so the sums are exact; each event's energies are in one run only.
    c.hits.insert(c.hits.begin(), resumed->hits.begin(), resumed->hits.end());
    for (std::size_t i = 0; i < c.tally_counts.size(); ++i) c.tally_counts[i] += resumed->tally_counts[i];
    for (std::size_t i = 0; i < c.counters.size(); ++i) c.counters[i] += resumed->counters[i];
    for (std::size_t i = 0; i < c.event_energy.size(); ++i) c.event_energy[i] += resumed->event_energy[i];
    c.secondary_stack_peak = std::max(c.secondary_stack_peak, resumed->secondary_stack_peak);
    return c;
}

}  // namespace

DetectorRunResult run_detector_deck(DeckConfig const& cfg, DetectorRunOptions const& options)
{
    if (options.threads > 0) cpu::set_thread_count(options.threads);
    // Under MPI each rank runs a contiguous share of the events: every primary keeps its id, hence
    // its random streams, whichever rank runs it (docs/cluster.md).
    parallel::Communicator const& world = parallel::Communicator::world();
    std::string const path = options.output.empty() ? cfg.output.file : options.output;
    std::string const checkpoint_path = checkpoint_path_for(path);
    std::string const resume_path = options.resume == "auto" ? checkpoint_path : options.resume;
    CheckpointEvery const& every = cfg.output.checkpoint_every;
    std::uint64_t const per_event = cfg.detector.gun.per_event;
    struct Setup {
        DetectorSetup setup;
        std::unique_ptr<DetectorKernels> kernels;
        CheckpointIdentity identity;
        std::optional<DetectorCheckpoint> resumed;
    };
    Setup const ready = parallel::all_or_none([&] {
        if (world.size() > 1 && (every.steps > 0 || every.seconds > 0))
            throw DeckError(
                cfg.output.where, "output.checkpoint_every",
                fmt::format(
                    "detector checkpoints are written by one process only, this run has {} MPI ranks: "
                    "run without mpirun, or without output.checkpoint_every",
                    world.size()));
        if (world.size() > 1 && !options.resume.empty())
            throw std::runtime_error(
                fmt::format("--resume: detector checkpoints are read by one process only, this run has {} "
                            "MPI ranks: resume "
                            "without mpirun",
                            world.size()));
        DetectorSetup setup = make_detector_setup(cfg);
        auto kernels = make_backend(cfg, options);
        CheckpointIdentity identity =
            checkpoint_identity(cfg, kernels->memory() == MemSpace::device ? "gpu" : "cpu");
        std::optional<DetectorCheckpoint> resumed;
        if (options.resume == "auto") {
            // The run's own checkpoint when there is one for this deck; otherwise (none, or one of an
            // edited deck or another gtrack) from the beginning, which replaces it.
            if (std::filesystem::exists(resume_path)) {
                try {
                    resumed = read_detector_checkpoint(resume_path, identity);
                } catch (std::runtime_error const& e) {
                    std::fprintf(stderr, "gtrack: note: --resume auto: %s; starting from the beginning\n",
                                 e.what());
                }
            } else if (!options.quiet) {
                std::printf("gtrack: no checkpoint %s: starting from the beginning\n", resume_path.c_str());
            }
        } else if (!resume_path.empty()) {
            resumed = read_detector_checkpoint(resume_path, identity);
        }
        if (resumed &&
            (resumed->events != cfg.detector.gun.events ||
             resumed->tally_counts.size() != setup.geometry.logical_names.size() ||
             resumed->event_energy.size() !=
                 (cfg.detector.physics.showers ? cfg.detector.gun.events * k_num_energy_categories : 0)))
            throw std::runtime_error(
                fmt::format("cannot resume: '{}' does not match the deck's events and volumes", resume_path));
        parallel::ParticleShare events =
            parallel::even_share(cfg.detector.gun.events, world.rank(), world.size());
        if (resumed) events = {resumed->next_event, cfg.detector.gun.events - resumed->next_event};
        setup.tables.gun.first_primary = events.first * per_event;
        setup.tables.gun.primaries = (events.first + events.count) * per_event;
        std::size_t const slots = cfg.detector.track_slots;
        kernels->setup(setup.tables, slots, 4 * slots);
        return Setup{std::move(setup), std::move(kernels), std::move(identity), std::move(resumed)};
    });
    DetectorSetup const& setup = ready.setup;
    DetectorKernels* const kernels = ready.kernels.get();
    std::optional<DetectorCheckpoint> const& resumed = ready.resumed;
    std::string const start_time = resumed ? resumed->start_time : iso8601_utc_now();
    DetectorRunResult r;
    r.backend = kernels->description();
    trace_log().set_device(r.backend);
    r.volume_names = setup.geometry.logical_names;
    std::uint64_t const first_primary = setup.tables.gun.first_primary;
    std::uint64_t const end_primary = setup.tables.gun.primaries;
    std::uint64_t const primaries = end_primary - first_primary;
    if (resumed && !options.quiet)
        std::printf("gtrack: resuming from %s after %llu of %llu events\n", resume_path.c_str(),
                    static_cast<unsigned long long>(resumed->next_event),
                    static_cast<unsigned long long>(resumed->events));
    Progress progress(!options.quiet);
    auto const t0 = std::chrono::steady_clock::now();
    // Only a run that writes its output stops at signals (validate's runs end as signals say), and
    // only on one rank: under MPI a signal ends the run at once, as the launcher expects.
    std::optional<StopRequest> stop;
    if (options.write_output && world.size() == 1) stop.emplace();
    std::uint64_t const prior_iterations = resumed ? resumed->iterations : 0;

    // Checkpoints sit at event boundaries with no track in flight: the primaries are held back at the
    // boundary (kernels->limit_primaries) until the pool drains. The events before it are then done,
    // and the tracks of the later ones draw the same random numbers whenever they start.
    auto const next_primary = [&] { return first_primary + kernels->primaries_started(); };
    auto const periodic_end = [&](std::uint64_t event) {  // the next boundary of checkpoint_every events
        if (every.steps <= 0) return end_primary;
        std::uint64_t const n = std::uint64_t(every.steps);
        return std::min(end_primary, (event / n + 1) * n * per_event);
    };
    std::uint64_t limit = periodic_end(first_primary / per_event);
    kernels->limit_primaries(limit);
    bool stopping = false, draining = false;
    auto last_checkpoint = std::chrono::steady_clock::now();
    auto const drain = [&] {  // to the end of the event started last
        if (draining) return;
        draining = true;
        limit = std::min(limit, (next_primary() + per_event - 1) / per_event * per_event);
        kernels->limit_primaries(limit);
    };
    for (;;) {
        IterationResult const it = kernels->iterate();
        if (it.finished) {
            if (next_primary() >= end_primary) break;
            // Drained at an event boundary: the checkpoint, then on (or stop).
            std::uint64_t const event = next_primary() / per_event;
            TraceScope const phase("checkpoint");
            try {
                write_detector_checkpoint(
                    checkpoint_path,
                    detector_checkpoint(*kernels, ready.identity, resumed, start_time,
                                        cfg.detector.gun.events, event, prior_iterations + r.iterations));
                r.checkpoint = checkpoint_path;
            } catch (IoError const& e) {  // a long run goes on; the previous checkpoint is still whole
                if (stopping) throw;
                std::fprintf(stderr, "gtrack: warning: the checkpoint was not written: %s\n", e.what());
            }
            last_checkpoint = std::chrono::steady_clock::now();
            if (stopping) {
                r.stopped_by = stop->signal_name();
                r.next_event = event;
                r.iterations += prior_iterations;  // of the whole chain, as the checkpoint says
                break;
            }
            draining = false;
            limit = periodic_end(event);
            kernels->limit_primaries(limit);
            continue;
        }
        ++r.iterations;
        // A safe point: between step iterations. A stop or a checkpoint due drains to the next boundary.
        if (stop && !stopping && stop->stop_here(std::int64_t(prior_iterations + r.iterations))) {
            stopping = true;
            drain();
            std::fprintf(stderr, "gtrack: finishing the events in flight (up to event %llu) first\n",
                         static_cast<unsigned long long>(limit / per_event));
        }
        if (stop && every.seconds > 0 &&
            std::chrono::duration<double>(std::chrono::steady_clock::now() - last_checkpoint).count() >=
                every.seconds)
            drain();
        if ((r.iterations & 63) == 0)
            progress.update(static_cast<double>(kernels->primaries_started()), static_cast<double>(primaries),
                            fmt::format("{} tracks in flight", it.alive));
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    progress.finish();
    if (!r.stopped_by.empty()) return r;
    // The events of the checkpoint resumed from come first; counts add exactly.
    DetectorCheckpoint const done =
        detector_checkpoint(*kernels, ready.identity, resumed, start_time, cfg.detector.gun.events,
                            cfg.detector.gun.events, prior_iterations + r.iterations);
    r.hits = done.hits;
    r.iterations = done.iterations;
    // Tallies and counters are integers: their sums over ranks are exact, the same for any rank count.
    std::vector<std::uint64_t> tally_counts = done.tally_counts;
    std::vector<std::int64_t> sums(tally_counts.begin(), tally_counts.end());
    r.counters = done.counters;
    sums.insert(sums.end(), r.counters.begin(), r.counters.end());
    sums.push_back(static_cast<std::int64_t>(r.hits.size()));
    world.sum_in_place(sums);
    for (std::size_t i = 0; i < tally_counts.size(); ++i) tally_counts[i] = std::uint64_t(sums[i]);
    r.tallies = tallies_in_mev(tally_counts);
    for (std::size_t i = 0; i < r.counters.size(); ++i)
        r.counters[i] = std::uint64_t(sums[tally_counts.size() + i]);
    r.total_hits = std::uint64_t(sums.back());
    // A scheduling figure, not physics: the largest rank's.
    std::vector<double> iterations = {static_cast<double>(r.iterations)};
    world.max_in_place(iterations);
    r.iterations = static_cast<std::uint64_t>(iterations[0]);
    r.timer = kernels->timer();
    if (options.profile)
        r.profile =
            profile_of_run(cfg, r.timer.records(), r.backend.rfind("gpu", 0) == 0, options.calibration);
    if (r.profile) {
        r.profile->counts["track_steps"] = double(r.counters[k_steps]);
        r.profile->counts["substeps"] = double(r.counters[k_substeps]);
    }
    r.hit_buffer_growths = kernels->hit_buffer_growths();
    r.event_energy = done.event_energy;
    r.secondary_stack_peak = done.secondary_stack_peak;
    if (options.write_output) {
        TraceScope const phase("output");
        write_output(path, cfg, options, r, r.total_hits, start_time);
        // The output is complete: the run's checkpoint would only resume what is done.
        std::error_code ignored;
        if (world.is_root()) std::filesystem::remove(checkpoint_path, ignored);
    }
    return r;
}

int run_detector(DeckConfig const& cfg, DetectorRunOptions const& options)
{
    DetectorRunOptions opts = options;
    opts.quiet = options.quiet || !parallel::Communicator::world().is_root();
    DetectorRunResult const r = run_detector_deck(cfg, opts);
    if (!r.stopped_by.empty()) {
        std::fprintf(
            stderr,
            "gtrack: stopped by %s after %llu of %llu events (%llu step iterations); %s was not written. "
            "Checkpoint: %s. Resume with the same command and --resume %s (exit status %d)\n",
            r.stopped_by.c_str(), static_cast<unsigned long long>(r.next_event),
            static_cast<unsigned long long>(cfg.detector.gun.events),
            static_cast<unsigned long long>(r.iterations),
            (options.output.empty() ? cfg.output.file : options.output).c_str(), r.checkpoint.c_str(),
            r.checkpoint.c_str(), k_exit_stopped);
        return k_exit_stopped;
    }
    if (!opts.quiet) {
        std::uint64_t const primaries = cfg.detector.gun.events * cfg.detector.gun.per_event;
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
        for (std::size_t v = 0; v < r.tallies.size(); ++v)
            if (r.tallies[v] > 0)
                std::printf("  %-24s %14.6g MeV\n", r.volume_names[v].c_str(), r.tallies[v]);
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

int validate_detector(DeckConfig const& cfg, std::string const& report_path)
{
    DetectorRunOptions opt;
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
    bool const identical =
        differ == 0 && cpu.tallies == gpu.tallies && same_counters && cpu.event_energy == gpu.event_energy;
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
    if (cfg.detector.physics.showers)
        text += fmt::format("energy balances: {}; secondaries {} / {}\n",
                            cpu.event_energy == gpu.event_energy ? "identical" : "DIFFERENT",
                            cpu.counters[k_secondaries], gpu.counters[k_secondaries]);
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
    text += fmt::format("verdict: {}\n", identical ? "identical (bit for bit)" : "DIFFERENT");
    std::fputs(text.c_str(), stdout);
    if (!report_path.empty()) {
        std::FILE* f = std::fopen(report_path.c_str(), "w");
        if (!f) throw std::runtime_error(fmt::format("cannot write the report '{}'", report_path));
        std::fputs(text.c_str(), f);
        std::fclose(f);
    }
    return identical ? 0 : 1;
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
    text += fmt::format("  field: {}\n", d.field.type);
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
