// gtrack scan DECK --list | --count | --local [-j K]: the points of a deck's [scan], and running them all
// here.
//
// --local runs each point as a child process `gtrack run DECK --scan-index N --quiet`, exactly as a
// job-array task would, K at a time on the CPU (each with cores / K threads) or one after another on
// a GPU. A point whose output file is complete is skipped, so an interrupted scan resumes where it
// stopped; a file that is not a complete gtrack output of that point is run again (and replaced).
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "app/Commands.hh"
#include "deck/DeckReader.hh"
#include "deck/Scan.hh"
#include "deck/UnsetOverride.hh"
#include "kernels/core/Device.hh"
#include "run/ScanOutputs.hh"

extern char** environ;

namespace gt {

namespace {

//! Each point's output file: the deck's output.file (or -o) expanded for that point, which is read
//! with all the checks a run makes, so that a broken point is found before anything runs.
std::vector<std::string> output_names(CommandOptions const& options, DeckConfig const& deck)
{
    std::vector<std::string> names;
    for (std::uint64_t p = 0; p < deck.scan.size(); ++p) {
        DeckConfig const point = read_deck(options.deck, options.overrides, p);
        if (options.output.empty()) {
            names.push_back(point.output.file);
            continue;
        }
        try {
            names.push_back(expand_output_name(options.output, point.run.name, point.scan, p));
        } catch (ScanError const& e) {
            throw std::runtime_error(fmt::format("-o {}", e.what()));
        }
    }
    std::map<std::string, std::uint64_t> seen;
    for (std::uint64_t p = 0; p < names.size(); ++p)
        if (auto [it, fresh] = seen.emplace(names[p], p); !fresh)
            throw std::runtime_error(fmt::format(
                "scan points {} and {} would both write '{}': put {{index}} in -o", it->second, p, names[p]));
    return names;
}

std::string pad(std::string const& text, std::size_t width)
{
    return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

int list_points(CommandOptions const& options, DeckConfig const& deck, std::vector<std::string> const& names)
{
    ScanConfig const& scan = deck.scan;
    std::string shape;
    for (auto const& p : scan.parameters)
        shape += fmt::format("{}{}", shape.empty() ? "" : (scan.mode == ScanMode::zip ? " zip " : " x "),
                             p.labels.size());
    std::printf("%s: %llu points (%s: %s), output %s\n", options.deck.c_str(),
                static_cast<unsigned long long>(scan.size()), std::string(scan.mode_name()).c_str(),
                shape.c_str(),
                options.output.empty() ? deck.output.file_template.c_str() : options.output.c_str());
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> header = {"index"};
    for (auto const& p : scan.parameters) header.push_back(p.key);
    header.push_back("output");
    header.push_back("state");
    rows.push_back(header);
    for (std::uint64_t i = 0; i < scan.size(); ++i) {
        std::vector<std::string> row = {fmt::format("{}", i)};
        for (auto const& l : scan.labels_at(i)) row.push_back(l);
        row.push_back(names[i]);
        row.push_back(state_name(scan_output_status(names[i], scan, i).state));
        rows.push_back(std::move(row));
    }
    std::vector<std::size_t> width(header.size(), 0);
    for (auto const& r : rows)
        for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
    for (auto const& r : rows) {
        std::string line;
        for (std::size_t c = 0; c < r.size(); ++c) line += c + 1 == r.size() ? r[c] : pad(r[c], width[c] + 2);
        std::printf("%s\n", line.c_str());
    }
    return 0;
}

//! A point running as a child process; its stderr goes to a temporary file, printed when it ends.
struct Child {
    std::uint64_t point = 0;
    pid_t pid = -1;
    std::string log;
    std::chrono::steady_clock::time_point start;
};

std::string self_executable()
{
    std::error_code ec;
    auto const p = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) throw std::runtime_error(fmt::format("cannot find the gtrack executable: {}", ec.message()));
    return p.string();
}

Child spawn_point(std::string const& exe, std::vector<std::string> const& args, std::uint64_t point)
{
    char log_name[] = "/tmp/gtrack-scan-XXXXXX";
    int const log_fd = ::mkstemp(log_name);
    if (log_fd < 0)
        throw std::runtime_error(fmt::format("cannot create a log file in /tmp: {}", std::strerror(errno)));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, log_fd, STDERR_FILENO);
    posix_spawn_file_actions_addclose(&actions, log_fd);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(exe.c_str()));
    for (auto const& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    Child c;
    c.point = point;
    c.log = log_name;
    c.start = std::chrono::steady_clock::now();
    int const rc = posix_spawn(&c.pid, exe.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(log_fd);
    if (rc != 0) {
        std::filesystem::remove(c.log);
        throw std::runtime_error(fmt::format("cannot start '{}': {}", exe, std::strerror(rc)));
    }
    return c;
}

std::string read_and_remove(std::string const& path)
{
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    std::error_code ec;
    std::filesystem::remove(path, ec);
    return text.str();
}

int run_locally(CommandOptions const& options, DeckConfig const& deck, std::vector<std::string> const& names)
{
    ScanConfig const& scan = deck.scan;
    // One GPU runs one point at a time; on the CPU K points share the cores.
    std::string backend = options.backend.empty() ? (deck.run.backend == BackendChoice::cpu   ? "cpu"
                                                     : deck.run.backend == BackendChoice::gpu ? "gpu"
                                                                                              : "auto")
                                                  : options.backend;
    if (backend == "auto") backend = device::count() > 0 ? "gpu" : "cpu";
    int jobs = std::max(1, options.jobs);
    if (backend == "gpu" && jobs > 1) {
        std::printf("gtrack scan: on the GPU the points run one after another (-j %d applies to the CPU)\n",
                    jobs);
        jobs = 1;
    }
    int const cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    int const threads = options.threads > 0 ? options.threads : std::max(1, cores / jobs);

    std::vector<std::uint64_t> todo;
    std::size_t skipped = 0;
    for (std::uint64_t p = 0; p < scan.size(); ++p) {
        OutputStatus const s = scan_output_status(names[p], scan, p);
        if (s.state == OutputState::complete) {
            ++skipped;
            continue;
        }
        if (s.state != OutputState::missing)
            std::printf("point %llu: %s; running it again\n", static_cast<unsigned long long>(p),
                        s.reason.c_str());
        todo.push_back(p);
    }
    std::printf(
        "gtrack scan %s: %llu points, %zu complete already, %zu to run on the %s (%d at a time, %d "
        "thread%s each)\n",
        options.deck.c_str(), static_cast<unsigned long long>(scan.size()), skipped, todo.size(),
        backend == "gpu" ? "GPU" : "CPU", jobs, threads, threads == 1 ? "" : "s");
    std::fflush(stdout);

    std::string const exe = self_executable();
    std::vector<std::uint64_t> failed;
    std::size_t next = 0, finished = 0;
    std::map<pid_t, Child> running;
    while (next < todo.size() || !running.empty()) {
        while (next < todo.size() && static_cast<int>(running.size()) < jobs) {
            std::uint64_t const p = todo[next++];
            std::vector<std::string> args = {
                "run",       options.deck, "--scan-index", fmt::format("{}", p),       "--quiet",
                "--backend", backend,      "--threads",    fmt::format("{}", threads), "--resume",
                "auto"};  // a point stopped earlier goes on from its checkpoint
            for (auto const& o : options.overrides) {
                auto const unset_key = unset_key_of(o);
                args.push_back(unset_key ? "--unset" : "--set");
                args.push_back(unset_key.value_or(o));
            }
            if (!options.output.empty()) {
                args.push_back("-o");
                args.push_back(options.output);
            }
            Child c = spawn_point(exe, args, p);
            running.emplace(c.pid, std::move(c));
        }
        int status = 0;
        pid_t const pid = ::waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR) continue;
            throw std::runtime_error(fmt::format("waitpid: {}", std::strerror(errno)));
        }
        auto const it = running.find(pid);
        if (it == running.end()) continue;
        Child const c = std::move(it->second);
        running.erase(it);
        ++finished;
        double const seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - c.start).count();
        std::string const log = read_and_remove(c.log);
        bool const ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
        std::string const why = WIFEXITED(status)     ? fmt::format("exit status {}", WEXITSTATUS(status))
                                : WIFSIGNALED(status) ? fmt::format("signal {}", WTERMSIG(status))
                                                      : std::string("stopped");
        std::printf("[%zu/%zu] point %llu (%s): %s in %.2f s%s\n", finished, todo.size(),
                    static_cast<unsigned long long>(c.point), scan.describe_point(c.point).c_str(),
                    ok ? "done" : "FAILED", seconds,
                    ok ? fmt::format(" -> {}", names[c.point]).c_str() : fmt::format(" ({})", why).c_str());
        if (!log.empty()) {
            std::istringstream lines(log);
            for (std::string line; std::getline(lines, line);) std::printf("    %s\n", line.c_str());
        }
        std::fflush(stdout);
        if (!ok) failed.push_back(c.point);
    }
    std::sort(failed.begin(), failed.end());
    std::string failed_list;
    for (auto p : failed) failed_list += fmt::format("{}{}", failed_list.empty() ? "" : ", ", p);
    std::printf("gtrack scan: %zu run, %zu skipped (complete), %zu failed%s\n", todo.size() - failed.size(),
                skipped, failed.size(),
                failed.empty() ? "" : fmt::format(": points {}", failed_list).c_str());
    return failed.empty() ? 0 : 1;
}

}  // namespace

int scan_command(CommandOptions const& options)
{
    DeckConfig const deck = read_deck(options.deck, options.overrides);
    if (deck.scan.empty())
        throw std::runtime_error(
            fmt::format("{} has no [scan] table: run it with 'gtrack run {}'", options.deck, options.deck));
    if (options.count) {
        std::printf("%llu\n", static_cast<unsigned long long>(deck.scan.size()));
        return 0;
    }
    std::vector<std::string> const names = output_names(options, deck);
    if (options.local) return run_locally(options, deck, names);
    return list_points(options, deck, names);
}

}  // namespace gt
