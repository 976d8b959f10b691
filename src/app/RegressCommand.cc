// gtrack regress SUITE: run the suite's cases (or one task of a job array, or collect the tasks'
// results), then the history, the drift plots, the report and the verdict (docs/regression.md).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

#include "app/Commands.hh"
#include "compare/RegressionReport.hh"
#include "compare/RegressionSuite.hh"
#include "compare/TextTable.hh"
#include "io/Provenance.hh"
#include "run/VersionInfo.hh"

namespace gt {

namespace {

namespace fs = std::filesystem;

constexpr char const* k_plot_script = "plot_regress_history.py";

void write_file(fs::path const& path, std::string const& text)
{
    std::ofstream f(path);
    f << text;
    if (!f) throw std::runtime_error(fmt::format("cannot write '{}'", path.string()));
}

}  // namespace

int regress_command(RegressCommandOptions const& options)
{
    RegressOptions o;
    o.suite = options.suite;
    o.names = options.names;
    o.gtrack = options.gtrack.empty() ? std::string() : fs::absolute(options.gtrack).string();
    o.out = options.out.empty() ? "regress-out" : options.out;
    o.backends = options.backend == "both" ? std::vector<std::string>{"cpu", "gpu"}
                                           : std::vector<std::string>{options.backend};
    o.threads = options.threads;
    o.jobs = options.jobs;
    o.validate = options.validate;
    o.update = options.update;
    o.task = options.task;
    o.quiet = options.quiet;
    if (options.collect && options.task >= 0)
        throw std::runtime_error("gtrack regress: --task runs one case, --collect gathers them: not both");

    std::vector<CaseResult> results;
    if (options.collect) {
        fs::create_directories(o.out);
        for (auto const& name : o.names.empty() ? suite_cases(o.suite) : o.names)
            results.push_back(read_case_result(o.out, name));
    } else {
        results = run_suite(o);
    }
    bool ok = true;
    for (auto const& r : results) ok = ok && r.ok();

    TextTable t({"case", "backend", "verdict", "time [s]", "what moved"});
    std::vector<std::string> lines;  // name|verdict|seconds: scripts/nightly.sh reads OUT/results.txt
    for (auto const& r : results)
        for (auto const& run : r.runs) {
            std::string verdict = run.verdict;
            if (!r.validate.empty()) verdict += ", validate " + r.validate;
            std::string moved;
            for (auto const& m : run.moved) moved += (moved.empty() ? "" : ", ") + m;
            t.add_row({r.name, run.backend, verdict, fmt::format("{:.2f}", run.seconds),
                       moved.empty() ? "-" : moved});
            lines.push_back(fmt::format("{}|{}|{:.2f}", r.name, verdict, run.seconds));
        }
    std::fputs(("\n" + t.text("")).c_str(), stdout);
    if (options.task >= 0) {  // one task of an array: the report and the history come with --collect
        std::fflush(stdout);
        return ok ? 0 : 1;
    }
    {
        std::string text;
        for (auto const& l : lines) text += l + "\n";
        write_file(fs::path(o.out) / "results.txt", text);
    }

    // The history first, so the drift plots show tonight too.
    RegressReportInput in;
    in.suite = o.suite;
    in.night = iso8601_utc_now();
    in.commit = version_line();
    in.backends = options.backend;
    in.results = results;
    std::string const history = options.history.empty() ? history_path(o.suite) : options.history;
    in.history = history;
    in.previous = read_history(history);
    append_history(history, in.night, in.commit, results);
    if (options.no_plots) {
        in.plots_note = "No drift plots (--no-plots).";
    } else {
        try {
            int const rc =
                run_shipped_script(k_plot_script, {history, "--out", (fs::path(o.out) / "drift").string()});
            if (rc == 0)
                in.plots = "drift";
            else
                in.plots_note = fmt::format(
                    "No drift plots: {} exited with status {}{}.", k_plot_script, rc,
                    rc == 77 ? " (h5py, numpy or matplotlib missing: scripts/install-deps.sh --python)" : "");
        } catch (std::runtime_error const& e) {
            in.plots_note = fmt::format("No drift plots: {}", e.what());
        }
    }
    write_file(fs::path(o.out) / "report.md", regress_markdown(in));
    write_file(fs::path(o.out) / "report.html", regress_html(in));
    fmt::print("{}: report {}/report.md (and .html), history {}\n", ok ? "PASS" : "FAIL", o.out, history);
    std::fflush(stdout);
    return ok ? 0 : 1;
}

}  // namespace gt
