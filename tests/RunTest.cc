// gtrack run end to end: the output file a user gets, the command line's exit codes and messages,
// and failed runs that leave nothing behind.
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <string>

#include "CommandTestSupport.hh"
#include "IoTestSupport.hh"
#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"
#include "io/OpenPmdWriter.hh"
#include "io/Provenance.hh"
#include "io/TableWriter.hh"
#include "kernels/core/Device.hh"
#include "run/BeamRun.hh"

using namespace gt;
using namespace gt::test;

namespace {

std::string const k_deck = R"(
[run]
name = "t"
seed = 3
[beam]
particle = "proton"
kinetic_energy = 250
bunch_charge = "1 nC"
macroparticles = 5000
[beam.twiss]
beta_x = 8.0
beta_y = 2.0
emittance_x = 1e-6
emittance_y = 1e-6
sigma_t = 1e-3
sigma_pt = 1e-3
[elements]
Q = { type = "quadrupole", length = 0.5, k1 = 1.2, slices = 2 }
D = { type = "drift", length = 2.0 }
COL = { type = "aperture", shape = "rectangle", half_x = "4 mm", half_y = "4 mm" }
BPM = { type = "monitor" }
[lattice]
cell = ["Q", "D", "BPM"]
line = ["cell*3", "COL"]
turns = 2
[output]
phase_space = ["BPM", "end"]
stats = "every_element"
)";

using Result = CommandResult;

}  // namespace

TEST_CASE("a run writes statistics, snapshots, losses, the lattice and provenance")
{
    TempDir dir;
    DeckConfig const deck = read_deck_text(k_deck, dir.file("t.toml"));
    RunOptions opt;
    opt.backend = "cpu";
    opt.quiet = true;
    opt.output = dir.file("t.h5");
    opt.command_line = "gtrack run t.toml";
    CHECK(run_beamline(deck, opt) == 0);
    REQUIRE(file_exists(dir.file("t.h5")));

    // Entries per pass: Q (2 slices), D, BPM three times, then COL: 13; every_element gives a row
    // after each element occurrence (slices counted once): 3 * 3 + 1 = 10 per turn, plus the initial row.
    Table const stats = read_table(dir.file("t.h5"), "stats");
    CHECK(stats.rows() == 1 + 2 * 10);
    auto const& s = stats.doubles("s");
    CHECK(s.front() == 0.0);
    CHECK(s.back() == doctest::Approx(2 * 3 * 2.5));
    auto const& alive = stats.doubles("alive");
    CHECK(alive.front() == 5000);

    // Three monitors per pass for two passes, plus the end: 7 snapshots, the last at "end".
    PhaseSpaceFile const last = read_phase_space(dir.file("t.h5"));
    CHECK(last.iteration == 6);
    CHECK(last.where == "end");
    CHECK(double(last.beam.size()) == alive.back());
    CHECK(read_phase_space(dir.file("t.h5"), 0).where == "BPM");

    // The 4 mm collimator removes the tails; every loss is recorded with its element and turn.
    Table const lost = read_table(dir.file("t.h5"), "lost");
    CHECK(lost.rows() > 0);
    CHECK(double(lost.rows()) + alive.back() == 5000);
    auto const& elem = std::get<std::vector<std::int64_t>>(lost.find("element")->values);
    for (auto e : elem) CHECK(e == 12);  // COL is the last entry

    Provenance const p = read_provenance(dir.file("t.h5"));
    CHECK(p.backend == "cpu");
    CHECK(p.seed == 3);
    CHECK(p.deck_text == k_deck);
    CHECK(p.command_line == "gtrack run t.toml");
    CHECK(read_table(dir.file("t.h5"), "lattice").rows() == 13);
}

TEST_CASE("a beam written by one run is read back bit for bit by the next (distribution = \"file\")")
{
    TempDir dir;
    RunOptions opt;
    opt.backend = "cpu";
    opt.quiet = true;
    opt.output = dir.file("first.h5");
    REQUIRE(run_beamline(read_deck_text(k_deck, "t.toml"), opt) == 0);
    PhaseSpaceFile const first = read_phase_space(dir.file("first.h5"));

    // The second run starts from the first one's end and tracks through nothing but a marker.
    std::string second = k_deck;
    second.replace(second.find("[beam.twiss]"), second.find("[elements]") - second.find("[beam.twiss]"), "");
    second.replace(second.find("macroparticles = 5000"), 21,
                   "macroparticles = " + std::to_string(first.beam.size()) +
                       "\ndistribution = \"file\"\nfile = \"" + dir.file("first.h5") + "\"");
    second += "[elements.M]\ntype = \"marker\"\n";
    second.replace(second.find("line = [\"cell*3\", \"COL\"]"), 24, "line = [\"M\"]");
    second.replace(second.find("turns = 2"), 9, "turns = 1");
    second.replace(second.find("phase_space = [\"BPM\", \"end\"]"), 28, "phase_space = [\"end\"]");
    opt.output = dir.file("second.h5");
    REQUIRE(run_beamline(read_deck_text(second, "t2.toml"), opt) == 0);
    PhaseSpaceFile const again = read_phase_space(dir.file("second.h5"));
    CHECK(again.beam.x == first.beam.x);
    CHECK(again.beam.pt == first.beam.pt);
    CHECK(again.beam.id == first.beam.id);

    // Without macroparticles the deck takes all the file's particles; with fewer, the first ones.
    std::string all = second;
    all.replace(all.find("macroparticles = "), 18 + std::to_string(first.beam.size()).size(), "");
    CHECK(read_deck_text(all, "t_all.toml").beam.macroparticles == first.beam.size());
    opt.output = dir.file("all.h5");
    REQUIRE(run_beamline(read_deck_text(all, "t_all.toml"), opt) == 0);
    CHECK(read_phase_space(dir.file("all.h5")).beam.pt == first.beam.pt);

    std::string fewer = second;
    fewer.replace(fewer.find("macroparticles = "), 17 + std::to_string(first.beam.size()).size(),
                  "macroparticles = 7");
    opt.output = dir.file("fewer.h5");
    REQUIRE(run_beamline(read_deck_text(fewer, "t_fewer.toml"), opt) == 0);
    PhaseSpaceFile const seven = read_phase_space(dir.file("fewer.h5"));
    REQUIRE(seven.beam.size() == 7);
    CHECK(seven.beam.id == std::vector<std::uint64_t>(first.beam.id.begin(), first.beam.id.begin() + 7));
    CHECK(seven.beam.x == std::vector<double>(first.beam.x.begin(), first.beam.x.begin() + 7));

    // More than the file holds is a deck error naming both numbers and what to do.
    std::string const more_count = std::to_string(first.beam.size() + 1);
    std::string const more_message = "beam.macroparticles = " + more_count + ": remove macroparticles";
    std::string wrong = second;
    wrong.replace(wrong.find("macroparticles = "), 17 + std::to_string(first.beam.size()).size(),
                  "macroparticles = " + more_count);
    opt.output = dir.file("third.h5");
    CHECK_THROWS_WITH_AS(run_beamline(read_deck_text(wrong, "t3.toml"), opt),
                         doctest::Contains(more_message.c_str()), DeckError);
    CHECK_FALSE(file_exists(dir.file("third.h5")));

    // A file beam without macroparticles whose file is missing is an error at beam.file, when the deck is
    // read.
    std::string missing = all;
    missing.replace(missing.find(dir.file("first.h5")), dir.file("first.h5").size(), dir.file("nowhere.h5"));
    CHECK_THROWS_WITH_AS(read_deck_text(missing, "t4.toml"),
                         doctest::Contains("beam.file: cannot read the beam file"), DeckError);
}

TEST_CASE("a run that fails leaves no output file")
{
    TempDir dir;
    RunOptions opt;
    opt.backend = "cpu";
    opt.quiet = true;
    SUBCASE("missing output directory: refused before tracking")
    {
        opt.output = dir.file("missing/t.h5");
        CHECK_THROWS(run_beamline(read_deck_text(k_deck, "t.toml"), opt));
    }
    CHECK(dir.entries().empty());
}

TEST_CASE("the command line: exit codes and messages a user reads")
{
    TempDir dir;
    std::string const deck = dir.file("t.toml");
    std::ofstream(deck) << k_deck;

    Result ok = run_gtrack("run " + deck + " --backend cpu -o " + dir.file("out.h5"));
    CHECK(ok.status == 0);
    CHECK(ok.output.find("alive") != std::string::npos);
    CHECK(file_exists(dir.file("out.h5")));

    Result bad = run_gtrack("check " + deck + " --set elements.Q.k2=1 --set 'beam.kinetic_energy=3 mm'");
    CHECK(bad.status == 2);
    CHECK(bad.output.find("elements.Q.k2: unknown key 'k2' (did you mean 'k1'?)") != std::string::npos);
    CHECK(bad.output.find("beam.kinetic_energy: expected an energy") != std::string::npos);
    CHECK(bad.output.find("2 problems in the deck") != std::string::npos);

    Result check = run_gtrack("check " + deck);
    CHECK(check.status == 0);
    CHECK(check.output.find("deck OK") != std::string::npos);
    CHECK(check.output.find("sbend") == std::string::npos);
    CHECK(check.output.find("quadrupole") != std::string::npos);

    Result missing = run_gtrack("run " + dir.file("nope.toml"));
    CHECK(missing.status == 2);
    CHECK(missing.output.find("nope.toml") != std::string::npos);

    if (device::count() == 0) {
        Result gpu = run_gtrack("run " + deck + " --backend gpu -o " + dir.file("gpu.h5"));
        CHECK(gpu.status == 1);
        CHECK(gpu.output.find("--backend gpu") != std::string::npos);
        CHECK_FALSE(file_exists(dir.file("gpu.h5")));
        Result autob = run_gtrack("run " + deck + " -o " + dir.file("auto.h5"));
        CHECK(autob.status == 0);
        CHECK(autob.output.find("running on the CPU") != std::string::npos);
    }
    Result version = run_gtrack("--version");
    CHECK(version.status == 0);
    CHECK(version.output.find("gtrack 0.1.0") != std::string::npos);
}
