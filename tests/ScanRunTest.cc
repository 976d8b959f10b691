// Scans end to end with the gtrack executable: the example scan deck run as a job array would run
// it, `gtrack scan --local` resuming an interrupted scan, and `gtrack collect` listing missing points.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "CommandTestSupport.hh"
#include "IoTestSupport.hh"
#include "Relative.hh"
#include "TextTestSupport.hh"
#include "deck/DeckReader.hh"
#include "io/Provenance.hh"
#include "io/TableWriter.hh"
#include "run/ScanOutputs.hh"

using namespace gt;

namespace {

std::string const k_deck = GTRACK_SOURCE_DIR "/inputs/fodo_scan.toml";
// Few particles and one thread per point keep each point at a few tens of milliseconds.
std::string const k_fast = "--backend cpu --threads 1 --set beam.macroparticles=200";
std::string const k_no_array_env =
    "env -u SLURM_ARRAY_TASK_ID -u PBS_ARRAYID -u PBS_ARRAY_INDEX -u LSB_JOBINDEX -u SGE_TASK_ID ";

using Result = gt::test::CommandResult;
using gt::test::run_shell;

std::string gtrack(std::string const& args)
{
    return fmt::format("{}{} {}", k_no_array_env, GTRACK_BINARY, args);
}

using gt::test::contains;

ino_t inode(std::string const& path)
{
    struct stat st {};
    REQUIRE(::stat(path.c_str(), &st) == 0);
    return st.st_ino;
}

//! Runs every point of the example scan as job-array tasks, into dir: half by SLURM's variable, half
//! by number. Returns the number of points.
std::uint64_t run_as_job_array(test::TempDir const& dir)
{
    std::uint64_t const n = read_deck(k_deck).scan.size();
    for (std::uint64_t i = 0; i < n; ++i) {
        std::string const index = i % 2 == 0 ? "env" : fmt::format("{}", i);
        std::string const env = i % 2 == 0 ? fmt::format("SLURM_ARRAY_TASK_ID={} ", i) : "";
        Result const r =
            run_shell(fmt::format("{}{} {} run {} --scan-index {} {} --quiet -o '{}/fodo_scan_{{index}}.h5'",
                                  k_no_array_env, env, GTRACK_BINARY, k_deck, index, k_fast, dir.path()));
        INFO(r.output);
        REQUIRE(r.status == 0);
    }
    return n;
}

}  // namespace

TEST_CASE("the example scan runs as a job array; collect makes the summary table")
{
    test::TempDir dir;
    DeckConfig const deck = read_deck(k_deck);
    ScanConfig const& scan = deck.scan;
    std::uint64_t const n = run_as_job_array(dir);
    REQUIRE(n == 10);

    // Each file records its point in /provenance.
    for (std::uint64_t i = 0; i < n; ++i) {
        std::string const file = dir.file(fmt::format("fodo_scan_{}.h5", i));
        Provenance const p = read_provenance(file);
        CHECK(p.scan_index == static_cast<std::int64_t>(i));
        CHECK(p.scan_size == n);
        CHECK(p.scan_mode == "cartesian");
        CHECK(p.scan_parameters == std::vector<std::string>{"elements.QFH.k1", "elements.QD.k1"});
        CHECK(p.scan_values == scan.labels_at(i));
        CHECK(scan_output_status(file, scan, i).state == OutputState::complete);
    }

    Result const r = run_shell(gtrack(
        fmt::format("collect '{0}/fodo_scan_*.h5' -o {0}/summary.h5 --csv {0}/summary.csv", dir.path())));
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(contains(r.output, "collected 10 of 10 points"));
    Table const summary = read_table(dir.file("summary.h5"), "summary");
    REQUIRE(summary.rows() == n);
    auto const& k1 = summary.doubles("elements_QFH_k1");
    auto const& kd = summary.doubles("elements_QD_k1");
    auto const& sigma_x = summary.doubles("sigma_x");
    auto const& complete = std::get<std::vector<std::int64_t>>(summary.find("complete")->values);
    for (std::uint64_t i = 0; i < n; ++i) {
        auto const idx = scan.value_indices(i);
        CHECK(k1[i] == 1.0 + 0.1 * double(idx[0]));  // 1.0 to 1.4 in steps of 0.1 (12 digits, exact here)
        CHECK(kd[i] == (idx[1] == 0 ? -1.2 : -1.0));
        CHECK(complete[i] == 1);
        // The last row of the point's own /stats, bit for bit.
        Table const stats = read_table(dir.file(fmt::format("fodo_scan_{}.h5", i)), "stats");
        CHECK(sigma_x[i] == stats.doubles("sigma_x").back());
    }
    // Stronger horizontal focusing than the matched 1.2 changes the final beam: the points differ.
    CHECK(sigma_x[0] != sigma_x[8]);

    std::ifstream csv(dir.file("summary.csv"));
    std::vector<std::string> lines;
    for (std::string line; std::getline(csv, line);) lines.push_back(line);
    REQUIRE(lines.size() == n + 1);
    CHECK(lines[0].starts_with("index,state,file,elements.QFH.k1,elements.QD.k1,s [m],"));
    CHECK(lines[4].starts_with(fmt::format("3,complete,{}/fodo_scan_3.h5,1.1,-1,", dir.path())));
}

TEST_CASE("scan --local: skips complete outputs, runs a truncated, a missing and another point's file again")
{
    test::TempDir dir;
    std::string const out = fmt::format("-o '{}/p{{index}}.h5'", dir.path());
    Result r = run_shell(gtrack(fmt::format("scan {} --local -j 2 {} {}", k_deck, k_fast, out)));
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(contains(r.output, "10 run, 0 skipped (complete), 0 failed"));

    std::vector<ino_t> before;
    for (int i = 0; i < 10; ++i) before.push_back(inode(dir.file(fmt::format("p{}.h5", i))));
    // Interrupted and damaged: a truncated file (4), a missing one (7), another point's result (9).
    std::filesystem::resize_file(dir.file("p4.h5"), 2000);
    std::filesystem::remove(dir.file("p7.h5"));
    std::filesystem::copy_file(dir.file("p0.h5"), dir.file("p9.h5"),
                               std::filesystem::copy_options::overwrite_existing);
    before[9] = inode(dir.file("p9.h5"));

    r = run_shell(gtrack(fmt::format("scan {} --list {} {}", k_deck, k_fast, out)));
    CHECK(r.status == 0);
    CHECK(contains(r.output, "p4.h5  broken"));
    CHECK(contains(r.output, "p7.h5  missing"));
    CHECK(contains(r.output, "p9.h5  other point"));

    r = run_shell(gtrack(fmt::format("scan {} --local -j 2 {} {}", k_deck, k_fast, out)));
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(contains(r.output, "3 run, 7 skipped (complete), 0 failed"));
    CHECK(contains(r.output, "point 4: not a complete gtrack output"));
    ScanConfig const scan = read_deck(k_deck).scan;
    for (int i = 0; i < 10; ++i) {
        std::string const file = dir.file(fmt::format("p{}.h5", i));
        CHECK(scan_output_status(file, scan, std::uint64_t(i)).state == OutputState::complete);
        bool const rerun = i == 4 || i == 7 || i == 9;
        if (i != 7) CHECK((inode(file) != before[std::size_t(i)]) == rerun);  // a rerun renames a new file in
    }
    // Nothing left behind but the outputs (the temporaries were renamed, the logs removed).
    CHECK(dir.entries().size() == 10);
}

TEST_CASE("collect lists missing and broken points, and still writes the table")
{
    test::TempDir dir;
    std::uint64_t const n = run_as_job_array(dir);
    std::filesystem::remove(dir.file("fodo_scan_5.h5"));
    std::filesystem::resize_file(dir.file("fodo_scan_2.h5"), 1000);

    for (std::string const how : {"glob", "deck"}) {
        CAPTURE(how);
        std::string const args =
            how == "glob" ? fmt::format("collect '{0}/fodo_scan_*.h5' -o {0}/s.h5", dir.path())
                          : fmt::format(
                                "collect --deck {0} --set beam.macroparticles=200 '{1}/fodo_scan_*.h5' -o "
                                "{1}/s.h5",
                                k_deck, dir.path());
        Result const r = run_shell(gtrack(args));
        INFO(r.output);
        CHECK(r.status == 3);
        CHECK(contains(r.output, "collected 8 of 10 points"));
        CHECK(contains(r.output, "2 of 10 points missing or broken"));
        CHECK(contains(r.output, "point 5 (elements.QFH.k1 = 1.2, elements.QD.k1 = -1.0): missing"));
        CHECK(contains(r.output, "point 2 (elements.QFH.k1 = 1.1, elements.QD.k1 = -1.2): broken"));
        Table const summary = read_table(dir.file("s.h5"), "summary");
        REQUIRE(summary.rows() == n);
        auto const& complete = std::get<std::vector<std::int64_t>>(summary.find("complete")->values);
        auto const& sigma_x = summary.doubles("sigma_x");
        for (std::uint64_t i = 0; i < n; ++i) {
            bool const lost = i == 5 || i == 2;
            CHECK(complete[i] == (lost ? 0 : 1));
            CHECK(std::isnan(sigma_x[i]) == lost);
        }
    }
}

TEST_CASE("scan decks in gtrack run: --scan-index needed, in range, and 'env' needs a job array")
{
    Result r = run_shell(gtrack(fmt::format("run {} {}", k_deck, k_fast)));
    CHECK(r.status == 1);
    CHECK(contains(r.output, "has a [scan] table of 10 points: run one with --scan-index N (0 to 9"));
    r = run_shell(gtrack(fmt::format("run {} --scan-index 10 {}", k_deck, k_fast)));
    CHECK(r.status == 2);
    CHECK(contains(r.output, "fodo_scan.toml:45:1: scan: --scan-index 10: the scan has 10 points (0 to 9)"));
    r = run_shell(gtrack(fmt::format("run {} --scan-index env {}", k_deck, k_fast)));
    CHECK(r.status == 1);
    CHECK(contains(r.output, "--scan-index env: no job-array task index in the environment"));
    r = run_shell(gtrack(fmt::format("run {} --scan-index -3 {}", k_deck, k_fast)));
    CHECK(r.status != 0);
}

TEST_CASE("scripts/slurm-array.sh submits one task per point; each task runs its point")
{
    test::TempDir dir;
    // A stand-in for sbatch: runs the array's tasks in turn, as Slurm would run them on nodes.
    std::string const sbatch = dir.file("sbatch");
    {
        std::ofstream f(sbatch);
        f << "#!/bin/bash\n"
             "set -e\n"
             "echo \"sbatch $*\" >> \"$(dirname \"$0\")/sbatch.log\"\n"
             "range=${1#--array=}; shift\n"
             "for ((i = ${range%-*}; i <= ${range#*-}; i++)); do\n"
             "  SLURM_ARRAY_TASK_ID=$i SLURM_CPUS_PER_TASK=1 \"$@\" > \"$(dirname \"$0\")/task_$i.log\" "
             "2>&1\n"
             "done\n";
    }
    std::filesystem::permissions(sbatch, std::filesystem::perms::owner_all);
    std::string const script = GTRACK_SOURCE_DIR "/scripts/slurm-array.sh";
    Result r =
        run_shell(fmt::format("cd {0} && {1} PATH={0}:$PATH GTRACK={2} {3} --submit {4} --backend cpu --set "
                              "beam.macroparticles=200 --set 'output.file=\"pt{{index}}.h5\"'",
                              dir.path(), k_no_array_env, GTRACK_BINARY, script, k_deck));
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(contains(r.output, "submitting 10 tasks: sbatch --array=0-9"));
    ScanConfig const scan = read_deck(k_deck).scan;
    for (std::uint64_t i = 0; i < 10; ++i) {
        std::string const file = dir.file(fmt::format("pt{}.h5", i));
        CHECK(scan_output_status(file, scan, i).state == OutputState::complete);
        CHECK(read_provenance(file).scan_index == static_cast<std::int64_t>(i));
    }
    // Outside a job array the script refuses, saying why.
    r = run_shell(fmt::format("{} {} {}", k_no_array_env, script, k_deck));
    CHECK(r.status == 2);
    CHECK(contains(r.output, "not a job-array task (SLURM_ARRAY_TASK_ID is not set)"));
}

TEST_CASE(
    "an absorber-thickness scan of a calorimeter as a job array: the lead's deposit follows its thickness")
{
    // inputs/absorber_scan.toml: 1 GeV muons through 10 layers of lead (1, 2, 4 mm, scanned by the volume's
    // name) and 5 mm of liquid argon. 100 muons a point keep each run at a fraction of a second.
    std::string const deck = GTRACK_SOURCE_DIR "/inputs/absorber_scan.toml";
    test::TempDir dir;
    for (int i = 0; i < 3; ++i) {
        Result const r = run_shell(
            fmt::format("{}SLURM_ARRAY_TASK_ID={} {} run {} --scan-index env --backend cpu --threads 1 --set "
                        "gun.events=100 --quiet -o '{}/abs_{{index}}.h5'",
                        k_no_array_env, i, GTRACK_BINARY, deck, dir.path()));
        INFO(r.output);
        REQUIRE(r.status == 0);
    }
    Result const r = run_shell(gtrack(fmt::format("collect '{0}/abs_*.h5' -o {0}/summary.h5", dir.path())));
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(contains(r.output, "collected 3 of 3 points"));
    Table const summary = read_table(dir.file("summary.h5"), "summary");
    REQUIRE(summary.rows() == 3);
    auto const& lead = summary.doubles("edep_absorber");
    auto const& argon = summary.doubles("edep_gap");
    // Expectation: a muon of ~1 GeV loses energy in the lead at a rate dE/dx that hardly changes over the
    // stack (it loses at most ~60 MeV of its 1 GeV in 4 cm of lead, which moves dE/dx by well under 1%
    // near the minimum, PDG Fig. 34.2), so the lead's total deposit is proportional to its thickness, and
    // the argon's does not depend on it. Tolerance 3%: that drift, the longer paths of multiple scattering
    // (theta0 ~ 3 mrad a layer, a 1e-5 effect), and the statistics of 100 muons x 10 layers with Bohr
    // straggling of about 15% a muon and layer for 2 mm of lead (0.5% on the mean).
    REQUIRE(lead[0] > 0);
    CHECK(lead[1] / lead[0] == test::relative(2.0, 0.03));
    CHECK(lead[2] / lead[0] == test::relative(4.0, 0.03));
    CHECK(argon[1] / argon[0] == test::relative(1.0, 0.03));
    CHECK(argon[2] / argon[0] == test::relative(1.0, 0.03));
    // The old code could not reach the volume: each point's thickness is its own.
    CHECK(lead[2] != lead[1]);
}
