// gtrack run DECK: read and check the deck (one point of its [scan], if it has one), then run it on
// the chosen backend.
#include <chrono>
#include <cstdio>
#include <stdexcept>

#include <fmt/format.h>

#include "app/Commands.hh"
#include "app/StartUp.hh"
#include "deck/DeckReader.hh"
#include "deck/Scan.hh"
#include "kernels/core/TraceScope.hh"
#include "kernels/cpu/Stopwatch.hh"
#include "parallel/Agreement.hh"
#include "parallel/Communicator.hh"
#include "parallel/DeviceBinding.hh"
#include "perf/HostPhases.hh"
#include "perf/TraceFile.hh"
#include "run/BeamRun.hh"
#include "run/DetectorRun.hh"
#include "study/DynamicAperture.hh"
#include "study/MomentumAperture.hh"

namespace gt {

namespace {

int run_deck(CommandOptions const& options);

}  // namespace

int run_command(CommandOptions const& options)
{
    cpu::timer_clock() = options.clock == "cpu" ? cpu::TimerClock::process_cpu : cpu::TimerClock::wall;
    // --trace and --profile record the host phases (the trace log, kept in memory) and print their
    // shares of the wall time; --trace also writes the whole log.
    if (options.trace.empty() && !options.profile) return run_deck(options);
    // From main() on, so that MPI's start-up and the wait for the GPU context show (app/StartUp.hh).
    StartUpTimes const& start = start_up_times();
    trace_log().enable(start.main_entry);
    if (start.mpi_begin && start.mpi_end)
        trace_log().add(TraceEvent{"MPI start-up", "phase", trace_log().seconds_at(*start.mpi_begin),
                                   std::chrono::duration<double>(*start.mpi_end - *start.mpi_begin).count()});
    int status = run_deck(options);
    trace_log().add(TraceEvent{"gtrack run", "phase", 0.0, trace_log().now()});
    auto const& world = parallel::Communicator::world();
    if (!options.quiet && world.is_root())
        std::printf("%s", format_host_phases(host_phases(trace_log())).c_str());
    if (options.trace.empty()) return status;
    // Over MPI, one trace per rank: run.json -> run.rank3.json.
    std::string path = options.trace;
    if (world.size() > 1) {
        auto const dot = path.rfind('.');
        std::string const tag = fmt::format(".rank{}", world.rank());
        path = dot == std::string::npos || path.find('/', dot) != std::string::npos ? path + tag
                                                                                    : path.insert(dot, tag);
    }
    write_trace(path, trace_log());
    if (!options.quiet)
        std::printf("wrote trace %s (%zu events)\n", path.c_str(), trace_log().events().size());
    return status;
}

namespace {

int run_deck(CommandOptions const& options)
{
    std::optional<std::uint64_t> index;
    if (options.scan_index == "env") {
        ArrayTask const task = scan_index_from_environment();
        if (!options.quiet)
            std::printf("gtrack: scan point %llu (from %s=%s)\n", static_cast<unsigned long long>(task.point),
                        task.variable.c_str(), task.value.c_str());
        index = task.point;
    } else if (!options.scan_index.empty()) {
        index = parse_scan_index(options.scan_index);
    }
    // Every rank reads the deck; a problem in it is reported once (by the lowest rank that found it).
    DeckConfig const deck = parallel::all_or_none([&] {
        TraceScope const phase("read deck");
        return read_deck(options.deck, options.overrides, index);
    });
    // The GPU context started in main() is there before the GPU is bound or used.
    device_warm_up().wait();
    if (parallel::Communicator::world().size() > 1) parallel::bind_gpu_to_node_rank();
    if (!deck.scan.empty() && !deck.scan_index)
        throw std::runtime_error(fmt::format(
            "{} has a [scan] table of {} points: run one with --scan-index N (0 to {}; --scan-index env in a "
            "job array), or all of them with 'gtrack scan {} --local'",
            options.deck, deck.scan.size(), deck.scan.size() - 1, options.deck));
    if (deck.run.kind == "detector") {
        DetectorRunOptions det;
        det.backend = options.backend;
        det.output = options.output;
        if (!options.output.empty()) {
            try {
                det.output = expand_output_name(options.output, deck.run.name, deck.scan, deck.scan_index);
            } catch (ScanError const& e) {
                throw std::runtime_error(fmt::format("-o {}", e.what()));
            }
        }
        det.threads = options.threads;
        det.quiet = options.quiet;
        det.timing = options.timing;
        det.profile = options.profile;
        det.calibration = options.calibration;
        det.command_line = options.command_line;
        det.resume = options.resume;
        return run_detector(deck, det);
    }
    RunOptions run;
    run.backend = options.backend;
    run.output = options.output;
    if (!options.output.empty()) {
        try {
            run.output = expand_output_name(options.output, deck.run.name, deck.scan, deck.scan_index);
        } catch (ScanError const& e) {
            throw std::runtime_error(fmt::format("-o {}", e.what()));
        }
    }
    run.threads = options.threads;
    run.quiet = options.quiet;
    run.timing = options.timing;
    run.resume = options.resume;
    run.profile = options.profile;
    run.calibration = options.calibration;
    run.command_line = options.command_line;
    if (deck.scan_index && !options.quiet)
        std::printf("gtrack: scan point %llu of %llu: %s\n",
                    static_cast<unsigned long long>(*deck.scan_index),
                    static_cast<unsigned long long>(deck.scan.size()),
                    deck.scan.describe_point(*deck.scan_index).c_str());
    // A ring study: its own grid of particles, turns and output (study/DynamicAperture.hh).
    if (deck.dynamic_aperture.enabled) return study::run_dynamic_aperture(deck, run);
    if (deck.momentum_aperture.enabled) return study::run_momentum_aperture(deck, run);
    return run_beamline(deck, run);
}

}  // namespace

}  // namespace gt
