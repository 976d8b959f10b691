// Checkpoint and restart of detector runs through the real binary: stopped by a signal at several
// points (and twice), checkpointed every N events and crashed, checkpointed by wall time at nearly
// every iteration, then resumed, the output is bit for bit the uninterrupted one; a checkpoint of
// another deck or run kind is refused.
#include <doctest/doctest.h>

#include <csignal>
#include <filesystem>
#include <string>
#include <vector>

#include "CheckpointTestSupport.hh"
#include "CommandTestSupport.hh"
#include "IoTestSupport.hh"
#include "TextTestSupport.hh"
#include "io/H5Access.hh"
#include "io/H5Handle.hh"
#include "run/StopRequest.hh"

using namespace gt;
using namespace gt::test;

namespace {

//! Figures of the schedule, not results: how many step iterations the runs took, how often an
//! interaction waited for room and the most secondaries waiting (a drain to an event boundary
//! empties the pool, so the next iterations are scheduled differently).
std::vector<std::string> const k_schedule = {"detector@iterations", "detector@held_back",
                                             "detector@secondary_stack_peak"};

//! The calorimeter example cut down: 40 events of 10 electrons in 64 slots, so that the events start in
//! many batches and a stop falls among them.
std::string const k_calorimeter = std::string(GTRACK_SOURCE_DIR) +
                                  "/inputs/calorimeter.toml --set gun.events=40 --set run.track_slots=64 "
                                  "--set 'gun.energy=\"200 MeV\"'";
//! Electron showers in lead (secondaries, per-event energy balances), 24 events in 8 slots with room
//! for 3 new secondaries per iteration, so that interactions are held back and events start in batches.
std::string const k_showers = std::string(GTRACK_SOURCE_DIR) +
                              "/tests/data/shower_lead.toml --set gun.events=24 --set run.track_slots=8 "
                              "--set physics.secondary_buffer=3 --set 'gun.energy=\"50 MeV\"'";

CommandResult run(std::string const& env, std::string const& deck, std::string const& out,
                  std::string const& more = "")
{
    return run_shell(env + " " + GTRACK_BINARY + " run " + deck + " --backend cpu --threads 1 -q -o " + out +
                     " " + more);
}

std::string stop_at(long n) { return std::string(k_test_stop_variable) + "=" + std::to_string(n); }

bool killed(CommandResult const& r) { return r.status == -1 || r.status == 128 + SIGKILL; }

std::uint64_t next_event(std::string const& checkpoint)
{
    h5::File f = h5::open_file_readonly(checkpoint);
    return h5::read_uint64_attribute(f, "next_event");
}

}  // namespace

TEST_CASE("a detector run stopped by a signal at several iterations resumes to the same bits")
{
    TempDir dir;
    std::string const reference = dir.file("reference.h5");
    REQUIRE(run("", k_calorimeter, reference).status == 0);
    std::uint64_t last = 0;
    for (long iteration : {1, 150, 350}) {  // of 561 iterations uninterrupted
        CAPTURE(iteration);
        std::string const out = dir.file("resumed_" + std::to_string(iteration) + ".h5");
        CommandResult const stopped = run(stop_at(iteration), k_calorimeter, out);
        INFO(stopped.output);
        REQUIRE(stopped.status == k_exit_stopped);
        CHECK(contains(stopped.output, "of 40 events"));
        CHECK(contains(stopped.output, "Resume with the same command and --resume " + out + ".ckpt"));
        CHECK_FALSE(std::filesystem::exists(out));
        REQUIRE(std::filesystem::exists(out + ".ckpt"));
        // Stopped among the events, later for a later signal.
        std::uint64_t const done = next_event(out + ".ckpt");
        CHECK(done > last);
        CHECK(done < 40);
        last = done;
        CommandResult const resumed = run("", k_calorimeter, out, "--resume " + out + ".ckpt");
        INFO(resumed.output);
        REQUIRE(resumed.status == 0);
        check_identical(reference, out, k_schedule);
        CHECK_FALSE(std::filesystem::exists(out + ".ckpt"));
    }
}

TEST_CASE("a shower run stopped twice and resumed ('auto') gives the same hits, tallies and energy balances")
{
    TempDir dir;
    std::string const reference = dir.file("reference.h5");
    REQUIRE(run("", k_showers, reference).status == 0);
    std::string const out = dir.file("twice.h5");
    REQUIRE(run(stop_at(40), k_showers, out).status == k_exit_stopped);
    std::uint64_t const first = next_event(out + ".ckpt");
    CHECK(first > 0);
    // The iteration count goes on over the chain (the first run ended after about 230 of 685).
    CommandResult const again = run(stop_at(260), k_showers, out, "--resume auto");
    INFO(again.output);
    REQUIRE(again.status == k_exit_stopped);
    CHECK(contains(again.output, "stopped by SIGTERM after "));
    std::uint64_t const second = next_event(out + ".ckpt");
    CHECK(second > first);
    CHECK(second < 24);
    CommandResult const last = run("", k_showers, out, "--resume auto");
    INFO(last.output);
    REQUIRE(last.status == 0);
    check_identical(reference, out, k_schedule);
    {
        h5::File f = h5::open_file_readonly(out);
        CHECK(h5::read_doubles(f, "energy_balance/deposited").size() == 24);
        CHECK(h5::read_uint64_attribute(h5::open_group(f, "detector"), "held_back") >
              0);  // the case is covered
    }
}

TEST_CASE("periodic detector checkpoints: by events (then a crash) and by wall time change no bit")
{
    TempDir dir;
    std::string const reference = dir.file("reference.h5");
    REQUIRE(run("", k_calorimeter, reference).status == 0);

    SUBCASE("every 7 events, killed by SIGKILL: resumed from the last checkpoint")
    {
        std::string const out = dir.file("crash.h5");
        CommandResult const crashed = run(std::string(k_test_kill_variable) + "=350", k_calorimeter, out,
                                          "--set output.checkpoint_every=7");
        REQUIRE(killed(crashed));
        REQUIRE(std::filesystem::exists(out + ".ckpt"));
        std::uint64_t const done = next_event(out + ".ckpt");
        CHECK(done % 7 == 0);
        CHECK(done > 0);
        REQUIRE(run("", k_calorimeter, out, "--set output.checkpoint_every=7 --resume auto").status == 0);
        check_identical(reference, out, k_schedule);
    }
    SUBCASE("every millisecond of wall time: a drain and a checkpoint after nearly every iteration")
    {
        std::string const out = dir.file("often.h5");
        CommandResult const r = run("", k_calorimeter, out, "--set 'output.checkpoint_every=\"0.001 s\"'");
        INFO(r.output);
        REQUIRE(r.status == 0);
        check_identical(reference, out, k_schedule);
        CHECK_FALSE(std::filesystem::exists(out + ".ckpt"));
    }
}

TEST_CASE("a detector checkpoint is refused for another deck and another run kind")
{
    TempDir dir;
    std::string const out = dir.file("cal.h5");
    REQUIRE(run(stop_at(10), k_calorimeter, out).status == k_exit_stopped);
    std::string const checkpoint = out + ".ckpt";

    CommandResult const other =
        run("", k_calorimeter + " --set gun.energy=\"300 MeV\"", out, "--resume " + checkpoint);
    CHECK(other.status == 1);
    CHECK(contains(other.output, "cannot resume"));
    CHECK(contains(other.output, "deck"));
    CHECK_FALSE(std::filesystem::exists(out));

    // A beamline deck given the detector's checkpoint: refused by kind.
    std::string const ring = dir.file("ring.toml");
    write_text(ring, ring_deck(2, false));
    CommandResult const beam = run("", ring, dir.file("ring.h5"), "--resume " + checkpoint);
    CHECK(beam.status == 1);
    CHECK(contains(beam.output, "is the checkpoint of a detector run, this deck is a beamline run"));

    // --resume auto with a checkpoint of another deck starts over (and says why), then completes.
    CommandResult const fresh =
        run("", k_calorimeter + " --set gun.energy=\"300 MeV\"", out, "--resume auto");
    INFO(fresh.output);
    CHECK(fresh.status == 0);
    CHECK(contains(fresh.output, "starting from the beginning"));
    CHECK(std::filesystem::exists(out));
    CHECK_FALSE(std::filesystem::exists(checkpoint));
}
