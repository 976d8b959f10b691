// Stopping a run cleanly at signals: the flag and its handlers, and the real binary stopped by a real
// signal (exit status 75, the message, no output file, a checkpoint that resumes).
#include <doctest/doctest.h>


#include <csignal>
#include <filesystem>
#include <string>

#include "CheckpointTestSupport.hh"
#include "CommandTestSupport.hh"
#include "IoTestSupport.hh"
#include "TextTestSupport.hh"
#include "run/StopRequest.hh"

using namespace gt;
using namespace gt::test;


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

TEST_CASE("the test hook stops a ring run at a turn: exit status 75, the message, a checkpoint, no output")
{
    TempDir dir;
    write_text(dir.file("ring.toml"), ring_deck(6));
    std::string const out = dir.file("ring.h5");
    CommandResult const r = run_shell(std::string(k_test_stop_variable) + "=2 " + GTRACK_BINARY + " run " +
                                      dir.file("ring.toml") + " --backend cpu -q -o " + out);
    CHECK(r.status == k_exit_stopped);
    CHECK(contains(r.output, "SIGTERM received: stopping at the next safe point"));
    CHECK(contains(r.output, "stopped by SIGTERM after 2 of 6 turns and 0 of 34 entries"));
    CHECK(contains(r.output, "Resume with the same command and --resume " + out + ".ckpt"));
    CHECK_FALSE(std::filesystem::exists(out));
    CHECK(std::filesystem::exists(out + ".ckpt"));
    CHECK(dir.entries().size() == 2);  // the deck and the checkpoint: no temporary left behind
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
    // The checkpoint is valid: the run goes on from it (to the next safe point, where the hook stops it).
    REQUIRE(std::filesystem::exists(out + ".ckpt"));
    CommandResult const again =
        run_shell(std::string(k_test_stop_variable) + "=0 " + GTRACK_BINARY + " run " + dir.file("long.toml") +
                  " --backend cpu --threads 1 -o " + out + " --resume " + out + ".ckpt");
    CHECK(again.status == k_exit_stopped);
    CHECK(contains(again.output, "resuming from " + out + ".ckpt"));
    CHECK(contains(again.output, "stopped by SIGTERM after"));
}

TEST_CASE("a detector run stops between two iterations with status 75, a checkpoint and no output file")
{
    TempDir dir;
    std::string const out = dir.file("cal.h5");
    CommandResult const r =
        run_shell(std::string(k_test_stop_variable) + "=3 " + GTRACK_BINARY + " run " + GTRACK_SOURCE_DIR +
                  "/inputs/calorimeter.toml --backend cpu -q --set gun.events=50 --set run.track_slots=128 -o " +
                  out);
    CHECK(r.status == k_exit_stopped);
    CHECK(contains(r.output, "stopped by SIGTERM after 3 step iterations"));
    CHECK(contains(r.output, " of 50 events started"));
    CHECK_FALSE(std::filesystem::exists(out));
    CHECK(dir.entries() == std::vector<std::string>{"cal.h5.ckpt"});
}
