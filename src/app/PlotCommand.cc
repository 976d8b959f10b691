// gtrack plot OUT.h5 [-o DIR]: pictures of one output file, drawn by the Python program shipped with
// gtrack (scripts/gtrack_plot.py, installed as <prefix>/share/gtrack/gtrack_plot.py). The pictures come
// from the file alone, never the deck (docs/output.md, "Pictures"); this command only finds the program
// and an interpreter and runs it.
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "app/Commands.hh"

extern char** environ;

namespace gt {

namespace {

namespace fs = std::filesystem;

constexpr char const* k_script = "gtrack_plot.py";
constexpr char const* k_install_hint =
    "gtrack plot needs Python 3 with h5py, numpy and matplotlib: run scripts/install-deps.sh --python "
    "(or: python3 -m pip install h5py numpy matplotlib), or name an interpreter that has them with "
    "$GTRACK_PYTHON";

//! Where the plotting program may be, in order: beside an installed executable (<prefix>/bin/gtrack
//! and <prefix>/share/gtrack), the configured install prefix, and the source tree this gtrack was built
//! from. $GTRACK_PLOT_SCRIPT, when set, is the only candidate.
std::vector<fs::path> script_candidates(std::string const& script)
{
    if (char const* env = std::getenv("GTRACK_PLOT_SCRIPT");
        script == k_script && env != nullptr && *env != '\0')
        return {env};
    std::vector<fs::path> out;
    std::error_code ec;
    fs::path const exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) out.push_back(exe.parent_path() / GTRACK_DATA_FROM_BIN / script);
    out.push_back(fs::path(GTRACK_INSTALL_DATADIR) / script);
    out.push_back(fs::path(GTRACK_SOURCE_DIR) / "scripts" / script);
    return out;
}

fs::path find_script(std::string const& script)
{
    std::string tried;
    for (auto const& p : script_candidates(script)) {
        if (fs::is_regular_file(p)) return p;
        tried += "\n  " + p.string();
    }
    throw std::runtime_error(fmt::format(
        "cannot find the plotting program {}; looked at:{}\nreinstall gtrack (cmake --install){}", script, tried,
        script == k_script ? ", or set GTRACK_PLOT_SCRIPT to the path of scripts/gtrack_plot.py of gtrack's sources"
                           : ""));
}

}  // namespace

int plot_command(PlotOptions const& options)
{
    std::vector<std::string> args{options.file};
    if (!options.output.empty()) args.insert(args.end(), {"-o", options.output});
    if (!options.format.empty()) args.insert(args.end(), {"--format", options.format});
    if (options.max_points > 0) args.insert(args.end(), {"--max-points", std::to_string(options.max_points)});
    if (options.bins > 0) args.insert(args.end(), {"--bins", std::to_string(options.bins)});
    try {
        return run_shipped_script(k_script, args);
    } catch (std::runtime_error const& e) {
        throw std::runtime_error(std::string("gtrack plot: ") + e.what());
    }
}

int run_shipped_script(std::string const& script_name, std::vector<std::string> const& script_args)
{
    fs::path const script = find_script(script_name);
    char const* env = std::getenv("GTRACK_PYTHON");
    std::string const python = env != nullptr && *env != '\0' ? env : "python3";
    std::vector<std::string> args{python, script.string()};
    args.insert(args.end(), script_args.begin(), script_args.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    int const rc = posix_spawnp(&pid, python.c_str(), nullptr, nullptr, argv.data(), environ);
    if (rc != 0)
        throw std::runtime_error(
            fmt::format("cannot start '{}': {}\n{}", python, std::strerror(rc), k_install_hint));
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            throw std::runtime_error(fmt::format("waiting for {}: {}", python, std::strerror(errno)));
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}

}  // namespace gt
