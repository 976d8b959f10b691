// Checkpoint and restart of beamline runs through the real binary: interrupted (by the checkpoint
// interval and a crash, by a signal) and resumed, the output is bit for bit the uninterrupted one;
// a checkpoint of another deck or gtrack is refused; a checkpoint is replaced only when complete.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <string>
#include <thread>

#include "CheckpointTestSupport.hh"
#include "ChecksumTestSupport.hh"
#include "CommandTestSupport.hh"
#include "IoTestSupport.hh"
#include "TextTestSupport.hh"
#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"
#include "io/H5Access.hh"
#include "io/H5Handle.hh"
#include "io/TableWriter.hh"
#include "run/StopRequest.hh"

using namespace gt;
using namespace gt::test;

namespace {

//! `gtrack run` of `deck` on the CPU (one thread: the same reduction order in every run) into `out`.
CommandResult run(std::string const& env, std::string const& deck, std::string const& out,
                  std::string const& more = "")
{
    return run_shell(env + " " + GTRACK_BINARY + " run " + deck + " --backend cpu --threads 1 -q -o " + out +
                     " " + more);
}

//! Ended by SIGKILL (the shell reports 128 + 9 when it did not exec the command itself).
bool killed(CommandResult const& r) { return r.status == -1 || r.status == 128 + SIGKILL; }

std::string stop_at(long n) { return std::string(k_test_stop_variable) + "=" + std::to_string(n); }
std::string kill_at(long n) { return std::string(k_test_kill_variable) + "=" + std::to_string(n); }

}  // namespace

TEST_CASE("a ring with space charge stopped by a signal at several turns resumes to the same bits")
{
    TempDir dir;
    std::string const deck = dir.file("ring.toml");
    write_text(deck, ring_deck(6));
    std::string const reference = dir.file("reference.h5");
    REQUIRE(run("", deck, reference).status == 0);

    for (long turn : {1, 3, 5}) {
        CAPTURE(turn);
        std::string const out = dir.file("resumed_" + std::to_string(turn) + ".h5");
        CommandResult const stopped = run(stop_at(turn), deck, out);
        REQUIRE(stopped.status == k_exit_stopped);
        CHECK(contains(stopped.output, "after " + std::to_string(turn) + " of 6 turns"));
        CHECK_FALSE(std::filesystem::exists(out));
        REQUIRE(std::filesystem::exists(out + ".ckpt"));
        CommandResult const resumed = run("", deck, out, "--resume " + out + ".ckpt");
        INFO(resumed.output);
        REQUIRE(resumed.status == 0);
        check_identical(reference, out);
        CHECK_FALSE(std::filesystem::exists(out + ".ckpt"));  // a complete output needs it no more
    }

    SUBCASE("twice in one run: stopped at turn 2, resumed, stopped at turn 4, resumed ('auto')")
    {
        std::string const out = dir.file("twice.h5");
        REQUIRE(run(stop_at(2), deck, out).status == k_exit_stopped);
        REQUIRE(run(stop_at(4), deck, out, "--resume auto").status == k_exit_stopped);
        REQUIRE(run("", deck, out, "--resume auto").status == 0);
        check_identical(reference, out);
    }
}

TEST_CASE("periodic checkpoints survive a crash: the run resumes from the last one to the same bits")
{
    TempDir dir;
    std::string const deck = dir.file("ring.toml");
    write_text(deck, ring_deck(6));
    std::string const reference = dir.file("reference.h5");
    REQUIRE(run("", deck, reference).status == 0);

    // Checkpoints after turns 2 and 4, killed (SIGKILL: no chance to write anything) at turn 5.
    std::string const out = dir.file("crashed.h5");
    std::string const every = "--set output.checkpoint_every=2";
    CommandResult const crashed = run(kill_at(5), deck, out, every);
    CHECK(killed(crashed));
    CHECK_FALSE(std::filesystem::exists(out));
    REQUIRE(std::filesystem::exists(out + ".ckpt"));
    {
        h5::File f = h5::open_file_readonly(out + ".ckpt");
        CHECK(h5::read_int64_attribute(f, "turn") == 4);
        CHECK(h5::read_int64_attribute(f, "entry") == 0);
    }
    // checkpoint_every is not part of the deck's identity: resumed without it, as the reference ran.
    CommandResult const resumed = run("", deck, out, "--resume " + out + ".ckpt");
    INFO(resumed.output);
    REQUIRE(resumed.status == 0);
    check_identical(reference, out);
}

TEST_CASE("a single pass with space charge checkpoints every N entries and resumes to the same bits")
{
    TempDir dir;
    std::string const deck = dir.file("line.toml");
    // Statistics only at the end: the checkpoint interval alone makes the safe points inside the pass.
    write_text(deck, ring_deck(1, true, "end"));
    std::string const reference = dir.file("reference.h5");
    REQUIRE(run("", deck, reference).status == 0);

    std::string const out = dir.file("line.h5");
    CommandResult const crashed = run(kill_at(20), deck, out, "--set output.checkpoint_every=7");
    CHECK(killed(crashed));
    REQUIRE(std::filesystem::exists(out + ".ckpt"));
    {
        h5::File f = h5::open_file_readonly(out + ".ckpt");
        CHECK(h5::read_int64_attribute(f, "turn") == 0);
        CHECK(h5::read_int64_attribute(f, "entry") == 14);  // after entries 7 and 14; killed at 21
    }
    CommandResult const resumed =
        run("", deck, out, "--resume " + out + ".ckpt --set output.checkpoint_every=7");
    INFO(resumed.output);
    REQUIRE(resumed.status == 0);
    check_identical(reference, out);

    SUBCASE("and without space charge, stopped by a signal inside the pass")
    {
        write_text(deck, ring_deck(1, false, "every_element"));
        REQUIRE(run("", deck, reference).status == 0);
        REQUIRE(run(stop_at(9), deck, out).status == k_exit_stopped);
        REQUIRE(run("", deck, out, "--resume auto").status == 0);
        check_identical(reference, out);
    }
}

TEST_CASE("a linac with wakes stopped by a signal inside the pass resumes to the same bits")
{
    TempDir dir;
    // The example deck (table wakes on the cavities, longitudinal and transverse resonators), smaller.
    std::string const deck = std::string(GTRACK_SOURCE_DIR) + "/inputs/linac_wake.toml";
    std::string const small = "--set beam.macroparticles=2000 --set collective.bins=100";
    std::string const reference = dir.file("reference.h5");
    CommandResult const whole = run("", deck, reference, small);
    INFO(whole.output);
    REQUIRE(whole.status == 0);

    std::string const out = dir.file("linac.h5");
    // After 12 entries (slices count one each): both cavities of the first cell (entries 0-3, 7-10)
    // have given their wake kicks; the second cell's and the resonators' are still ahead.
    REQUIRE(run(stop_at(12), deck, out, small).status == k_exit_stopped);
    {
        h5::File f = h5::open_file_readonly(out + ".ckpt");
        CHECK(h5::read_int64_attribute(f, "entry") == 12);
        CHECK(h5::is_group(f, "collective"));
    }
    CHECK(read_table(out + ".ckpt", "collective").rows() > 0);
    CommandResult const resumed = run("", deck, out, small + " --resume auto");
    INFO(resumed.output);
    REQUIRE(resumed.status == 0);
    CHECK(read_table(out, "collective").rows() == read_table(reference, "collective").rows());
    check_identical(reference, out);
}

TEST_CASE("a checkpoint of another deck, another gtrack or no checkpoint at all is refused")
{
    TempDir dir;
    std::string const deck = dir.file("ring.toml");
    write_text(deck, ring_deck(4));
    std::string const out = dir.file("ring.h5");
    std::string const ckpt = out + ".ckpt";
    REQUIRE(run(stop_at(2), deck, out).status == k_exit_stopped);

    // Comments and spacing are not the deck's identity; values are.
    write_text(dir.file("commented.toml"), "# the same deck\n" + ring_deck(4));
    CommandResult const same =
        run(stop_at(3), dir.file("commented.toml"), dir.file("other.h5"), "--resume " + ckpt);
    CHECK(same.status == k_exit_stopped);

    CommandResult const other =
        run("", deck, dir.file("x.h5"), "--resume " + ckpt + " --set lattice.turns=5");
    CHECK(other.status == 1);
    CHECK(contains(other.output, "cannot resume: '" + ckpt + "' was written by another deck"));
    CHECK(contains(other.output, "run this deck without --resume to start it afresh"));
    CHECK_FALSE(std::filesystem::exists(dir.file("x.h5")));

    std::string const reference = dir.file("complete.h5");
    REQUIRE(run("", deck, reference).status == 0);
    CommandResult const not_one = run("", deck, dir.file("x.h5"), "--resume " + reference);
    CHECK(not_one.status == 1);
    CHECK(contains(not_one.output, "is not a gtrack checkpoint"));

    CommandResult const missing = run("", deck, dir.file("x.h5"), "--resume " + dir.file("nothing.ckpt"));
    CHECK(missing.status == 1);
    CHECK(contains(missing.output, "there is no checkpoint '" + dir.file("nothing.ckpt") + "'"));
    CHECK(contains(missing.output, "--resume auto starts afresh"));

    {  // the same deck written by another build
        h5::File f(H5Fopen(ckpt.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
        REQUIRE(f.valid());
        h5::write_attribute(f, "git_hash", "0123456789ab");
    }
    CommandResult const version = run("", deck, dir.file("x.h5"), "--resume " + ckpt);
    CHECK(version.status == 1);
    CHECK(contains(version.output, "was written by gtrack 0.1.0 (0123456789ab)"));
    CHECK_FALSE(std::filesystem::exists(dir.file("x.h5")));

    // --resume auto (job scripts) starts afresh instead, saying why, and ends with the whole run.
    CommandResult const fresh = run("", deck, out, "--resume auto");
    CHECK(fresh.status == 0);
    CHECK(contains(fresh.output, "note: --resume auto: cannot resume: '" + ckpt + "' was written by gtrack"));
    check_identical(reference, out);
    CHECK_FALSE(std::filesystem::exists(ckpt));
}

TEST_CASE(
    "a checkpoint whose particle data are damaged (one bit of one value) is refused, naming the dataset")
{
    TempDir dir;
    std::string const deck = dir.file("ring.toml");
    write_text(deck, ring_deck(4));
    std::string const out = dir.file("ring.h5");
    std::string const ckpt = out + ".ckpt";
    REQUIRE(run(stop_at(2), deck, out).status == k_exit_stopped);
    std::string const intact = dir.file("intact.ckpt");
    std::filesystem::copy_file(ckpt, intact);
    {
        h5::File f = h5::open_file_readonly(ckpt);
        for (char const* d :
             {"particles/x", "particles/pt", "particles/id", "particles/lost_turn", "stats/s"})
            CHECK(h5::has_checksum(f, d));
    }

    // A low mantissa bit of particle 17's pt: a change of one part in 10^15, which nothing else would see.
    flip_stored_bit(ckpt, "particles/pt", 17, 3);
    CommandResult const damaged = run("", deck, dir.file("x.h5"), "--resume " + ckpt);
    INFO(damaged.output);
    CHECK(damaged.status == 1);
    CHECK(contains(damaged.output, "cannot resume from '" + ckpt + "'"));
    CHECK(contains(damaged.output, "'/particles/pt' in file '" + ckpt + "' do not match their checksum"));
    CHECK(contains(damaged.output, "run again without --resume"));
    CHECK_FALSE(std::filesystem::exists(dir.file("x.h5")));

    // gtrack compare reads the data through the same check, and names the damaged file and dataset.
    CommandResult const compared = run_shell(std::string(GTRACK_BINARY) + " compare " + intact + " " + ckpt);
    INFO(compared.output);
    CHECK(compared.status != 0);
    CHECK(contains(compared.output, "'/particles/pt' in file '" + ckpt + "' do not match their checksum"));

    // The intact copy resumes.
    CommandResult const resumed = run("", deck, out, "--resume " + intact);
    INFO(resumed.output);
    CHECK(resumed.status == 0);
}

TEST_CASE("a checkpoint is replaced only by a complete one: the previous one stays whole and resumes")
{
    TempDir dir;
    std::string const deck = dir.file("ring.toml");
    write_text(deck, ring_deck(6));
    std::string const reference = dir.file("reference.h5");
    REQUIRE(run("", deck, reference).status == 0);
    std::string const out = dir.file("ring.h5");
    std::string const ckpt = out + ".ckpt";
    REQUIRE(run(stop_at(2), deck, out).status == k_exit_stopped);
    std::string const before = read_text(ckpt);

    // The resumed run cannot write its temporary (a directory already holds the name "<ckpt>.tmp-<pid>"):
    // each periodic checkpoint fails with a warning, the run goes on, the old checkpoint is untouched.
    std::string const log = dir.file("log.txt");
    pid_t const pid =
        start_gtrack({"run", deck, "--backend", "cpu", "--threads", "1", "-q", "-o", out, "--resume", ckpt,
                      "--set", "output.checkpoint_every=1"},
                     log, {kill_at(5)},
                     [&] { std::filesystem::create_directory(ckpt + ".tmp-" + std::to_string(::getpid())); });
    int const status = wait_for(pid, 120);
    CHECK(WIFSIGNALED(status));
    std::string const text = read_text(log);
    CHECK(contains(text, "warning: the checkpoint was not written"));
    CHECK(read_text(ckpt) == before);
    std::filesystem::remove(ckpt + ".tmp-" + std::to_string(pid));
    // Only the killed run's output temporary is left (SIGKILL cannot be caught): no checkpoint temporary.
    for (auto const& name : dir.entries()) CHECK(name.find(".ckpt.tmp-") == std::string::npos);

    REQUIRE(run("", deck, out, "--resume " + ckpt).status == 0);
    check_identical(reference, out);
}

TEST_CASE("output.checkpoint_every: a count or a wall time; anything else names the key")
{
    std::string const base = ring_deck(4);
    auto const with = [&](std::string const& value) {
        return read_deck_text(base + "checkpoint_every = " + value + "\n", "ring.toml", {}, {});
    };
    CHECK(with("3").output.checkpoint_every.steps == 3);
    CHECK(with("3").output.checkpoint_every.seconds == 0);
    CHECK(with("\"30 min\"").output.checkpoint_every.seconds == 1800);
    CHECK(with("\"2 h\"").output.checkpoint_every.seconds == 7200);
    CHECK(with("\"90 s\"").output.checkpoint_every.seconds == 90);
    CHECK(read_deck_text(base, "ring.toml", {}, {}).output.checkpoint_every.steps == 0);
    for (std::string const bad : {"0", "-2", "\"5 parsecs\"", "\"-1 h\"", "true", "1.5"}) {
        CAPTURE(bad);
        try {
            with(bad);
            FAIL("accepted");
        } catch (DeckError const& e) {
            REQUIRE(e.diagnostics().size() == 1);
            std::string const message = e.diagnostics()[0].format();
            CHECK(contains(message, "ring.toml:"));
            CHECK(contains(message, "output.checkpoint_every"));
        }
    }
}

TEST_CASE("scripts/slurm-array.sh passes Slurm's signal on, requeues a stopped task, and the task resumes")
{
    TempDir dir;
    // A one-point scan (the script runs points of a [scan]), and a stand-in for scontrol that logs.
    auto const scan_deck = [&](long turns) {
        return ring_deck(turns) + "file = \"ring_{index}.h5\"\n[scan]\n\"run.seed\" = [7]\n";
    };
    std::string const deck = dir.file("ring.toml");
    write_text(deck, scan_deck(6));
    std::string const scontrol = dir.file("scontrol");
    write_text(scontrol, "#!/bin/bash\necho \"scontrol $*\" >> \"$(dirname \"$0\")/scontrol.log\"\n");
    std::filesystem::permissions(scontrol, std::filesystem::perms::owner_all);
    std::string const script = GTRACK_SOURCE_DIR "/scripts/slurm-array.sh";
    std::string const env =
        "cd " + dir.path() + " && PATH=" + dir.path() + ":$PATH GTRACK=" + GTRACK_BINARY +
        " SLURM_ARRAY_JOB_ID=41 SLURM_JOB_ID=42 SLURM_ARRAY_TASK_ID=0 SLURM_CPUS_PER_TASK=1 ";
    std::string const options = " " + deck + " --backend cpu -q";
    std::string const out = dir.file("ring_0.h5");

    std::string const reference = dir.file("reference.h5");
    REQUIRE(run("", deck, reference, "--scan-index 0").status == 0);

    CommandResult const stopped = run_shell(env + stop_at(3) + " " + script + options);
    INFO(stopped.output);
    CHECK(stopped.status == k_exit_stopped);
    CHECK(contains(stopped.output, "requeueing (restart 1 of at most 5)"));
    CHECK(read_text(dir.file("scontrol.log")) == "scontrol requeue 42\n");
    CHECK_FALSE(std::filesystem::exists(out));

    CommandResult const resumed = run_shell(env + "SLURM_RESTART_COUNT=1 " + script + options);
    INFO(resumed.output);
    REQUIRE(resumed.status == 0);
    check_identical(reference, out);

    SUBCASE("the requeues are bounded")
    {
        std::filesystem::remove(out);
        CommandResult const last = run_shell(env + "GTRACK_MAX_REQUEUES=2 SLURM_RESTART_COUNT=2 " +
                                             stop_at(1) + " " + script + options);
        CHECK(last.status == k_exit_stopped);
        CHECK(contains(last.output, "requeued 2 times already (GTRACK_MAX_REQUEUES=2)"));
        CHECK(read_text(dir.file("scontrol.log")) == "scontrol requeue 42\n");  // no second requeue
    }

    SUBCASE("a real SIGUSR1 to the batch shell (Slurm's --signal=B:USR1) reaches gtrack")
    {
        write_text(deck, scan_deck(1'000'000));  // far longer than the test
        pid_t const pid = ::fork();
        REQUIRE(pid >= 0);
        if (pid == 0) {
            std::string const command =
                env + "exec " + script + options + " > " + dir.file("task.log") + " 2>&1";
            ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
            ::_exit(127);
        }
        // gtrack runs once its temporary output exists.
        auto const deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        auto const running = [&] {
            for (auto const& name : dir.entries())
                if (name.rfind("ring_0.h5.tmp-", 0) == 0) return true;
            return false;
        };
        while (!running() && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        REQUIRE(running());
        ::kill(pid, SIGUSR1);
        int const status = wait_for(pid, 60);
        REQUIRE(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == k_exit_stopped);
        std::string const log = read_text(dir.file("task.log"));
        CHECK(contains(log, "stopped by SIGUSR1"));
        CHECK(contains(log, "requeueing"));
        CHECK(std::filesystem::exists(out + ".ckpt"));
        CHECK_FALSE(running());
    }
}

TEST_CASE("output.checksums = false leaves the output without checksums, never the checkpoint")
{
    TempDir dir;
    std::string const deck = dir.file("ring.toml");
    write_text(deck, ring_deck(4));
    std::string const out = dir.file("ring.h5");
    std::string const off = "--set output.checksums=false";
    REQUIRE(run(stop_at(2), deck, out, off).status == k_exit_stopped);
    {
        h5::File f = h5::open_file_readonly(out + ".ckpt");
        CHECK(h5::has_checksum(f, "particles/pt"));  // a resume must be able to trust it
    }
    CommandResult const resumed = run("", deck, out, "--resume " + out + ".ckpt " + off);
    INFO(resumed.output);
    REQUIRE(resumed.status == 0);
    h5::File f = h5::open_file_readonly(out);
    CHECK_FALSE(h5::has_checksum(f, "/stats/s"));
}
