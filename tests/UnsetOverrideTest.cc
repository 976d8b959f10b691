// --unset KEY: removes a deck key or table, in command-line order with --set; a key that is not
// there is a located error with a suggestion. Read through read_deck, and through the executable.
#include <doctest/doctest.h>

#include <array>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "CommandTestSupport.hh"
#include "IoTestSupport.hh"
#include "Relative.hh"
#include "TextTestSupport.hh"
#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"
#include "deck/UnsetOverride.hh"
#include "io/Provenance.hh"

using namespace gt;
using gt::test::contains;

namespace {

std::string const k_fodo = GTRACK_SOURCE_DIR "/inputs/fodo.toml";
std::string const k_tracker = GTRACK_SOURCE_DIR "/inputs/tracker.toml";
std::string const k_scan = GTRACK_SOURCE_DIR "/inputs/fodo_scan.toml";

// A diagonal second-moment matrix: 1 mm and 1 mrad rms in every plane.
std::string const k_sigma =
    "beam.sigma.matrix=[[1e-6,0,0,0,0,0],[0,1e-6,0,0,0,0],[0,0,1e-6,0,0,0],[0,0,0,1e-6,0,0],"
    "[0,0,0,0,1e-6,0],[0,0,0,0,0,1e-6]]";

std::vector<Diagnostic> errors_of(std::string const& deck, std::vector<std::string> const& overrides)
{
    try {
        read_deck(deck, overrides);
    } catch (DeckError const& e) {
        return e.diagnostics();
    }
    return {};
}

}  // namespace

TEST_CASE("--unset removes a key or a table before the --set after it")
{
    // [beam.twiss] and [beam.sigma] exclude each other: the shape is switched only with --unset.
    CHECK(contains(errors_of(k_fodo, {k_sigma}).at(0).message, "give either [beam.twiss] or [beam.sigma]"));
    DeckConfig cfg = read_deck(k_fodo, {unset_override("beam.twiss"), k_sigma});
    REQUIRE(cfg.beam.sigma_matrix.has_value());
    CHECK((*cfg.beam.sigma_matrix)[0] == 1e-6);
    CHECK(cfg.beam.x.emittance == 0.0);  // nothing of the deck's [beam.twiss] is left

    // One reference energy only: switch kinetic energy to momentum (p c = 729.133763 MeV is 250 MeV
    // kinetic for a proton, as `gtrack check inputs/fodo.toml` prints).
    cfg = read_deck(k_fodo, {unset_override("beam.kinetic_energy"), "beam.momentum=729.133763 MeV"});
    CHECK(cfg.beam.kinetic_energy_mev == test::relative(250.0, 1e-8));

    // Command-line order: a later --unset removes what an earlier --set gave, and the reverse.
    cfg = read_deck(k_fodo, {"output.file=\"a.h5\"", unset_override("output.file")});
    CHECK(cfg.output.file == "fodo.h5");  // the default: the run name
    cfg = read_deck(k_fodo, {unset_override("output.file"), "output.file=\"b.h5\""});
    CHECK(cfg.output.file == "b.h5");

    // A whole section: [output] back to its defaults.
    cfg = read_deck(k_fodo, {unset_override("output")});
    CHECK(cfg.output.phase_space == std::vector<std::string>{"end"});
    CHECK(cfg.output.stats == StatsWhere::every_element);

    // A scan deck without its [scan] (and its output file name with {index}) is a plain deck.
    CHECK(read_deck(k_scan).scan.size() == 10);
    cfg = read_deck(k_scan, {unset_override("scan"), unset_override("output.file")});
    CHECK(cfg.scan.empty());
    CHECK(cfg.output.file == "fodo_scan.h5");

    // The overrides are kept, in order, for the output file's provenance.
    cfg = read_deck(k_fodo, {unset_override("beam.twiss"), k_sigma});
    CHECK(cfg.overrides == std::vector<std::string>{"--unset beam.twiss", k_sigma});
}

TEST_CASE("--unset switches a detector field's type")
{
    // Setting only the type keeps the solenoid's keys, which a uniform field does not take.
    auto const ds = errors_of(k_tracker, {"field.type=uniform", "field.B=[0, 0, \"1 T\"]"});
    REQUIRE(!ds.empty());
    CHECK(contains(ds[0].message, "unknown key 'radius'"));
    DeckConfig const cfg =
        read_deck(k_tracker, {unset_override("field"), "field.type=uniform", "field.B=[0, 0, \"1 T\"]"});
    CHECK(cfg.detector.field.type == "uniform");
    CHECK(cfg.detector.field.b == std::array<double, 3>{0.0, 0.0, 1.0});
}

TEST_CASE("--unset of a key that is not there: located at the option, with a suggestion")
{
    auto ds = errors_of(k_fodo, {unset_override("beam.twiss.beta_z")});
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].where.file == "--unset beam.twiss.beta_z");
    CHECK(ds[0].where.line == 0);
    CHECK(ds[0].key == "beam.twiss.beta_z");
    CHECK(ds[0].format() ==
          "--unset beam.twiss.beta_z: beam.twiss.beta_z: cannot unset 'beam.twiss.beta_z': [beam.twiss] has "
          "no 'beta_z' (did you mean 'beta_x'?)");

    ds = errors_of(k_fodo, {unset_override("ouptut")});
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message == "cannot unset 'ouptut': the deck has no 'ouptut' (did you mean 'output'?)");

    ds = errors_of(k_fodo, {unset_override("beam.macroparticles.x")});
    REQUIRE(ds.size() == 1);
    CHECK(contains(ds[0].message, "'beam.macroparticles' is an integer (100000), not a table"));

    ds = errors_of(k_fodo, {unset_override("beam.macroparticles=5")});
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].key == "beam.macroparticles");
    CHECK(ds[0].message == "--unset takes a key without a value (to set one: --set beam.macroparticles=5)");

    ds = errors_of(k_fodo, {unset_override("beam..twiss")});
    REQUIRE(ds.size() == 1);
    CHECK(contains(ds[0].message, "expected a key path such as space_charge.grid"));

    // Removed twice: the second finds nothing. Deck problems come first, then the command line's.
    ds = errors_of(k_fodo, {unset_override("beam.twiss"), unset_override("beam.twiss"), "lattice.turns=0"});
    REQUIRE(ds.size() == 3);
    CHECK(ds[0].key == "beam.twiss");  // the shape is missing now: located in the deck
    CHECK(ds[0].where.line > 0);
    CHECK(ds[1].where.file == "--unset beam.twiss");
    CHECK(ds[2].where.file == "--set lattice.turns=0");
}

TEST_CASE("gtrack check, run and scan take --unset in order with --set")
{
    using gt::test::run_gtrack;
    auto r = run_gtrack(fmt::format("check {} --unset beam.twiss --set '{}'", k_fodo, k_sigma));
    INFO(r.output);
    CHECK(r.status == 0);
    CHECK(contains(r.output, "rms x, px, y, py, t, pt: 0.001 0.001 0.001 0.001 0.001 0.001"));

    // Command-line order: unset then set gives the new energy; set then unset leaves none.
    r = run_gtrack(fmt::format("check {} --unset beam.kinetic_energy --set beam.kinetic_energy=300", k_fodo));
    CHECK(r.status == 0);
    CHECK(contains(r.output, "300 MeV kinetic"));
    r = run_gtrack(fmt::format("check {} --set beam.kinetic_energy=300 --unset beam.kinetic_energy", k_fodo));
    CHECK(r.status == 2);
    CHECK(contains(r.output, "missing the reference energy"));

    r = run_gtrack(fmt::format("check {} --unset beam.twiss.beta_z", k_fodo));
    CHECK(r.status == 2);
    CHECK(contains(r.output, "--unset beam.twiss.beta_z: beam.twiss.beta_z: cannot unset"));
    CHECK(contains(r.output, "(did you mean 'beta_x'?)"));
    CHECK(contains(r.output, "nothing was run"));

    // scan --local passes --unset to every point's process: without it, each point would have two
    // reference energies and fail.
    test::TempDir dir;
    r = run_gtrack(
        fmt::format("scan {} --local -j 2 --backend cpu --threads 1 --set beam.macroparticles=200 --unset "
                    "beam.kinetic_energy --set 'beam.momentum=\"729.133763 MeV\"' -o '{}/p{{index}}.h5'",
                    k_scan, dir.path()));
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(contains(r.output, "10 run, 0 skipped (complete), 0 failed"));
    CHECK(read_provenance(dir.file("p3.h5")).overrides ==
          std::vector<std::string>{"beam.macroparticles=200", "--unset beam.kinetic_energy",
                                   "beam.momentum=\"729.133763 MeV\""});
}
