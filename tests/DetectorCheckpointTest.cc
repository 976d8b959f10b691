// Checkpoint and restart of detector runs through the real binary: stopped by a signal at several
// iterations (and twice), and twice inside one iteration of the CPU track loop, checkpointed every N
// events and crashed, checkpointed by wall time at nearly every iteration (and track), then resumed,
// the output is the uninterrupted run's in every dataset and attribute, the schedule's figures (step
// iterations, interactions held back, the secondary stack's peak) included; a checkpoint of another
// deck or run kind is refused.
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

//! The only attributes allowed to differ: times of day (the chain keeps its first run's start time,
//! the reference has its own; each ends at its own time).
std::vector<std::string> const k_wall_clock = {"provenance@start_time", "provenance@end_time"};

//! The calorimeter example cut down: 40 events of 10 electrons in 64 slots, so that the events start in
//! many batches and a stop falls among them.
std::string const k_calorimeter = std::string(GTRACK_SOURCE_DIR) +
                                  "/inputs/calorimeter.toml --set gun.events=40 --set run.track_slots=64 "
                                  "--set 'gun.energy=\"200 MeV\"'";
//! The same with room for every primary at once: the CPU track loop's first step iteration runs all 400
//! to their end, so that a stop falls inside it (at one of its stop points between tracks).
std::string const k_one_iteration = std::string(GTRACK_SOURCE_DIR) +
                                    "/inputs/calorimeter.toml --set gun.events=40 --set run.track_slots=512 "
                                    "--set 'gun.energy=\"200 MeV\"'";
//! Electron showers in lead (secondaries, per-event energy balances), 24 events in 8 slots with room
//! for 3 new secondaries per iteration, so that interactions are held back and events start in batches.
std::string const k_showers = std::string(GTRACK_SOURCE_DIR) +
                              "/tests/data/shower_lead.toml --set gun.events=24 --set run.track_slots=8 "
                              "--set physics.secondary_buffer=3 --set 'gun.energy=\"50 MeV\"'";

//! gtrack run DECK -o OUT --resume auto MORE: every run of a test has the same command line (the
//! output's provenance holds it), the first of a chain finds no checkpoint and starts afresh.
CommandResult run(std::string const& env, std::string const& deck, std::string const& out,
                  std::string const& more = "")
{
    return run_shell(env + " " + GTRACK_BINARY + " run " + deck + " --backend cpu --threads 1 -q -o " + out +
                     " --resume auto " + more);
}

//! The uninterrupted run, written to `out` and moved to `reference` (the runs compared with it write `out`).
void run_reference(std::string const& deck, std::string const& out, std::string const& reference,
                   std::string const& more = "")
{
    CommandResult const r = run("", deck, out, more);
    INFO(r.output);
    REQUIRE(r.status == 0);
    std::filesystem::rename(out, reference);
}

//! gtrack run DECK -o OUT MORE, without the --resume of run().
CommandResult run_once(std::string const& deck, std::string const& out, std::string const& more)
{
    return run_shell(std::string(GTRACK_BINARY) + " run " + deck + " --backend cpu --threads 1 -q -o " + out +
                     " " + more);
}

std::string stop_at(long n) { return std::string(k_test_stop_variable) + "=" + std::to_string(n); }

std::string stop_at_track(long n)
{
    return std::string(k_test_stop_track_variable) + "=" + std::to_string(n);
}

bool killed(CommandResult const& r) { return r.status == -1 || r.status == 128 + SIGKILL; }

std::uint64_t root_attribute(std::string const& checkpoint, std::string const& name)
{
    h5::File f = h5::open_file_readonly(checkpoint);
    return h5::read_uint64_attribute(f, name);
}

std::uint64_t next_primary(std::string const& checkpoint)
{
    h5::File f = h5::open_file_readonly(checkpoint);
    return h5::read_uint64_attribute(h5::open_group(f, "rank0"), "next_primary");
}

}  // namespace

TEST_CASE("a detector run stopped by a signal at several iterations resumes to every bit")
{
    TempDir dir;
    std::string const out = dir.file("cal.h5"), reference = dir.file("reference.h5");
    run_reference(k_calorimeter, out, reference);
    std::uint64_t last = 0;
    for (long iteration : {1, 150, 350}) {  // of 561 iterations uninterrupted
        CAPTURE(iteration);
        CommandResult const stopped = run(stop_at(iteration), k_calorimeter, out);
        INFO(stopped.output);
        REQUIRE(stopped.status == k_exit_stopped);
        CHECK(contains(stopped.output,
                       "stopped by SIGTERM after " + std::to_string(iteration) + " step iterations"));
        CHECK(contains(stopped.output, "of 40 events started"));
        CHECK(contains(stopped.output, "Resume with the same command and --resume " + out + ".ckpt"));
        CHECK_FALSE(std::filesystem::exists(out));
        REQUIRE(std::filesystem::exists(out + ".ckpt"));
        // Stopped at once, with tracks in flight: later for a later signal, the gun not done.
        CHECK(root_attribute(out + ".ckpt", "iterations") == std::uint64_t(iteration));
        std::uint64_t const started = next_primary(out + ".ckpt");
        CHECK(started > last);
        CHECK(started < 400);
        last = started;
        CommandResult const resumed = run("", k_calorimeter, out);
        INFO(resumed.output);
        REQUIRE(resumed.status == 0);
        check_every_bit(reference, out, k_wall_clock);
        CHECK_FALSE(std::filesystem::exists(out + ".ckpt"));
        std::filesystem::remove(out);
    }
}

TEST_CASE("a track-loop run stopped inside its step iteration, twice, resumes to every bit")
{
    TempDir dir;
    std::string const out = dir.file("cal.h5"), reference = dir.file("reference.h5");
    run_reference(k_one_iteration, out, reference);
    {
        // Every track starts in the first iteration: a stop between iterations would come after all.
        h5::File f = h5::open_file_readonly(reference);
        REQUIRE(h5::read_uint64_attribute(h5::open_group(f, "detector"), "iterations") > 1);
    }
    // The count of tracks run to their end goes on over the chain (one thread: exactly at the hook).
    for (long tracked : {150, 300}) {
        CAPTURE(tracked);
        CommandResult const stopped = run(stop_at_track(tracked), k_one_iteration, out);
        INFO(stopped.output);
        REQUIRE(stopped.status == k_exit_stopped);
        // Inside the first iteration, without timing: no iteration over, all 400 primaries started.
        CHECK(contains(stopped.output, "stopped by SIGTERM after 0 step iterations and " +
                                           std::to_string(tracked) +
                                           " of the 400 tracks of the next, with 40 of 40 events started"));
        CHECK(root_attribute(out + ".ckpt", "iterations") == 0);
        CHECK(next_primary(out + ".ckpt") == 400);
    }
    CommandResult const resumed = run("", k_one_iteration, out);
    INFO(resumed.output);
    REQUIRE(resumed.status == 0);
    check_every_bit(reference, out, k_wall_clock);
    std::filesystem::remove(out);

    // Wall-time checkpoints inside the iteration (every millisecond: after nearly every track) change
    // nothing but the command line that asked for them.
    CommandResult const often = run("", k_one_iteration, out, "--set 'output.checkpoint_every=\"0.001 s\"'");
    INFO(often.output);
    REQUIRE(often.status == 0);
    check_every_bit(reference, out,
                    {"provenance@start_time", "provenance@end_time", "provenance@command_line",
                     "provenance@overrides"});
}

TEST_CASE("a shower run stopped twice and resumed gives every bit, held-back interactions included")
{
    TempDir dir;
    std::string const out = dir.file("twice.h5"), reference = dir.file("reference.h5");
    run_reference(k_showers, out, reference);
    REQUIRE(run(stop_at(40), k_showers, out).status == k_exit_stopped);
    std::uint64_t const first = next_primary(out + ".ckpt");
    CHECK(first > 0);
    // The iteration count goes on over the chain (923 uninterrupted since the shower e+- scattering got its boundary step limit).
    CommandResult const again = run(stop_at(450), k_showers, out);
    INFO(again.output);
    REQUIRE(again.status == k_exit_stopped);
    CHECK(contains(again.output, "stopped by SIGTERM after 450 step iterations"));
    std::uint64_t const second = next_primary(out + ".ckpt");
    CHECK(second > first);
    CHECK(second < 24);
    {
        // Secondaries were waiting at the stop: the checkpoint holds them.
        h5::File f = h5::open_file_readonly(out + ".ckpt");
        h5::Group const rank0 = h5::open_group(f, "rank0");
        CHECK(h5::read_uint64_attribute(rank0, "secondaries_waiting") > 0);
    }
    CommandResult const last = run("", k_showers, out);
    INFO(last.output);
    REQUIRE(last.status == 0);
    check_every_bit(reference, out, k_wall_clock);
    {
        h5::File f = h5::open_file_readonly(out);
        CHECK(h5::read_doubles(f, "energy_balance/deposited").size() == 24);
        CHECK(h5::read_uint64_attribute(h5::open_group(f, "detector"), "held_back") >
              0);  // the case is covered
    }
}

TEST_CASE("a shower run in batches of iterations, stopped twice and resumed, is one at a time")
{
    // GTRACK_TEST_DETECTOR_BATCH=16: the CPU slot walk queues 16 iterations between two reads of its
    // counts, as the GPU does; a stop then falls at the end of a batch (or of one cut short by a
    // pause for buffer room). The chain's output is the reference's, run one iteration at a time,
    // to every bit: detector@iterations, held_back and secondary_stack_peak included.
    TempDir dir;
    std::string const out = dir.file("batches.h5"), reference = dir.file("reference.h5");
    run_reference(k_showers, out, reference);
    std::string const batch = "GTRACK_TEST_DETECTOR_BATCH=16";
    CommandResult const first = run(batch + " " + stop_at(40), k_showers, out);
    INFO(first.output);
    REQUIRE(first.status == k_exit_stopped);
    REQUIRE(run(batch + " " + stop_at(450), k_showers, out).status == k_exit_stopped);
    CommandResult const last = run(batch, k_showers, out);
    INFO(last.output);
    REQUIRE(last.status == 0);
    check_every_bit(reference, out, k_wall_clock);
}

TEST_CASE("a shower run under track_order compact, stopped twice and resumed, gives every bit")
{
    // The tracks move between slots every iteration: the checkpoint holds the moved state, and the
    // resumed run (its spare state fresh) goes on as the unbroken one; the second leg in batches of
    // 16, as on the GPU. Held-back interactions included.
    TempDir dir;
    std::string const deck = k_showers + " --set run.track_order=compact";
    std::string const out = dir.file("compact.h5"), reference = dir.file("reference.h5");
    run_reference(deck, out, reference);
    REQUIRE(run(stop_at(40), deck, out).status == k_exit_stopped);
    CommandResult const again = run("GTRACK_TEST_DETECTOR_BATCH=16 " + stop_at(300), deck, out);
    INFO(again.output);
    REQUIRE(again.status == k_exit_stopped);
    CHECK(next_primary(out + ".ckpt") < 24);
    CommandResult const last = run("", deck, out);
    INFO(last.output);
    REQUIRE(last.status == 0);
    check_every_bit(reference, out, k_wall_clock);
    h5::File f = h5::open_file_readonly(out);
    CHECK(h5::read_uint64_attribute(h5::open_group(f, "detector"), "held_back") > 0);
}

TEST_CASE("periodic detector checkpoints: by events (then a crash) and by wall time change no bit")
{
    TempDir dir;
    std::string const out = dir.file("cal.h5"), plain = dir.file("plain.h5");
    run_reference(k_calorimeter, out, plain);

    SUBCASE("every 7 events, killed by SIGKILL: resumed from the last checkpoint")
    {
        std::string const every = "--set output.checkpoint_every=7", reference = dir.file("reference.h5");
        run_reference(k_calorimeter, out, reference, every);
        // Checkpointing changes nothing but the command line that asked for it.
        check_every_bit(plain, reference,
                        {"provenance@start_time", "provenance@end_time", "provenance@command_line",
                         "provenance@overrides"});
        CommandResult const crashed =
            run(std::string(k_test_kill_variable) + "=350", k_calorimeter, out, every);
        REQUIRE(killed(crashed));
        REQUIRE(std::filesystem::exists(out + ".ckpt"));
        // Written just after the iteration that started the primaries of event 7k (10 per event).
        std::uint64_t const started = next_primary(out + ".ckpt");
        CHECK(started >= 70);
        CHECK(started < 400);
        CHECK(root_attribute(out + ".ckpt", "iterations") < 350);
        REQUIRE(run("", k_calorimeter, out, every).status == 0);
        check_every_bit(reference, out, k_wall_clock);
    }
    SUBCASE("every millisecond of wall time: a checkpoint after nearly every iteration")
    {
        std::string const every = "--set 'output.checkpoint_every=\"0.001 s\"'",
                          reference = dir.file("reference.h5");
        run_reference(k_calorimeter, out, reference, every);
        check_every_bit(plain, reference,
                        {"provenance@start_time", "provenance@end_time", "provenance@command_line",
                         "provenance@overrides"});
        CommandResult const crashed =
            run(std::string(k_test_kill_variable) + "=200", k_calorimeter, out, every);
        REQUIRE(killed(crashed));
        REQUIRE(std::filesystem::exists(out + ".ckpt"));
        CommandResult const r = run("", k_calorimeter, out, every);
        INFO(r.output);
        REQUIRE(r.status == 0);
        check_every_bit(reference, out, k_wall_clock);
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
        run_once(k_calorimeter + " --set gun.energy=\"300 MeV\"", out, "--resume " + checkpoint);
    CHECK(other.status == 1);
    CHECK(contains(other.output, "cannot resume"));
    CHECK(contains(other.output, "deck"));
    CHECK_FALSE(std::filesystem::exists(out));

    // A beamline deck given the detector's checkpoint: refused by kind.
    std::string const ring = dir.file("ring.toml");
    write_text(ring, ring_deck(2, false));
    CommandResult const beam = run_once(ring, dir.file("ring.h5"), "--resume " + checkpoint);
    CHECK(beam.status == 1);
    CHECK(contains(beam.output, "is the checkpoint of a detector run, this deck is a beamline run"));

    // --resume auto with a checkpoint of another deck starts over (and says why), then completes.
    CommandResult const fresh =
        run_once(k_calorimeter + " --set gun.energy=\"300 MeV\"", out, "--resume auto");
    INFO(fresh.output);
    CHECK(fresh.status == 0);
    CHECK(contains(fresh.output, "starting from the beginning"));
    CHECK(std::filesystem::exists(out));
    CHECK_FALSE(std::filesystem::exists(checkpoint));
}
