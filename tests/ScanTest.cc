// Parameter scans in the deck: [scan] read and checked, points <-> values, output-name templates, and
// the job-array index from a scheduler's environment.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"
#include "deck/Scan.hh"
#include "TextTestSupport.hh"

using namespace gt;

namespace {

// A valid deck without [scan]; line numbers below count from here (13 lines).
std::string const k_deck = R"([run]
name = "s"
[beam]
particle = "proton"
kinetic_energy = "250 MeV"
macroparticles = 100
[beam.twiss]
beta_x = 1.0
emittance_x = 1e-6
beta_y = 1.0
emittance_y = 1e-6
[elements]
QF = { type = "quadrupole", length = 0.5, k1 = 1.2 }
QD = { type = "quadrupole", length = 0.5, k1 = -1.2 }
D = { type = "drift", length = 1.0 }
[lattice]
line = ["QF", "D", "QD", "D"]
)";
int const k_deck_lines = 17;

// DECKS.md's example: 3 x 2 x 5 = 30 points.
std::string const k_scan = R"([scan]
mode = "cartesian"
"elements.QF.k1" = [2.0, 3.0, 4.0]
"beam.kinetic_energy" = ["50 MeV", "100 MeV"]
"elements.QD.k1" = { from = -4.0, to = -2.0, count = 5 }
[output]
file = "scan_{index}.h5"
)";

std::vector<Diagnostic> errors_of(std::string const& text, std::optional<std::uint64_t> index = std::nullopt,
                                  std::vector<std::string> const& overrides = {})
{
    try {
        read_deck_text(text, "deck.toml", overrides, index);
    } catch (DeckError const& e) {
        return e.diagnostics();
    }
    return {};
}

std::string all(std::vector<Diagnostic> const& ds)
{
    std::string text;
    for (auto const& d : ds) text += d.format() + "\n";
    return text;
}

//! The single diagnostic of a deck, checked to be at `line` (counted in the whole text).
Diagnostic one_error(std::string const& text, int line, std::optional<std::uint64_t> index = std::nullopt)
{
    auto const ds = errors_of(text, index);
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].where.file == "deck.toml");
    CHECK(ds[0].where.line == line);
    return ds[0];
}

using gt::test::contains;

std::string scan_of(std::string const& body) { return k_deck + "[scan]\n" + body; }

}  // namespace

TEST_CASE("cartesian scan: stable index <-> values, the last parameter fastest")
{
    DeckConfig const cfg = read_deck_text(k_deck + k_scan, "deck.toml");
    ScanConfig const& scan = cfg.scan;
    REQUIRE(scan.parameters.size() == 3);
    CHECK(scan.mode == ScanMode::cartesian);
    CHECK(scan.size() == 30);
    CHECK(scan.parameters[0].key == "elements.QF.k1");
    CHECK(scan.parameters[1].labels == std::vector<std::string>{"50 MeV", "100 MeV"});
    CHECK(scan.parameters[2].labels == std::vector<std::string>{"-4.0", "-3.5", "-3.0", "-2.5", "-2.0"});
    CHECK(!cfg.scan_index);
    CHECK(cfg.output.file == "scan_{index}.h5");  // no point chosen: the template

    // Point = (i0 * 2 + i1) * 5 + i2, and back, for every point.
    for (std::uint64_t p = 0; p < 30; ++p) {
        auto const idx = scan.value_indices(p);
        CHECK(idx == std::vector<std::size_t>{p / 10, (p / 5) % 2, p % 5});
        CHECK(scan.point_of(idx) == p);
    }
    CHECK(scan.labels_at(0) == std::vector<std::string>{"2.0", "50 MeV", "-4.0"});
    CHECK(scan.labels_at(17) == std::vector<std::string>{"3.0", "100 MeV", "-3.0"});
    CHECK(scan.labels_at(29) == std::vector<std::string>{"4.0", "100 MeV", "-2.0"});
    CHECK(scan.describe_point(17) ==
          "elements.QF.k1 = 3.0, beam.kinetic_energy = 100 MeV, elements.QD.k1 = -3.0");
    CHECK_THROWS_AS(scan.value_indices(30), std::out_of_range);

    // Reading point 17 applies its values with the deck's units and checks.
    DeckConfig const p17 = read_deck_text(k_deck + k_scan, "deck.toml", {}, 17);
    CHECK(p17.scan_index == 17u);
    CHECK(p17.find_element("QF")->values.at("k1") == 3.0);
    CHECK(p17.find_element("QD")->values.at("k1") == -3.0);
    CHECK(p17.beam.kinetic_energy_mev == 100.0);
    CHECK(p17.output.file == "scan_17.h5");
    CHECK(p17.output.file_template == "scan_{index}.h5");
    // --set applies first, the scan's values after it.
    DeckConfig const set =
        read_deck_text(k_deck + k_scan, "deck.toml", {"elements.QF.k1=9", "run.seed=7"}, 3);
    CHECK(set.find_element("QF")->values.at("k1") == 2.0);
    CHECK(set.run.seed == 7);
}

TEST_CASE("zip scan: point i takes value i of every list")
{
    std::string const text = scan_of(R"(mode = "zip"
"elements.QF.k1" = [1.0, 1.5, 2.0]
"beam.kinetic_energy" = { from = "100 MeV", to = "300 MeV", count = 3 }
)");
    DeckConfig const cfg = read_deck_text(text, "deck.toml");
    ScanConfig const& scan = cfg.scan;
    CHECK(scan.mode == ScanMode::zip);
    REQUIRE(scan.size() == 3);
    for (std::uint64_t p = 0; p < 3; ++p) {
        CHECK(scan.value_indices(p) == std::vector<std::size_t>{p, p});
        CHECK(scan.point_of({p, p}) == p);
    }
    CHECK(scan.labels_at(1) == std::vector<std::string>{"1.5", "200 MeV"});
    CHECK_THROWS(scan.point_of({0, 1}));
    DeckConfig const p2 = read_deck_text(text, "deck.toml", {}, 2);
    CHECK(p2.find_element("QF")->values.at("k1") == 2.0);
    CHECK(p2.beam.kinetic_energy_mev == 300.0);
    CHECK(p2.output.file == "s_2.h5");  // the default name of a scan point
}

TEST_CASE("ranges: linear, logarithmic, whole numbers, units; dotted keys")
{
    DeckConfig const cfg = read_deck_text(
        scan_of(R"("elements.D.length" = { from = "10 cm", to = "1000 cm", count = 3, log = true }
"beam.macroparticles" = { from = 100, to = 400, count = 4 }
elements.QF.k1 = { from = 1, to = 2, count = 3 }
"run.seed" = { from = 5, to = 5, count = 1 }
)"),
        "deck.toml");
    ScanConfig const& scan = cfg.scan;
    REQUIRE(scan.parameters.size() == 4);
    CHECK(scan.parameters[0].labels == std::vector<std::string>{"10 cm", "100 cm", "1000 cm"});
    CHECK(scan.parameters[1].labels == std::vector<std::string>{"100", "200", "300", "400"});
    CHECK(scan.parameters[2].key == "elements.QF.k1");  // written unquoted: a dotted key
    CHECK(scan.parameters[2].labels == std::vector<std::string>{"1.0", "1.5", "2.0"});  // not whole steps
    CHECK(scan.parameters[3].labels == std::vector<std::string>{"5"});
    CHECK(scan.size() == 36);
    DeckConfig const last = read_deck_text(
        scan_of(R"("elements.D.length" = { from = "10 cm", to = "1000 cm", count = 3, log = true }
"beam.macroparticles" = { from = 100, to = 400, count = 4 }
)"),
        "deck.toml", {}, 11);
    CHECK(last.find_element("D")->values.at("length") == doctest::Approx(10.0));
    CHECK(last.beam.macroparticles == 400);
}

TEST_CASE("[scan] problems: located at the [scan] line, all reported at once")
{
    int const s = k_deck_lines + 1;  // the [scan] line
    auto d = one_error(scan_of("\"elements.QX.k1\" = [1.0]\n"), s + 1);
    CHECK(d.key == "scan.\"elements.QX.k1\"");
    CHECK(contains(d.message, "unknown key path 'elements.QX.k1': [elements] has no 'QX' (did you mean 'Q"));
    d = one_error(scan_of("\"bean.kinetic_energy\" = [1.0]\n"), s + 1);
    CHECK(contains(d.message, "no section [bean] (did you mean 'beam'?)"));
    d = one_error(scan_of("\"elements.QF.k1\" = []\n"), s + 1);
    CHECK(contains(d.message, "an empty list of values"));
    d = one_error(scan_of("\"elements.QF.k1\" = { from = 1.0, to = 2.0, count = 0 }\n"), s + 1);
    CHECK(contains(d.message, "expected a whole number >= 1, got 0"));
    d = one_error(scan_of("\"elements.QD.k1\" = { from = -4.0, to = -2.0, count = 3, log = true }\n"), s + 1);
    CHECK(contains(d.message, "a log range needs ends > 0"));
    d = one_error(scan_of("\"elements.QF.k1\" = { from = 0.0, to = 2.0, count = 3, log = true }\n"), s + 1);
    CHECK(contains(d.message, "a log range needs ends > 0"));
    d = one_error(scan_of("\"elements.QF.k1\" = { from = 1.0, count = 3 }\n"), s + 1);
    CHECK(contains(d.message, "missing required key 'to'"));
    d = one_error(scan_of("\"beam.kinetic_energy\" = { from = \"50 MeV\", to = \"1 GeV\", count = 3 }\n"),
                  s + 1);
    CHECK(contains(d.message, "give both ends of a range in one unit"));
    d = one_error(scan_of("\"elements.QF.k1\" = 2.0\n"), s + 1);
    CHECK(contains(d.message, "expected a list of values [a, b, ...] or a range"));
    d = one_error(scan_of("mode = \"zipp\"\n\"elements.QF.k1\" = [1.0]\n"), s + 1);
    CHECK(contains(d.message, "(did you mean 'zip'?)"));
    d = one_error(scan_of("mode = \"zip\"\n\"elements.QF.k1\" = [1.0, 2.0]\n\"elements.QD.k1\" = [1.0]\n"),
                  s + 3);
    CHECK(contains(d.message, "mode = \"zip\" needs lists of one length: 'elements.QD.k1' has 1 value"));
    d = one_error(scan_of("mode = \"zip\"\n"), s);
    CHECK(contains(d.message, "needs at least one parameter"));

    // Several problems at once, in line order.
    auto const ds = errors_of(scan_of("\"elements.QX.k1\" = [1.0]\n\"elements.QF.k1\" = []\n"));
    INFO(all(ds));
    REQUIRE(ds.size() == 2);
    CHECK(ds[0].where.line == s + 1);
    CHECK(ds[1].where.line == s + 2);
}

TEST_CASE("every scan value gets the deck's checks, located at the value")
{
    int const s = k_deck_lines + 1;
    // The second value has the wrong dimension: reported at its own column of the [scan] line.
    auto d = one_error(scan_of("\"beam.kinetic_energy\" = [\"50 MeV\", \"3 mrad\"]\n"), s + 1);
    CHECK(d.key == "beam.kinetic_energy");
    CHECK(d.where.column == 36);
    CHECK(contains(d.message, "expected an energy"));
    // A misspelt leaf key: once, with a suggestion.
    d = one_error(scan_of("\"elements.QF.k2\" = [1.0, 2.0]\n"), s + 1);
    CHECK(d.key == "elements.QF.k2");
    CHECK(contains(d.message, "unknown key 'k2' (did you mean 'k1'?)"));
    // A range value out of the key's bounds.
    d = one_error(scan_of("\"beam.macroparticles\" = { from = 0, to = 10, count = 2 }\n"), s + 1);
    CHECK(d.key == "beam.macroparticles");
    // A problem the value causes elsewhere says which point showed it.
    auto const ds = errors_of(
        k_deck + "[space_charge]\nenabled = true\n[scan]\n\"beam.bunch_charge\" = [\"1 nC\", 0.0]\n",
        std::nullopt, {"beam.bunch_charge=2 nC"});
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].where.line == k_deck_lines + 2);
    CHECK(contains(ds[0].message, "(at scan point 1: beam.bunch_charge = 0.0)"));
    // A key the scan supplies need not be in the deck.
    std::string no_k1 = k_deck;
    no_k1.replace(no_k1.find(", k1 = 1.2"), 10, "");
    DeckConfig const cfg =
        read_deck_text(no_k1 + "[scan]\n\"elements.QF.k1\" = [1.0, 2.0]\n", "deck.toml", {}, 1);
    CHECK(cfg.find_element("QF")->values.at("k1") == 2.0);
}

TEST_CASE("--scan-index out of range or without [scan]: a clear error")
{
    std::string const text = k_deck + k_scan;
    auto d = one_error(text, k_deck_lines + 1, 30);
    CHECK(d.key == "scan");
    CHECK(d.message == "--scan-index 30: the scan has 30 points (0 to 29)");
    auto const ds = errors_of(k_deck, 0);
    REQUIRE(ds.size() == 1);
    CHECK(contains(ds[0].message, "--scan-index 0: the deck has no [scan] table"));
}

TEST_CASE("output names: {index}, {name}, scanned keys; points must not share a file")
{
    DeckConfig const cfg = read_deck_text(k_deck + k_scan, "deck.toml");
    ScanConfig const& scan = cfg.scan;
    CHECK(expand_output_name("out/{name}_{index:03}.h5", "run", scan, 7) == "out/run_007.h5");
    CHECK(expand_output_name("e{kinetic_energy}_k{elements.QF.k1}.h5", "run", scan, 7) == "e100_MeV_k2.0.h5");
    CHECK(expand_output_name("{{x}}_{index}.h5", "r", scan, 2) == "{x}_2.h5");
    CHECK_THROWS_WITH_AS(expand_output_name("{k1}.h5", "r", scan, 0),
                         doctest::Contains("more than one scanned key"), ScanError);
    CHECK_THROWS_WITH_AS(expand_output_name("{indx}.h5", "r", scan, 0),
                         doctest::Contains("did you mean 'index'"), ScanError);
    CHECK_THROWS_AS(expand_output_name("{index.h5", "r", scan, 0), ScanError);
    CHECK_THROWS_AS(expand_output_name("{index}.h5", "r", ScanConfig{}, std::nullopt), ScanError);
    CHECK(expand_output_name("{name}.h5", "r", ScanConfig{}, std::nullopt) == "r.h5");

    std::string text = k_deck + k_scan;
    int const file_line = k_deck_lines + 7;
    auto d = one_error(text.replace(text.find("scan_{index}"), 12, "scan"), file_line);
    CHECK(d.key == "output.file");
    CHECK(contains(d.message, "every point of the scan would write 'scan.h5'"));
    text = k_deck + k_scan;
    d = one_error(text.replace(text.find("scan_{index}"), 12, "k{elements.QF.k1}"), file_line);
    CHECK(contains(d.message, "scan points 0 and 1 would both write 'k2.0.h5'"));
    text = k_deck + k_scan;
    d = one_error(text.replace(text.find("scan_{index}"), 12, "k{k3}"), file_line);
    CHECK(contains(d.message, "unknown field {k3}"));
}

TEST_CASE("--scan-index env: the job-array task of SLURM, PBS, LSF or Grid Engine")
{
    auto const env = [](std::map<std::string, std::string> vars) {
        return [vars](char const* name) -> char const* {
            auto const it = vars.find(name);
            return it == vars.end() ? nullptr : it->second.c_str();
        };
    };
    ArrayTask t = scan_index_from_environment(env({{"SLURM_ARRAY_TASK_ID", "4"}}));
    CHECK(t.variable == "SLURM_ARRAY_TASK_ID");
    CHECK(t.point == 4);
    CHECK(scan_index_from_environment(env({{"PBS_ARRAYID", "0"}})).point == 0);
    CHECK(scan_index_from_environment(env({{"PBS_ARRAY_INDEX", "12"}})).point == 12);
    // LSF and Grid Engine number tasks from 1.
    CHECK(scan_index_from_environment(env({{"LSB_JOBINDEX", "1"}})).point == 0);
    CHECK(scan_index_from_environment(env({{"SGE_TASK_ID", "10"}})).point == 9);
    // Outside array jobs they set "0" and "undefined": not an index.
    CHECK_THROWS_WITH_AS(
        scan_index_from_environment(env({{"LSB_JOBINDEX", "0"}, {"SGE_TASK_ID", "undefined"}})),
        doctest::Contains("no job-array task index in the environment"), ScanError);
    CHECK_THROWS_WITH_AS(scan_index_from_environment(env({})),
                         doctest::Contains("none of SLURM_ARRAY_TASK_ID, PBS_ARRAYID, PBS_ARRAY_INDEX, "
                                           "LSB_JOBINDEX, SGE_TASK_ID is set"),
                         ScanError);
    CHECK_THROWS_WITH_AS(scan_index_from_environment(env({{"SLURM_ARRAY_TASK_ID", "4x"}})),
                         doctest::Contains("SLURM_ARRAY_TASK_ID=4x is not a job-array task number"),
                         ScanError);
    CHECK(parse_scan_index("17") == 17);
    CHECK_THROWS_AS(parse_scan_index("-1"), ScanError);
    CHECK_THROWS_AS(parse_scan_index("seven"), ScanError);
}
