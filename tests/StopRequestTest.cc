// Stopping a run cleanly at signals: the flag and its handlers, and the real binary stopped by a real
// signal (exit status 75, the message, no output file).
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "CommandTestSupport.hh"
#include "IoTestSupport.hh"
#include "TextTestSupport.hh"
#include "run/StopRequest.hh"

using namespace gt;
using namespace gt::test;

namespace {

//! A small ring (with an aperture that loses particles) with space charge; `turns` as asked.
std::string ring_deck(long turns, bool space_charge = true)
{
    return R"(
[run]
name = "ring"
seed = 7
[beam]
particle = "proton"
kinetic_energy = "10 MeV"
bunch_charge = "20 pC"
macroparticles = 400
distribution = "gaussian"
truncate = 4
[beam.twiss]
beta_x = 1.5
alpha_x = -1.0
emittance_x = "1 um"
beta_y = 0.5
alpha_y = 0.4
emittance_y = "1 um"
sigma_t = "30 mm"
sigma_pt = 1.0e-4
[elements]
QF  = { type = "quadrupole", length = "10 cm", k1 = 20.0 }
QD  = { type = "quadrupole", length = "10 cm", k1 = -20.0 }
D   = { type = "drift", length = "30 cm" }
MON = { type = "monitor" }
COL = { type = "aperture", shape = "rectangle", half_x = "1 mm", half_y = "1 mm" }
[lattice]
cell = ["QF", "D", "QD", "D"]
line = ["cell*2", "MON", "COL"]
turns = )" + std::to_string(turns) +
           R"(
[space_charge]
enabled = )" + (space_charge ? "true" : "false") +
           R"(
grid = [16, 16, 16]
kicks_per_meter = 10
deposition = "deterministic"
sort_every = 3
[output]
phase_space = ["MON", "end"]
stats = "every_element"
)";
}

void write_text(std::string const& path, std::string const& text) { std::ofstream(path) << text; }

std::string read_text(std::string const& path)
{
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

//! A child process running the gtrack binary, stdout and stderr into `log`.
pid_t start_gtrack(std::vector<std::string> args, std::string const& log)
{
    pid_t const pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        int const fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ::dup2(fd, 1);
        ::dup2(fd, 2);
        std::vector<char*> argv;
        std::string binary = GTRACK_BINARY;
        argv.push_back(binary.data());
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        ::execv(binary.c_str(), argv.data());
        ::_exit(127);
    }
    return pid;
}

//! Waits for the child up to `seconds`; kills it (and fails) when it does not end.
int wait_for(pid_t pid, double seconds)
{
    auto const deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    int status = 0;
    while (::waitpid(pid, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            FAIL("gtrack did not end within ", seconds, " s");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return status;
}

}  // namespace

TEST_CASE("a stop signal sets the flag once and names itself; a second one ends the process")
{
    {
        StopRequest stop;
        CHECK_FALSE(stop.requested());
        CHECK(stop.signal_name().empty());
        std::raise(SIGUSR1);  // delivered to this thread before raise() returns
        CHECK(stop.requested());
        CHECK(stop.signal_name() == "SIGUSR1");
        CHECK(stop.stop_here(0));
    }
    {
        StopRequest again;  // a new run starts without the old request
        CHECK_FALSE(again.requested());
    }
    // The second signal takes the default action: the process ends killed by it.
    pid_t const pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        StopRequest stop;
        std::raise(SIGUSR1);
        std::raise(SIGUSR1);
        ::_exit(0);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    REQUIRE(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGUSR1);
}

TEST_CASE("the test hook stops a ring run at a turn: exit status 75, the message, no output file")
{
    TempDir dir;
    write_text(dir.file("ring.toml"), ring_deck(6));
    std::string const out = dir.file("ring.h5");
    CommandResult const r = run_shell(std::string(k_test_stop_variable) + "=2 " + GTRACK_BINARY + " run " +
                                      dir.file("ring.toml") + " --backend cpu -q -o " + out);
    CHECK(r.status == k_exit_stopped);
    CHECK(contains(r.output, "SIGTERM received: stopping at the next safe point"));
    CHECK(contains(r.output, "stopped by SIGTERM after 2 of 6 turns"));
    CHECK_FALSE(std::filesystem::exists(out));
    CHECK(dir.entries().size() == 1);  // the deck only: no temporary left behind
}

TEST_CASE("a real SIGUSR1 sent to the running binary stops it with status 75 and no output file")
{
    TempDir dir;
    write_text(dir.file("long.toml"), ring_deck(1'000'000, false));  // runs far longer than the test
    std::string const out = dir.file("long.h5");
    std::string const log = dir.file("log.txt");
    pid_t const pid =
        start_gtrack({"run", dir.file("long.toml"), "--backend", "cpu", "--threads", "1", "-o", out}, log);
    // The temporary output exists once the run is set up: the handlers are in place by then.
    std::string const temp = out + ".tmp-" + std::to_string(pid);
    auto const deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!std::filesystem::exists(temp) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    REQUIRE(std::filesystem::exists(temp));
    ::kill(pid, SIGUSR1);
    int const status = wait_for(pid, 60);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == k_exit_stopped);
    std::string const text = read_text(log);
    CHECK(contains(text, "SIGUSR1 received: stopping at the next safe point"));
    CHECK(contains(text, "stopped by SIGUSR1 after"));
    CHECK_FALSE(std::filesystem::exists(out));
    CHECK_FALSE(std::filesystem::exists(temp));
}

TEST_CASE("a detector run stops between step iterations with status 75 and no output file")
{
    TempDir dir;
    std::string const out = dir.file("cal.h5");
    CommandResult const r =
        run_shell(std::string(k_test_stop_variable) + "=3 " + GTRACK_BINARY + " run " + GTRACK_SOURCE_DIR +
                  "/inputs/calorimeter.toml --backend cpu -q -o " + out);
    CHECK(r.status == k_exit_stopped);
    CHECK(contains(r.output, "stopped by SIGTERM after 3 step iterations"));
    CHECK_FALSE(std::filesystem::exists(out));
    CHECK(dir.entries().empty());
}
