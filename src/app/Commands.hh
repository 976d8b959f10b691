// The sub-commands of the gtrack executable, each a function of the parsed command line.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "perf/Calibration.hh"

namespace CLI {
class App;
}

namespace gt {

struct CommandOptions {
    std::string deck;
    std::string backend;  //!< empty: as the deck says
    std::string output;   //!< empty: as the deck says
    //! --set and --unset in command-line order, as the deck reader takes them ("--unset KEY")
    std::vector<std::string> overrides;
    //! the --unset keys alone, folded into overrides after parsing (app/OverrideOptions.hh)
    std::vector<std::string> unset_keys;
    int threads = 0;
    bool quiet = false;
    bool timing = false;         //!< print the per-kernel timing table, machine-readable
    bool profile = false;        //!< run --profile: the roofline table, /profile, forecast vs measured
    std::string trace;           //!< run --trace FILE.json: Chrome/Perfetto trace of phases and kernels
    std::string calibration;     //!< --calibration FILE ("": the default location)
    std::string clock = "wall";  //!< CPU kernel timers: wall, or cpu (process CPU time / threads)
    std::string command_line;
    // Scans (src/app/ScanCommand.cc, CollectCommand.cc).
    std::string resume;               //!< run --resume: a checkpoint, "auto", or "" (none)
    std::string scan_index;           //!< run --scan-index: "" (none), a whole number, or "env"
    bool list = false;                //!< scan --list: the points and their outputs
    bool local = false;               //!< scan --local: run every point on this machine
    bool count = false;               //!< scan --count: print the number of points
    int jobs = 1;                     //!< scan --local -j: points at a time on the CPU
    std::vector<std::string> inputs;  //!< collect: output files or glob patterns
    std::string csv;                  //!< collect --csv FILE
};

//! What `gtrack calibrate` takes.
struct CalibrateOptions {
    std::string out;             //!< "": the default location (default_calibration_path())
    int threads = 0;             //!< CPU threads (0: all)
    bool quick = false;          //!< a tenth of the sizes (tests)
    bool cpu_only = false;       //!< skip the GPU even when there is one
    std::string clock = "wall";  //!< as CommandOptions::clock
};
//! gtrack calibrate: measures this machine's ceilings into the calibration file.
int calibrate_command(CalibrateOptions const& options);
//! Measures this machine's ceilings with the current CPU thread count (the GPU too unless `cpu_only`
//! or there is none), printing each side's figures: what calibrate writes, and what forecast measures
//! when there is no calibration yet (quick sizes: seconds).
Calibration measure_calibration(bool quick, bool cpu_only);
//! gtrack forecast DECK: predicted run time on the calibrated CPU and GPU.
int forecast_command(CommandOptions const& options);

//! gtrack elements [--json]: the element registry, as docs/decks.md's element tables (markdown) or as
//! JSON (scripts/gtrack_elements.json, which the importers read).
int elements_command(bool json);

//! gtrack run DECK: returns the exit status.
int run_command(CommandOptions const& options);
//! gtrack check DECK: returns the exit status.
int check_command(CommandOptions const& options);
//! gtrack scan DECK --list | --local [-j K]: returns the exit status (1 if a point failed).
int scan_command(CommandOptions const& options);
//! gtrack collect FILES... [--deck DECK] [-o SUMMARY.h5] [--csv FILE]: returns the exit status
//! (3 when points are missing or broken; the summary is written all the same).
int collect_command(CommandOptions const& options);

//! What `gtrack validate` takes besides the deck options.
struct ValidateOptions {
    std::string report;             //!< report file; "": "<run name>-validate.md"
    std::vector<std::string> rtol;  //!< "VALUE" or "PATTERN=VALUE", in order
    std::vector<std::string> atol;  //!< likewise
    std::string tolerance_file;     //!< TOML [[tolerance]] rules, applied before rtol/atol
    std::string stages = "slice";   //!< slice | element | turn | end
    std::size_t rows = 40;          //!< most stage rows printed before condensing by element
    //! Testing aid (hidden option --test-perturb-kick REL[@KICK]): the GPU's kick KICK of one particle
    //! scaled by 1 + REL, a defect validate must fail. "": none.
    std::string test_perturb_kick;
};
//! gtrack validate DECK: 0 agree, 1 disagree, 77 no GPU (nothing compared), 2 deck errors.
int validate_command(CommandOptions const& options, ValidateOptions const& validate);

//! What `gtrack plot OUT.h5` takes (passed on to scripts/gtrack_plot.py).
struct PlotOptions {
    std::string file;    //!< the output file to draw
    std::string output;  //!< folder for the pictures ("": the script's default, <file stem>_plots)
    std::string format;  //!< png, pdf or svg ("": png)
    int max_points = 0;  //!< scatter plots of at most this many points (0: the script's default)
    int bins = 0;        //!< bins per axis of the 2D histograms (0: the script's default)
};
//! gtrack plot OUT.h5 [-o DIR]: runs the plotting program shipped with gtrack; its exit status.
int plot_command(PlotOptions const& options);

//! What `gtrack compare A B` takes.
struct CompareCommandOptions {
    std::string a, b;
    std::vector<std::string> rtol, atol, only;
    std::string tolerance_file;
    bool all = false;     //!< list every dataset, not only those that differ
    bool strict = false;  //!< measurements of the run (timings, schedule, provenance) count too
};
//! gtrack compare A B: 0 within tolerance, 1 values outside tolerance, 2 not comparable.
int compare_command(CompareCommandOptions const& options);

//! What `gtrack regress SUITE` takes (src/app/RegressCommand.cc, compare/RegressionSuite.hh).
struct RegressCommandOptions {
    std::string suite;
    std::vector<std::string> names;
    std::string gtrack, out, backend = "cpu";
    std::string history;  //!< the history file ("": SUITE/history.tsv)
    int threads = 0, jobs = 1;
    long task = -1;
    bool validate = false, update = false, collect = false, quiet = false, no_plots = false;
};
//! gtrack regress SUITE: 0 when nothing moved, 1 when a case moved or failed (throws on a bad suite).
int regress_command(RegressCommandOptions const& options);

//! Runs the Python program `script` shipped with gtrack (found as gtrack plot finds gtrack_plot.py)
//! with `args`; its exit status. Throws std::runtime_error when it or python cannot be found.
int run_shipped_script(std::string const& script, std::vector<std::string> const& args);

//! What `gtrack optics` takes besides the deck options (src/app/OpticsCommand.cc).
struct OpticsCommandOptions {
    std::string csv;    //!< --csv FILE
    std::string plot;   //!< --plot FILE (.png, .pdf or .svg): beta and dispersion over the layout
    bool ring = false;  //!< --ring: the periodic solution
    bool line = false;  //!< --line: from [beam.twiss]
    int rows = 20;      //!< rows of the printed table
    std::string model;  //!< --model 4d|6d ("": the deck's choice, docs/optics.md "Models")
};
//! Adds the `optics` sub-command to `app`.
CLI::App* add_optics_command(CLI::App& app, CommandOptions& options, OpticsCommandOptions& optics);
//! gtrack optics DECK: 0, or an exception with the reason (no closed orbit, unstable plane, ...).
int optics_command(CommandOptions const& options, OpticsCommandOptions const& optics);

}  // namespace gt
