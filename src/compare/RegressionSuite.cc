// gtrack regress: run a suite's cases (child processes, a few at once), compare, keep each result.
#include "compare/RegressionSuite.hh"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "compare/FileComparison.hh"

extern char** environ;

namespace gt {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

//! One child process: its arguments, where its output goes, and what it is for.
struct Job {
    std::vector<std::string> args;
    std::string log;
    std::size_t case_index = 0;
    std::string backend;  //!< "" for a validate job
    int status = -1;      //!< exit status (128 + signal), -1 before it ended
    double seconds = 0;
};

pid_t start(Job const& job)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, job.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::vector<char*> argv;
    for (auto const& a : job.args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = -1;
    int const rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
        throw std::runtime_error(fmt::format("cannot start '{}': {}", job.args[0], std::strerror(rc)));
    return pid;
}

//! Runs every job, at most `parallel` at once; fills in their status and time.
void run_jobs(std::vector<Job>& jobs, int parallel)
{
    std::map<pid_t, std::pair<std::size_t, Clock::time_point>> running;
    std::size_t next = 0;
    while (next < jobs.size() || !running.empty()) {
        while (next < jobs.size() && int(running.size()) < std::max(parallel, 1)) {
            running[start(jobs[next])] = {next, Clock::now()};
            ++next;
        }
        int status = 0;
        pid_t const pid = waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR) continue;
            throw std::runtime_error(fmt::format("waiting for the cases' runs: {}", std::strerror(errno)));
        }
        auto it = running.find(pid);
        if (it == running.end()) continue;  // not ours
        Job& job = jobs[it->second.first];
        job.status = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
        job.seconds = std::chrono::duration<double>(Clock::now() - it->second.second).count();
        running.erase(it);
    }
}

std::string tail_of(std::string const& path, std::size_t lines)
{
    std::ifstream in(path);
    std::vector<std::string> all;
    for (std::string line; std::getline(in, line);) all.push_back(line);
    std::string out;
    for (std::size_t i = all.size() > lines ? all.size() - lines : 0; i < all.size(); ++i)
        out += all[i] + "\n";
    return out;
}

std::string this_executable()
{
    std::error_code ec;
    fs::path const exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) throw std::runtime_error("gtrack regress: cannot find its own executable; pass --gtrack PATH");
    return exe.string();
}

void write_text(std::string const& path, std::string const& text)
{
    std::ofstream f(path);
    f << text;
    if (!f) throw std::runtime_error(fmt::format("cannot write '{}'", path));
}

//! The output of a case's run on `backend`: NAME.h5, or NAME.BACKEND.h5 when several backends run.
std::string output_of(RegressOptions const& o, std::string const& name, std::string const& backend)
{
    return (fs::path(o.out) / (o.backends.size() > 1 ? name + "." + backend + ".h5" : name + ".h5")).string();
}

std::string stem_of(RegressOptions const& o, std::string const& name, std::string const& backend)
{
    return (fs::path(o.out) / (o.backends.size() > 1 ? name + "." + backend : name)).string();
}

//! Compares (or, with update, replaces) the reference of one case's run; prints what it found.
void judge(RegressOptions const& o, fs::path const& dir, std::string const& name, CaseRun& run)
{
    std::string const out = output_of(o, name, run.backend);
    std::string const stem = stem_of(o, name, run.backend);
    fs::path const reference = dir / "reference.h5";
    CompareOptions co;
    if (!o.update && fs::exists(dir / "tolerances.toml"))
        co.tolerances.read_file((dir / "tolerances.toml").string());
    if (o.update) {
        std::string text;
        if (fs::exists(reference)) {
            try {  // the old reference against the new output, bitwise: what this update changes
                text = comparison_report(compare_files(reference.string(), out, co));
            } catch (ComparisonRefused const& e) {
                text = std::string(e.what()) + "\n";
            }
        } else {
            text = "  (no reference yet: this is the first one)\n";
        }
        fmt::print("== {}: the old reference against the new output (bitwise)\n{}", name, text);
        write_text(stem + ".update.txt", text);
        fs::copy_file(out, reference, fs::copy_options::overwrite_existing);
        fmt::print("   updated {} ({} bytes): review the table above before committing\n", reference.string(),
                   fs::file_size(reference));
        run.verdict = "UPDATED";
        return;
    }
    if (!fs::exists(reference)) {
        run.verdict = "NO REFERENCE";
        run.moved.push_back(fmt::format("no {}: make one with gtrack regress --update", reference.string()));
        fmt::print("== {}: {}\n", name, run.moved.back());
        return;
    }
    std::string text;
    try {
        FileComparison const c = compare_files(reference.string(), out, co);
        text = comparison_report(c);
        run.verdict = c.ok() ? "PASS" : "FAIL";
        run.moved = c.failed_paths();
    } catch (ComparisonRefused const& e) {
        text = fmt::format("gtrack compare: {}\n", e.what());
        run.verdict = "FAIL";
        run.moved.push_back("structure differs (see the compare table)");
    }
    write_text(stem + ".compare.txt", text);
    if (!run.ok() && !o.quiet)
        fmt::print("== {} ({}): differs from its reference\n{}", name, run.backend, text);
}

void write_case_result(std::string const& out, CaseResult const& r)
{
    std::string text = fmt::format("case\t{}\nvalidate\t{}\n", r.name, r.validate);
    for (auto const& run : r.runs) {
        text += fmt::format("run\t{}\t{}\t{:.3f}\n", run.backend, run.verdict, run.seconds);
        for (auto const& m : run.moved) text += fmt::format("moved\t{}\n", m);
        for (auto const& [name, value] : run.figures)
            text += fmt::format("figure\t{}\t{:.17g}\n", name, value);
    }
    write_text((fs::path(out) / (r.name + ".result")).string(), text);
}

}  // namespace

bool CaseResult::ok() const
{
    for (auto const& r : runs)
        if (!r.ok()) return false;
    return validate.empty() || validate == "PASS" || validate.rfind("skipped", 0) == 0;
}

std::vector<std::string> suite_cases(std::string const& suite)
{
    if (!fs::is_directory(suite))
        throw std::runtime_error(fmt::format("gtrack regress: no suite folder '{}'", suite));
    std::vector<std::string> names;
    for (auto const& e : fs::directory_iterator(suite))
        if (e.is_directory() && fs::is_regular_file(e.path() / "deck.toml"))
            names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    if (names.empty())
        throw std::runtime_error(fmt::format(
            "gtrack regress: '{}' holds no case (a sub-folder with a deck.toml, its reference.h5 beside it)",
            suite));
    return names;
}

std::vector<CaseResult> run_suite(RegressOptions const& o)
{
    std::vector<std::string> names = o.names.empty() ? suite_cases(o.suite) : o.names;
    if (o.task >= 0) {
        if (std::size_t(o.task) >= names.size())
            throw std::runtime_error(
                fmt::format("gtrack regress: --task {} but the suite '{}' has {} cases (0 to {})", o.task,
                            o.suite, names.size(), names.size() - 1));
        names = {names[std::size_t(o.task)]};
    }
    for (auto const& n : names)
        if (!fs::is_regular_file(fs::path(o.suite) / n / "deck.toml"))
            throw std::runtime_error(fmt::format("gtrack regress: no case '{}': '{}' does not exist", n,
                                                 (fs::path(o.suite) / n / "deck.toml").string()));
    if (o.update && o.backends.size() != 1)
        throw std::runtime_error("gtrack regress --update: name one backend (the references come from one)");
    fs::create_directories(o.out);
    std::string const gtrack = o.gtrack.empty() ? this_executable() : o.gtrack;
    std::string const threads = std::to_string(o.threads);

    std::vector<Job> jobs;
    for (std::size_t i = 0; i < names.size(); ++i) {
        fs::path const dir = fs::path(o.suite) / names[i];
        std::string const deck = (dir / "deck.toml").string();
        for (auto const& b : o.backends)
            jobs.push_back(Job{{gtrack, "run", deck, "--backend", b, "--threads", threads, "-q", "-o",
                                output_of(o, names[i], b)},
                               stem_of(o, names[i], b) + ".run.log",
                               i,
                               b});
        if (o.validate) {
            Job v{{gtrack, "validate", deck, "--threads", threads, "--report",
                   (fs::path(o.out) / (names[i] + "-validate.md")).string()},
                  (fs::path(o.out) / (names[i] + ".validate.txt")).string(),
                  i,
                  ""};
            // A deck whose backends cannot agree bit for bit (FFTW against cuFFT) says how closely.
            if (fs::exists(dir / "validate.toml"))
                v.args.insert(v.args.begin() + 3, {"--tolerances", (dir / "validate.toml").string()});
            jobs.push_back(std::move(v));
        }
    }
    run_jobs(jobs, o.jobs);

    std::vector<CaseResult> results(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) results[i].name = names[i];
    for (Job const& job : jobs) {
        CaseResult& r = results[job.case_index];
        if (job.backend.empty()) {  // validate: 77 is "no GPU here"
            r.validate = job.status == 0 ? "PASS" : job.status == 77 ? "skipped (no GPU)" : "FAIL";
            if (r.validate == "FAIL") fmt::print("== {}: validate FAILED\n{}", r.name, tail_of(job.log, 5));
            continue;
        }
        CaseRun run;
        run.backend = job.backend;
        run.seconds = job.seconds;
        if (job.status != 0) {
            run.verdict = "RUN FAILED";
            run.moved.push_back(fmt::format("the run exited with status {} ({})", job.status, job.log));
            fmt::print("== {} ({}): the run FAILED\n{}", r.name, job.backend, tail_of(job.log, 20));
        } else {
            judge(o, fs::path(o.suite) / r.name, r.name, run);
            try {
                run.figures = headline_figures(output_of(o, r.name, job.backend));
            } catch (std::exception const& e) {
                fmt::print("== {}: no headline figures: {}\n", r.name, e.what());
            }
        }
        r.runs.push_back(std::move(run));
    }
    for (auto const& r : results) write_case_result(o.out, r);
    std::fflush(stdout);
    return results;
}

CaseResult read_case_result(std::string const& out, std::string const& name)
{
    fs::path const path = fs::path(out) / (name + ".result");
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error(fmt::format(
            "gtrack regress --collect: no result for case '{}' ({} is missing: did its task run?)", name,
            path.string()));
    CaseResult r;
    r.name = name;
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> f;
        std::stringstream ss(line);
        for (std::string x; std::getline(ss, x, '\t');) f.push_back(x);
        if (f.empty()) continue;
        if (f[0] == "validate")
            r.validate = f.size() > 1 ? f[1] : "";
        else if (f[0] == "run" && f.size() == 4)
            r.runs.push_back(CaseRun{f[1], f[2], std::stod(f[3]), {}, {}});
        else if (f[0] == "moved" && f.size() == 2 && !r.runs.empty())
            r.runs.back().moved.push_back(f[1]);
        else if (f[0] == "figure" && f.size() == 3 && !r.runs.empty())
            r.runs.back().figures.emplace_back(f[1], std::stod(f[2]));
    }
    return r;
}

}  // namespace gt
