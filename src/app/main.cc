// gtrack's entry point: the command line, and the one place where errors are printed.
#include <cstdio>
#include <exception>
#include <string>

#include <CLI/CLI.hpp>

#include "app/Commands.hh"
#include "app/OverrideOptions.hh"
#include "app/StartUp.hh"
#include "run/VersionInfo.hh"
#include "deck/DeckError.hh"
#include "parallel/Agreement.hh"
#include "parallel/Communicator.hh"

namespace {

//! Options every deck-reading sub-command takes.
void add_deck_options(CLI::App& cmd, gt::CommandOptions& o)
{
    cmd.add_option("deck", o.deck, "the TOML input deck")->required();
    gt::add_override_options(cmd, o.overrides, o.unset_keys,
                             "override a deck key: --set beam.kinetic_energy=\"300 MeV\" (repeatable)");
    cmd.add_option("-o,--output", o.output, "output HDF5 file (default: the deck's output.file)");
}

}  // namespace

int main(int argc, char** argv)
{
    // The GPU's context is created on a thread of its own while MPI starts and the deck is read.
    gt::start_up_times().main_entry = gt::StartUpTimes::Clock::now();
    gt::device_warm_up().start(argc, argv);
    struct WaitForWarmUp {  // before MPI_Finalize and the runtime's exit handlers, whatever happens
        ~WaitForWarmUp() { gt::device_warm_up().wait(); }
    } const wait_for_warm_up;
    if (gt::started_by_launcher()) gt::start_up_times().mpi_begin = gt::StartUpTimes::Clock::now();
    gt::parallel::Session mpi(argc, argv);
    if (gt::started_by_launcher()) gt::start_up_times().mpi_end = gt::StartUpTimes::Clock::now();
    gt::parallel::Communicator const& world = gt::parallel::Communicator::world();
    gt::CommandOptions options;
    for (int i = 0; i < argc; ++i) options.command_line += (i ? " " : "") + std::string(argv[i]);

    CLI::App app{"gtrack: particle beams in lattices and particles in detectors, on GPUs and CPUs"};
    app.require_subcommand(0, 1);
    bool version = false;
    app.add_flag("--version", version, "print the version, build options, CUDA runtime and GPU, and exit");

    CLI::App* run = app.add_subcommand("run", "track the deck and write its output file");
    add_deck_options(*run, options);
    run->add_option("--backend", options.backend, "where to track: auto (GPU if present), cpu or gpu")
        ->check(CLI::IsMember({"auto", "cpu", "gpu"}));
    run->add_option("--threads", options.threads, "CPU threads (default: all cores)")
        ->check(CLI::NonNegativeNumber);
    run->add_flag("-q,--quiet", options.quiet, "no progress line and no summary; errors only");
    run->add_flag("--timing", options.timing, "print per-kernel times, bytes and work items at the end");
    run->add_flag("--profile", options.profile,
                  "per kernel: time, bytes, FP64 operations, GB/s, GFLOP/s against the calibrated ceilings, and "
                  "the forecast against the measured time; also written as /profile");
    run->add_option("--trace", options.trace,
                    "write a Chrome/Perfetto trace (trace-event JSON) of host phases and kernels to this file");
    run->add_option("--clock", options.clock,
                    "CPU kernel timers: wall (default), or cpu: process CPU time / threads, for a machine "
                    "shared with other jobs")
        ->check(CLI::IsMember({"wall", "cpu"}));
    run->add_option("--calibration", options.calibration,
                    "calibration file for --profile (default: ~/.cache/gtrack/calibration.toml)");
    run->add_option(
        "--scan-index", options.scan_index,
        "run point N of the deck's [scan]; 'env': the job-array task index (SLURM, PBS, LSF, SGE)");
    run->add_option("--resume", options.resume,
                    "go on from a checkpoint (docs/checkpoint.md); 'auto': from the run's own "
                    "(<output>.ckpt) if it exists, else from the start");

    CLI::App* check = app.add_subcommand("check", "read and check the deck, print the tables it builds");
    add_deck_options(*check, options);

    gt::ValidateOptions validate_options;
    CLI::App* validate = app.add_subcommand(
        "validate", "track the deck on the CPU and the GPU and compare them after every stage");
    validate->add_option("deck", options.deck, "the TOML input deck")->required();
    gt::add_override_options(*validate, options.overrides, options.unset_keys,
                             "override a deck key (repeatable)");
    validate
        ->add_option("--rtol", validate_options.rtol,
                     "relative tolerance: VALUE (all quantities) or QUANTITY=VALUE (x, px, y, py, t, pt, "
                     "stats/<column>, globs allowed); repeatable, later ones win; default 0 (bitwise)")
        ->allow_extra_args(false);
    validate->add_option("--atol", validate_options.atol, "absolute tolerance, as --rtol")
        ->allow_extra_args(false);
    validate->add_option(
        "--tolerances", validate_options.tolerance_file,
        "TOML file of [[tolerance]] rules (match, rtol, atol), applied before --rtol/--atol");
    validate
        ->add_option("--stages", validate_options.stages,
                     "where to compare: slice (default), element, turn, end")
        ->check(CLI::IsMember({"slice", "element", "turn", "end"}));
    validate->add_option("--report", validate_options.report,
                         "the markdown report with every stage (default: <run name>-validate.md)");
    validate->add_option("--rows", validate_options.rows,
                         "most stages printed one per row; more are condensed by deck element (default 40)");
    validate->add_option("--threads", options.threads, "CPU threads (default: all cores)")
        ->check(CLI::NonNegativeNumber);
    // A testing aid, left out of --help (group ""): scripts/gpu-check.d/46-validate-perturbed.sh shows
    // with it that validate fails a defect of one part in 10^6 in one particle's kick on the GPU.
    validate
        ->add_option("--test-perturb-kick", validate_options.test_perturb_kick,
                     "TESTING AID: REL[@KICK] scales the GPU's space-charge kick KICK (from 0, default 5) "
                     "of the particle it kicks hardest by 1 + REL")
        ->group("");

    gt::CompareCommandOptions compare_options;
    CLI::App* compare = app.add_subcommand(
        "compare", "compare two gtrack output files, every numeric dataset and attribute, within tolerances");
    compare->add_option("a", compare_options.a, "the reference output file")->required();
    compare->add_option("b", compare_options.b, "the output file to check against it")->required();
    compare
        ->add_option(
            "--rtol", compare_options.rtol,
            "relative tolerance: VALUE (every dataset) or PATTERN=VALUE (a glob over paths such as "
            "stats/sigma_x, data/*/particles/beam/position/x); repeatable, later ones win; default 0")
        ->allow_extra_args(false);
    compare->add_option("--atol", compare_options.atol, "absolute tolerance, as --rtol")
        ->allow_extra_args(false);
    compare->add_option("--only", compare_options.only, "compare only paths matching this glob (repeatable)")
        ->allow_extra_args(false);
    compare->add_option("--tolerances", compare_options.tolerance_file,
                        "TOML file of [[tolerance]] rules (match, rtol, atol), applied before --rtol/--atol");
    compare->add_flag("--all", compare_options.all, "list every dataset, not only those that differ");
    compare->add_flag("--strict", compare_options.strict,
                      "measurements of the run (timings, schedule figures, provenance: marked in the files) "
                      "count towards the verdict too");

    gt::RegressCommandOptions regress_options;
    CLI::App* regress = app.add_subcommand(
        "regress", "run a suite of decks (a folder of cases: deck.toml, reference.h5, tolerances.toml), compare "
                   "each with its reference, report and keep the history (docs/regression.md)");
    regress->add_option("suite", regress_options.suite, "the suite's folder")->required();
    regress->add_option("cases", regress_options.names, "the cases to run (sub-folders; default: all)");
    regress->add_option("--out", regress_options.out, "outputs, compare tables and the report (default: regress-out)");
    regress->add_option("--backend", regress_options.backend, "cpu (default), gpu, auto, or both (cpu and gpu)")
        ->check(CLI::IsMember({"cpu", "gpu", "auto", "both"}));
    regress->add_option("--threads", regress_options.threads, "CPU threads of each run (default: all cores)");
    regress->add_option("-j,--jobs", regress_options.jobs, "cases run at once (default 1)")
        ->check(CLI::PositiveNumber);
    regress->add_flag("--validate", regress_options.validate,
                      "also gtrack validate each deck (CPU against GPU; skipped without a GPU)");
    regress->add_flag("--update", regress_options.update,
                      "regenerate the references: prints the old reference against the new output, then replaces it");
    regress->add_option("--task", regress_options.task,
                        "job array: run only the case of this index (0-based, e.g. $SLURM_ARRAY_TASK_ID) and "
                        "leave its result in --out; then --collect")
        ->check(CLI::NonNegativeNumber);
    regress->add_flag("--collect", regress_options.collect,
                      "job array: run nothing, gather the tasks' results into the report and the history");
    regress->add_option("--history", regress_options.history,
                        "the history file to append to (default: SUITE/history.tsv)");
    regress->add_option("--gtrack", regress_options.gtrack, "the gtrack that runs the cases (default: this one)");
    regress->add_flag("--no-plots", regress_options.no_plots, "draw no drift plots (no Python needed)");
    regress->add_flag("-q,--quiet", regress_options.quiet, "print only the summary, not the compare tables");

    CLI::App* scan = app.add_subcommand("scan", "list the points of the deck's [scan], or run them all here");
    add_deck_options(*scan, options);
    CLI::Option* list =
        scan->add_flag("--list", options.list, "print the points: index, values, output, state (default)");
    scan->add_flag("--local", options.local,
                   "run every point whose output is not complete yet, on this machine")
        ->excludes(list);
    scan->add_flag("--count", options.count, "print the number of points only (for job-array scripts)")
        ->excludes(list)
        ->excludes("--local");
    scan->add_option("-j,--jobs", options.jobs, "points run at a time on the CPU (one at a time on a GPU)")
        ->check(CLI::PositiveNumber);
    scan->add_option("--backend", options.backend, "where to track: auto, cpu or gpu")
        ->check(CLI::IsMember({"auto", "cpu", "gpu"}));
    scan->add_option("--threads", options.threads, "CPU threads per point (default: cores / jobs)")
        ->check(CLI::NonNegativeNumber);

    CLI::App* collect =
        app.add_subcommand("collect", "one table of scan parameters against final statistics");
    collect->add_option("files", options.inputs, "scan output files or quoted glob patterns ('out_*.h5')");
    collect->add_option("--deck", options.deck, "the scan deck: which points should exist, and their files");
    gt::add_override_options(*collect, options.overrides, options.unset_keys,
                             "the --set overrides the scan was run with (with --deck)");
    collect->add_option("-o,--output", options.output, "summary HDF5 file (table /summary)");
    collect->add_option("--csv", options.csv, "summary as CSV");

    gt::CalibrateOptions calibrate_options;
    CLI::App* calibrate = app.add_subcommand(
        "calibrate", "measure this machine's ceilings (bandwidth, FP64 rate, launch latency, FFT times) for "
                     "--profile and forecast");
    calibrate->add_option("--out", calibrate_options.out,
                          "calibration file (default: ~/.cache/gtrack/calibration.toml, or $GTRACK_CALIBRATION)");
    calibrate->add_option("--threads", calibrate_options.threads, "CPU threads (default: all cores)")
        ->check(CLI::NonNegativeNumber);
    calibrate->add_flag("--quick", calibrate_options.quick, "small sizes: seconds instead of a minute, less exact");
    calibrate->add_option("--clock", calibrate_options.clock, "CPU timers: wall (default) or cpu, as for run")
        ->check(CLI::IsMember({"wall", "cpu"}));
    calibrate->add_flag("--cpu-only", calibrate_options.cpu_only, "do not measure the GPU");

    CLI::App* forecast = app.add_subcommand(
        "forecast", "predict the deck's run time on the calibrated CPU and GPU from its counted work");
    forecast->add_option("deck", options.deck, "the TOML input deck")->required();
    gt::add_override_options(*forecast, options.overrides, options.unset_keys, "override a deck key (repeatable)");
    forecast->add_option("--calibration", options.calibration,
                         "calibration file (default: ~/.cache/gtrack/calibration.toml)");
    forecast->add_option("--scan-index", options.scan_index, "the point of the deck's [scan] to forecast");

    gt::PlotOptions plot_options;
    CLI::App* plot = app.add_subcommand(
        "plot",
        "draw an output file as PNG pictures: beam along s, phase space, losses, detector, scan, optics");
    plot->add_option("file", plot_options.file,
                     "a gtrack output file (run, collect summary .h5/.csv, optics)")
        ->required();
    plot->add_option("-o,--output", plot_options.output,
                     "folder for the pictures (default: <file stem>_plots)");
    plot->add_option("--format", plot_options.format, "png (default), pdf or svg")
        ->check(CLI::IsMember({"png", "pdf", "svg"}));
    plot->add_option("--max-points", plot_options.max_points,
                     "snapshots with more particles are drawn as 2D histograms of all (default 20000)")
        ->check(CLI::PositiveNumber);
    plot->add_option("--bins", plot_options.bins, "bins per axis of the 2D histograms (default 200)")
        ->check(CLI::PositiveNumber);
    gt::OpticsCommandOptions optics_options;
    CLI::App* optics = gt::add_optics_command(app, options, optics_options);
    CLI::App* elements = app.add_subcommand(
        "elements", "print the element types and their keys: docs/decks.md's tables, or --json for the importers");
    bool elements_json = false, elements_markdown = false;
    elements->add_flag("--markdown", elements_markdown, "docs/decks.md's element tables (the default)");
    elements->add_flag("--json", elements_json, "the registry as JSON (scripts/gtrack_elements.json)");

    try {
        app.parse(argc, argv);
    } catch (CLI::ParseError const& e) {
        return app.exit(e);
    }
    for (CLI::App const* cmd : {run, check, validate, scan, collect, forecast, optics})
        if (*cmd) options.overrides = gt::overrides_in_order(*cmd);
    if (version) {
        std::string const report = gt::version_report();
        if (world.is_root()) std::fputs(report.c_str(), stdout);
        return 0;
    }
    try {
        if (*run) return gt::run_command(options);
        if (world.size() > 1)
            throw std::runtime_error("only 'gtrack run' runs over MPI ranks: start the other commands "
                                     "without mpirun/srun");
        if (*check) return gt::check_command(options);
        if (*validate) return gt::validate_command(options, validate_options);
        if (*compare) return gt::compare_command(compare_options);
        if (*regress) return gt::regress_command(regress_options);
        if (*scan) return gt::scan_command(options);
        if (*collect) return gt::collect_command(options);
        if (*calibrate) return gt::calibrate_command(calibrate_options);
        if (*forecast) return gt::forecast_command(options);
        if (*plot) return gt::plot_command(plot_options);
        if (*optics) return gt::optics_command(options, optics_options);
        if (*elements) return gt::elements_command(elements_json);
    } catch (gt::parallel::FailedElsewhere const& e) {
        return e.exit_code();  // the rank that failed has said why
    } catch (gt::DeckError const& e) {
        for (auto const& d : e.diagnostics()) std::fprintf(stderr, "%s\n", d.format().c_str());
        std::fprintf(stderr, "gtrack: %zu problem%s in the deck; nothing was run\n", e.diagnostics().size(),
                     e.diagnostics().size() == 1 ? "" : "s");
        return 2;
    } catch (std::exception const& e) {
        if (world.size() == 1 || dynamic_cast<gt::parallel::AgreedFailure const*>(&e) != nullptr) {
            std::fprintf(stderr, "gtrack: error: %s\n", e.what());
            return 1;
        }
        // One rank failed where its peers may be waiting for it: end them all, never hang.
        std::fprintf(stderr, "gtrack: error on rank %d of %d: %s\ngtrack: ending every rank (MPI_Abort)\n",
                     world.rank(), world.size(), e.what());
        world.abort(1);
    }
    std::fputs(app.help().c_str(), stdout);
    return 0;
}
