// The deck reader: correct decks give SI values; every class of bad input gives a located diagnostic.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "Relative.hh"
#include "TextTestSupport.hh"
#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"
#include "deck/ElementRegistry.hh"
#include "kernels/core/Types.hh"

using namespace gt;

namespace {

// A valid deck; tests replace single lines, so every line number below is stable.
std::vector<std::string> const k_base = {
    "[run]",                                                                                     // 1
    "name = \"t\"",                                                                              // 2
    "seed = 5",                                                                                  // 3
    "[beam]",                                                                                    // 4
    "particle = \"proton\"",                                                                     // 5
    "kinetic_energy = \"2 GeV\"",                                                                // 6
    "bunch_charge = \"1 nC\"",                                                                   // 7
    "macroparticles = 1000",                                                                     // 8
    "distribution = \"gaussian\"",                                                               // 9
    "[beam.twiss]",                                                                              // 10
    "beta_x = 10.0",                                                                             // 11
    "emittance_x = \"1 um\"",                                                                    // 12
    "beta_y = \"50 cm\"",                                                                        // 13
    "emittance_y = 1e-6",                                                                        // 14
    "sigma_t = \"1 mm\"",                                                                        // 15
    "sigma_pt = 1e-3",                                                                           // 16
    "[elements]",                                                                                // 17
    "QF = { type = \"quadrupole\", length = \"50 cm\", k1 = 1.2 }",                              // 18
    "QD = { type = \"quadrupole\", length = 0.5, k1 = -1.2, model = \"kick\" }",                 // 19
    "D = { type = \"drift\", length = 2.0 }",                                                    // 20
    "B = { type = \"sbend\", length = 1.0, angle = \"10 deg\", fint = 0.5 }",                    // 21
    "RF = { type = \"rfcavity\", voltage = \"2 MV\", frequency = \"352.2 MHz\", phase = -30 }",  // 22
    "M = { type = \"multipole\", knl = [0.0, 0.01, 0.2] }",                                      // 23
    "BPM = { type = \"monitor\" }",                                                              // 24
    "[lattice]",                                                                                 // 25
    "cell = [\"QF\", \"D\", \"QD\", \"D\", \"BPM\"]",                                            // 26
    "line = [\"cell*3\", \"B\", \"RF\", \"M\"]",                                                 // 27
    "[output]",                                                                                  // 28
    "phase_space = [\"BPM\", \"end\"]",                                                          // 29
};

std::string text_of(std::vector<std::string> const& lines)
{
    std::string text;
    for (auto const& l : lines) text += l + "\n";
    return text;
}

//! The base deck with line n (1-based) replaced.
std::string with_line(int n, std::string const& replacement)
{
    auto lines = k_base;
    lines[static_cast<std::size_t>(n - 1)] = replacement;
    return text_of(lines);
}

std::string with_lines(std::vector<std::pair<int, std::string>> const& changes)
{
    auto lines = k_base;
    for (auto const& [n, s] : changes) lines[static_cast<std::size_t>(n - 1)] = s;
    return text_of(lines);
}

std::string base_text() { return text_of(k_base); }

std::vector<Diagnostic> errors_of(std::string const& text, std::vector<std::string> const& overrides = {})
{
    try {
        read_deck_text(text, "deck.toml", overrides);
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

//! The single diagnostic a deck gives, checked to be located at line and key.
Diagnostic one_error(std::string const& text, int line, std::string const& key,
                     std::vector<std::string> const& overrides = {})
{
    auto const ds = errors_of(text, overrides);
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].where.file == "deck.toml");
    CHECK(ds[0].where.line == line);
    CHECK(ds[0].key == key);
    return ds[0];
}

using gt::test::contains;

}  // namespace

TEST_CASE("a correct deck gives SI values, defaults filled in")
{
    auto const cfg = read_deck_text(base_text(), "decks/fodo.toml");
    CHECK(cfg.path == "decks/fodo.toml");
    CHECK(cfg.text == base_text());
    CHECK(cfg.run.name == "t");
    CHECK(cfg.run.seed == 5);
    CHECK(cfg.run.backend == BackendChoice::automatic);
    CHECK(cfg.beam.species.name == "proton");
    CHECK(cfg.beam.species.mass_mev == constants::proton_mass_mev);
    CHECK(cfg.beam.species.charge_e == 1.0);
    CHECK(cfg.beam.kinetic_energy_mev == 2000.0);
    CHECK(cfg.beam.bunch_charge == 1e-9);
    CHECK(cfg.beam.macroparticles == 1000);
    CHECK(cfg.beam.x.beta == 10.0);
    CHECK(cfg.beam.x.alpha == 0.0);
    CHECK(cfg.beam.x.emittance == 1e-6);
    CHECK(cfg.beam.y.beta == 0.5);
    CHECK(cfg.beam.sigma_t == 1e-3);
    CHECK(!cfg.beam.sigma_matrix);

    REQUIRE(cfg.elements.size() == 7);
    CHECK(cfg.elements[0].name == "QF");  // deck order, not toml++'s sorted order
    CHECK(cfg.elements[6].name == "BPM");
    auto const* qf = cfg.find_element("QF");
    REQUIRE(qf);
    CHECK(qf->type == "quadrupole");
    CHECK(qf->values.at("length") == 0.5);
    CHECK(qf->values.at("k1") == 1.2);
    // Only what the deck gave is stored; defaults come from the schema.
    CHECK(!qf->values.count("kicks"));
    CHECK(!qf->strings.count("model"));
    CHECK(element_value(*qf, "kicks") == 4.0);
    CHECK(element_value(*qf, "slices") == 1.0);
    CHECK(element_value(*qf, "dx") == 0.0);
    CHECK(element_value(*qf, "k1") == 1.2);
    CHECK_THROWS_AS(element_value(*qf, "k2"), std::logic_error);
    CHECK(qf->where.line == 18);
    CHECK(cfg.find_element("QD")->strings.at("model") == "kick");
    auto const* b = cfg.find_element("B");
    CHECK(b->values.at("angle") == test::relative(10 * constants::pi / 180, 1e-15));
    CHECK(element_value(*b, "fintx") == 0.5);  // defaults to fint
    CHECK(element_value(*b, "e1") == 0.0);
    auto const* rf = cfg.find_element("RF");
    CHECK(rf->values.at("frequency") == 3.522e8);
    CHECK(rf->values.at("phase") == test::relative(-0.5236, 1e-4));
    CHECK(rf->values.at("voltage") == 2e6);
    CHECK(element_value(*rf, "length") == 0.0);
    CHECK(element_value(*rf, "phase") != 0.0);
    auto const* m = cfg.find_element("M");
    CHECK(m->arrays.at("knl") == std::vector<double>{0.0, 0.01, 0.2});
    CHECK(!m->arrays.count("ksl"));

    REQUIRE(cfg.lattice.lines.size() == 2);
    CHECK(cfg.lattice.lines[0].first == "cell");
    CHECK(cfg.lattice.lines[1].second == std::vector<std::string>{"cell*3", "B", "RF", "M"});
    CHECK(cfg.lattice.use == "line");
    CHECK(cfg.lattice.turns == 1);
    CHECK(cfg.lattice.line_where.at("cell").line == 26);
    CHECK(cfg.output.file == "t.h5");
    CHECK(cfg.output.phase_space == std::vector<std::string>{"BPM", "end"});
    CHECK(cfg.output.stats == StatsWhere::every_element);
    CHECK(!cfg.space_charge.enabled);
}

TEST_CASE("run name defaults to the file stem; use defaults to the last line when none is called 'line'")
{
    auto const cfg = read_deck_text(with_lines({{2, ""}, {27, "ring = [\"cell\"]"}}), "some/dir/ring7.toml");
    CHECK(cfg.run.name == "ring7");
    CHECK(cfg.output.file == "ring7.h5");
    CHECK(cfg.lattice.use == "ring");
}

TEST_CASE("TOML syntax errors give line and column")
{
    auto const d = one_error(with_line(12, "emittance_x = = 1"), 12, "");
    CHECK(d.where.column > 1);
    CHECK(contains(d.message, "TOML syntax error"));
    CHECK(contains(d.format(), "deck.toml:12:"));
}

TEST_CASE("a quantity without quotes is a syntax error with a hint")
{
    auto const d = one_error(with_line(6, "kinetic_energy = 2 GeV"), 6, "");
    CHECK(contains(d.message, "(a value with a unit is a string: write \"2 GeV\")"));
}

TEST_CASE("unknown keys are errors with a suggestion, at every level")
{
    auto d = one_error(with_line(20, "D = { type = \"drift\", lenght = 2.0, length = 2.0 }"), 20,
                       "elements.D.lenght");
    CHECK(d.message == "unknown key 'lenght' (did you mean 'length'?)");
    d = one_error(with_line(3, "sed = 5"), 3, "run.sed");
    CHECK(contains(d.message, "did you mean 'seed'?"));
    d = one_error(with_line(28, "[outptu]"), 28, "outptu");
    CHECK(contains(d.message, "did you mean 'output'?"));
    d = one_error(with_line(16, "sigma_pt = 1e-3\ngamma_x = 2.0"), 17, "beam.twiss.gamma_x");
    CHECK(d.message == "unknown key 'gamma_x'");
    d = one_error(with_line(27, "line = [\"cell\"]\ntrns = 5"), 28, "lattice.trns");
    CHECK(contains(d.message, "did you mean 'turns'?"));
    d = one_error(with_line(1, "[strips]\n[run]"), 1, "strips");
    CHECK(contains(d.message, "detector decks"));
    // A [geometry] is a detector beside the lattice (docs/decks.md): its own sections are checked then.
    d = one_error(with_line(1, "[geometry]\n[run]"), 1, "geometry.world");
    CHECK(contains(d.message, "missing section [geometry.world]"));
}

TEST_CASE("values of the wrong type")
{
    auto d = one_error(with_line(8, "macroparticles = \"1000\""), 8, "beam.macroparticles");
    CHECK(d.message == "expected a whole number, got a string (\"1000\")");
    d = one_error(with_line(8, "macroparticles = 1000.5"), 8, "beam.macroparticles");
    CHECK(contains(d.message, "expected a whole number"));
    d = one_error(with_line(20, "D = { type = \"drift\", length = true }"), 20, "elements.D.length");
    CHECK(contains(d.message, "expected a length (a number in m, or a string with a unit"));
    d = one_error(with_line(23, "M = { type = \"multipole\", knl = [0.0, \"1 m\"] }"), 23,
                  "elements.M.knl[1]");
    CHECK(contains(d.message, "expected a number"));
    d = one_error(with_line(5, "particle = 1"), 5, "beam.particle");
    CHECK(contains(d.message, "expected one of \"electron\""));
    // A whole number written as a float is a whole number.
    CHECK(read_deck_text(with_line(8, "macroparticles = 1e5"), "d.toml").beam.macroparticles == 100000);
}

TEST_CASE("unit strings that do not parse, and units of the wrong dimension")
{
    auto d = one_error(with_line(20, "D = { type = \"drift\", length = \"2 furlongs\" }"), 20,
                       "elements.D.length");
    CHECK(contains(d.message, "unknown unit 'furlongs'"));
    d = one_error(with_line(20, "D = { type = \"drift\", length = \"3 T\" }"), 20, "elements.D.length");
    CHECK(d.message == "expected a length (m, cm, mm, um, ...), got \"3 T\" (a magnetic field)");
    d = one_error(with_line(21, "B = { type = \"sbend\", length = 1.0, angle = \"5 mm\" }"), 21,
                  "elements.B.angle");
    CHECK(contains(d.message, "expected an angle"));
    d = one_error(with_line(6, "kinetic_energy = \"2 GeV/c\""), 6, "beam.kinetic_energy");
    CHECK(contains(d.message, "(a momentum)"));
    CHECK(contains(d.format(), "deck.toml:6:18: beam.kinetic_energy: expected an energy"));
}

TEST_CASE("out-of-range values and unknown choices")
{
    auto d = one_error(with_line(20, "D = { type = \"drift\", length = -1.0 }"), 20, "elements.D.length");
    CHECK(d.message == "expected a length >= 0, got -1");
    d = one_error(with_line(8, "macroparticles = 0"), 8, "beam.macroparticles");
    CHECK(d.message == "expected a whole number >= 1, got 0");
    d = one_error(with_line(14, "emittance_y = \"-1 nm\""), 14, "beam.twiss.emittance_y");
    CHECK(d.message == "expected an emittance >= 0, got \"-1 nm\"");
    d = one_error(with_line(11, "beta_x = 0"), 11, "beam.twiss.beta_x");
    CHECK(contains(d.message, "> 0"));
    d = one_error(with_line(9, "distribution = \"gauss\""), 9, "beam.distribution");
    CHECK(contains(d.message, "did you mean 'gaussian'?"));
    d = one_error(with_line(19, "QD = { type = \"quadrupole\", length = 0.5, k1 = -1.2, model = \"exakt\" }"),
                  19, "elements.QD.model");
    CHECK(contains(d.message, "did you mean 'exact'?"));
    d = one_error(with_line(24, "BPM = { type = \"monitr\" }"), 24, "elements.BPM.type");
    CHECK(contains(d.message, "did you mean 'monitor'?"));
    d = one_error(with_line(3, "seed = -1"), 3, "run.seed");
    d = one_error(with_line(20, "D = { type = \"drift\", length = 1, slices = 0 }"), 20, "elements.D.slices");
    d = one_error(with_line(22, "RF = { type = \"rfcavity\", voltage = 1e6, frequency = 0 }"), 22,
                  "elements.RF.frequency");
}

TEST_CASE("missing required keys")
{
    auto d = one_error(with_line(6, ""), 4, "beam.kinetic_energy");
    CHECK(contains(d.message, "give one of kinetic_energy, total_energy or momentum"));
    d = one_error(with_line(20, "D = { length = 2.0 }"), 20, "elements.D.type");
    CHECK(contains(d.message, "missing required key 'type'"));
    d = one_error(with_line(18, "QF = { type = \"quadrupole\", k1 = 1.2 }"), 18, "elements.QF.length");
    CHECK(d.message == "a quadrupole needs 'length' (a length, in m)");
    d = one_error(with_line(8, ""), 4, "beam.macroparticles");
    d = one_error(with_line(11, ""), 10, "beam.twiss.beta_x");
    d = one_error(with_line(24, "BPM = { type = \"aperture\", half_x = 0.01, half_y = 0.01 }"), 24,
                  "elements.BPM.shape");
    auto const ds = errors_of(with_lines({{4, ""},
                                          {5, ""},
                                          {6, ""},
                                          {7, ""},
                                          {8, ""},
                                          {9, ""},
                                          {10, ""},
                                          {11, ""},
                                          {12, ""},
                                          {13, ""},
                                          {14, ""},
                                          {15, ""},
                                          {16, ""}}));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].key == "beam");
    CHECK(ds[0].message == "missing section [beam]");
}

TEST_CASE("lines: undefined entries, bad repetition counts, recursion, and use")
{
    auto d =
        one_error(with_line(26, "cell = [\"QF\", \"D\", \"QDD\", \"D\", \"BPM\"]"), 26, "lattice.cell[2]");
    CHECK(d.message == "'QDD' is neither an element nor a line (did you mean 'QD'?)");
    d = one_error(with_line(27, "line = [\"cell*0\", \"B\"]"), 27, "lattice.line[0]");
    CHECK(contains(d.message, "\"name*N\""));
    d = one_error(with_line(27, "line = [\"cell*2*3\"]"), 27, "lattice.line[0]");
    // MAD-X order "N*name" is accepted and stored as "name*N".
    CHECK(read_deck_text(with_line(27, "line = [\"3 * cell\", \"B\"]"), "d.toml").lattice.lines[1].second ==
          std::vector<std::string>{"cell*3", "B"});
    d = one_error(
        with_lines({{26, "cell = [\"QF\", \"arc\"]"}, {27, "arc = [\"D\", \"cell*2\"]\nline = [\"arc\"]"}}),
        27, "lattice.arc[1]");
    CHECK(contains(d.message, "contains itself: cell -> arc -> cell"));
    d = one_error(with_line(27, "line = [\"line\"]"), 27, "lattice.line[0]");
    CHECK(contains(d.message, "contains itself"));
    d = one_error(with_line(27, "line = [\"cell\"]\nuse = \"cel\""), 28, "lattice.use");
    CHECK(contains(d.message, "did you mean 'cell'?"));
    d = one_error(with_line(27, "D = [\"QF\"]\nline = [\"cell\"]"), 27, "lattice.D");
    CHECK(contains(d.message, "both an element and a line"));
    // A broken element is reported once, not again at every line that names it.
    d = one_error(with_line(20, "D = { type = \"drift\" }"), 20, "elements.D.length");
}

TEST_CASE("lattice settings: turns, global aperture")
{
    auto const cfg = read_deck_text(with_line(27,
                                              "line = [\"cell\"]\nturns = 100\naperture = { shape = "
                                              "\"ellipse\", half_x = \"4 cm\", half_y = 0.03 }"),
                                    "d.toml");
    CHECK(cfg.lattice.turns == 100);
    CHECK(cfg.lattice.global_shape == "ellipse");
    CHECK(cfg.lattice.global_half_x == 0.04);
    CHECK(cfg.lattice.global_half_y == 0.03);
    one_error(with_line(27, "line = [\"cell\"]\nturns = 0"), 28, "lattice.turns");
    auto d = one_error(
        with_line(27, "line = [\"cell\"]\naperture = { shape = \"circle\", half_x = 1, half_y = 1 }"), 28,
        "lattice.aperture.shape");
}

TEST_CASE("several errors in one deck are all reported, in line order")
{
    auto const ds = errors_of(with_lines({{3, "seed = \"x\""},
                                          {9, "distribution = \"gauss\""},
                                          {13, "beta_y = \"50 T\""},
                                          {20, "D = { type = \"drift\", length = 2.0, tilt = \"3 mm\" }"},
                                          {26, "cell = [\"QF\", \"DD\"]"}}));
    INFO(all(ds));
    REQUIRE(ds.size() == 5);
    CHECK(ds[0].where.line == 3);
    CHECK(ds[1].where.line == 9);
    CHECK(ds[2].where.line == 13);
    CHECK(ds[3].where.line == 20);
    CHECK(ds[3].key == "elements.D.tilt");
    CHECK(ds[4].where.line == 26);
    // The exception's message is every diagnostic, one per line.
    try {
        read_deck_text(with_lines({{3, "seed = \"x\""}, {9, "distribution = \"gauss\""}}), "deck.toml");
        FAIL("no error");
    } catch (DeckError const& e) {
        std::string const what = e.what();
        CHECK(contains(what, "deck.toml:3:8: run.seed: expected a whole number"));
        CHECK(contains(what, "\ndeck.toml:9:16: beam.distribution:"));
    }
}

TEST_CASE("--set overrides: values parsed as TOML or as plain strings, inserted and checked")
{
    auto const cfg = read_deck_text(
        base_text(), "deck.toml",
        {"beam.kinetic_energy=300 MeV", "elements.QF.k1=1.3", "beam.macroparticles=1000",
         "output.file=\"x.h5\"", "lattice.line=[\"QF\",\"D\",\"BPM\"]", "run.backend=cpu",
         "elements.K = {type = \"kicker\", hkick = \"1 mrad\"}", "space_charge.grid=[32, 32, 16]"});
    CHECK(cfg.beam.kinetic_energy_mev == 300.0);
    CHECK(cfg.find_element("QF")->values.at("k1") == 1.3);
    CHECK(cfg.beam.macroparticles == 1000);
    CHECK(cfg.output.file == "x.h5");
    CHECK(cfg.lattice.lines[1].second == std::vector<std::string>{"QF", "D", "BPM"});
    CHECK(cfg.run.backend == BackendChoice::cpu);
    CHECK(cfg.find_element("K")->values.at("hkick") == 1e-3);
    CHECK(cfg.space_charge.grid == std::array<int, 3>{32, 32, 16});
    CHECK(cfg.overrides.size() == 8);
    CHECK(cfg.text == base_text());  // the deck as read, overrides kept apart
}

TEST_CASE("bad --set: located at the override, same checks as the file")
{
    auto ds = errors_of(base_text(), {"beam.kinetic_enrgy=300 MeV"});
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].where.file == "--set beam.kinetic_enrgy=300 MeV");
    CHECK(ds[0].where.line == 0);
    CHECK(ds[0].key == "beam.kinetic_enrgy");
    CHECK(contains(ds[0].message, "did you mean 'kinetic_energy'?"));
    CHECK(ds[0].format() ==
          "--set beam.kinetic_enrgy=300 MeV: beam.kinetic_enrgy: unknown key 'kinetic_enrgy' (did you mean "
          "'kinetic_energy'?)");

    ds = errors_of(base_text(), {"elements.QF.length=3 T"});
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].where.file == "--set elements.QF.length=3 T");
    CHECK(ds[0].key == "elements.QF.length");
    CHECK(contains(ds[0].message, "(a magnetic field)"));

    ds = errors_of(base_text(), {"elements.NEW.length=1"});  // a new element without a type
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].where.file == "--set elements.NEW.length=1");
    CHECK(ds[0].key == "elements.NEW.type");

    ds = errors_of(base_text(), {"beam.macroparticles"});
    REQUIRE(ds.size() == 1);
    CHECK(contains(ds[0].message, "expected KEY=VALUE"));

    ds = errors_of(base_text(), {"beam.macroparticles.x=3"});
    REQUIRE(ds.size() == 1);
    CHECK(contains(ds[0].message, "is an integer (1000), not a table"));

    // File errors come first, then the overrides'.
    ds = errors_of(with_line(3, "seed = -2"), {"lattice.turns=0"});
    REQUIRE(ds.size() == 2);
    CHECK(ds[0].where.line == 3);
    CHECK(ds[1].where.file == "--set lattice.turns=0");
}

TEST_CASE("reference energy from total energy or momentum; ions")
{
    auto cfg = read_deck_text(with_line(6, "momentum = \"2 GeV/c\""), "d.toml");
    double const m = constants::proton_mass_mev;
    CHECK(cfg.beam.kinetic_energy_mev == test::relative(std::sqrt(2000.0 * 2000.0 + m * m) - m, 1e-14));
    cfg = read_deck_text(with_line(6, "momentum = 2000"), "d.toml");  // bare: p c in MeV
    CHECK(cfg.beam.kinetic_energy_mev == test::relative(std::sqrt(2000.0 * 2000.0 + m * m) - m, 1e-14));
    cfg = read_deck_text(with_line(6, "total_energy = \"1.5 GeV\""), "d.toml");
    CHECK(cfg.beam.kinetic_energy_mev == test::relative(1500.0 - m, 1e-14));
    one_error(with_line(6, "total_energy = 500"), 6, "beam.total_energy");
    one_error(with_line(6, "kinetic_energy = 5\nmomentum = 5"), 7, "beam.momentum");

    cfg = read_deck_text(with_line(5, "particle = \"ion\"\nmass_number = 238\ncharge_state = 28"), "d.toml");
    CHECK(cfg.beam.species.name == "ion");
    CHECK(cfg.beam.species.charge_e == 28.0);
    CHECK(cfg.beam.species.mass_mev ==
          doctest::Approx(238 * constants::amu_mev - 28 * constants::electron_mass_mev));
    cfg = read_deck_text(with_line(5, "particle = \"ion\"\nmass = \"3727.379 MeV\"\ncharge = 2"), "d.toml");
    CHECK(cfg.beam.species.mass_mev == 3727.379);
    CHECK(cfg.beam.species.charge_e == 2.0);
    one_error(with_line(5, "particle = \"ion\""), 5, "beam.particle");
    one_error(with_line(5, "particle = \"electron\"\nmass_number = 4"), 6, "beam.mass_number");
    auto d = one_error(with_line(5, "particle = \"protn\""), 5, "beam.particle");
    CHECK(contains(d.message, "did you mean 'proton'?"));
}

TEST_CASE("[beam.sigma]: a symmetric, positive semi-definite 6x6 matrix")
{
    std::string const good =
        "[beam.sigma]\nmatrix = [[1e-6, 0, 0, 0, 0, 0], [0, 1e-6, 0, 0, 0, 0], [0, 0, 1e-6, 2e-7, 0, 0],\n"
        "  [0, 0, 2e-7, 1e-6, 0, 0], [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1e-8]]";
    auto replace_twiss = [](std::string const& s) {
        return with_lines({{10, s}, {11, ""}, {12, ""}, {13, ""}, {14, ""}, {15, ""}, {16, ""}});
    };
    auto const cfg = read_deck_text(replace_twiss(good), "d.toml");
    REQUIRE(cfg.beam.sigma_matrix);
    CHECK((*cfg.beam.sigma_matrix)[2 * 6 + 3] == 2e-7);

    auto d = one_error(
        replace_twiss("[beam.sigma]\nmatrix = [[1e-6, 1e-7, 0, 0, 0, 0], [0, 1e-6, 0, 0, 0, 0], "
                      "[0, 0, 1, 0, 0, 0], [0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 1]]"),
        11, "beam.sigma.matrix");
    CHECK(contains(d.message, "must be symmetric: matrix[0][1] = 1e-07 but matrix[1][0] = 0"));
    d = one_error(
        replace_twiss("[beam.sigma]\nmatrix = [[1, 2, 0, 0, 0, 0], [2, 1, 0, 0, 0, 0], "
                      "[0, 0, 1, 0, 0, 0], [0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 1]]"),
        11, "beam.sigma.matrix");
    CHECK(contains(d.message, "not positive semi-definite"));
    d = one_error(replace_twiss("[beam.sigma]\nmatrix = [[1, 0, 0, 0, 0, 0]]"), 11, "beam.sigma.matrix");
    CHECK(contains(d.message, "expected 6 rows"));
    d = one_error(with_line(16, "sigma_pt = 1e-3\n[beam.sigma]\nmatrix = []"), 17, "beam.sigma");
    CHECK(contains(d.message, "not both"));
}

TEST_CASE("[space_charge] and [output] checks")
{
    auto cfg = read_deck_text(
        base_text() + "[space_charge]\nenabled = true\ngrid = [32, 32, 64]\nkicks_per_meter = 5\n", "d.toml");
    CHECK(cfg.space_charge.enabled);
    CHECK(cfg.space_charge.grid == std::array<int, 3>{32, 32, 64});
    CHECK(cfg.space_charge.kicks_per_meter == 5.0);
    auto const n = static_cast<int>(k_base.size());
    one_error(base_text() + "[space_charge]\ngrid = [32, 0, 64]\n", n + 2, "space_charge.grid[1]");
    one_error(base_text() + "[space_charge]\ngrid = [32, 64]\n", n + 2, "space_charge.grid");
    one_error(with_line(7, "bunch_charge = 0") + "[space_charge]\nenabled = true\n", n + 2,
              "space_charge.enabled");
    cfg = read_deck_text(base_text() +
                             "[space_charge]\nenabled = true\nkicks_per_element = 3\nshape = \"tsc\"\n"
                             "deposition = \"aggregated\"\nsort_every = 0\nmargin = 0.2\ntruncate_sigma = 5\n",
                         "d.toml");
    CHECK(cfg.space_charge.kicks_per_element == 3);
    CHECK(cfg.space_charge.shape == "tsc");
    CHECK(cfg.space_charge.deposition == "aggregated");
    CHECK(cfg.space_charge.sort_every == 0);
    CHECK(cfg.space_charge.margin == 0.2);
    CHECK(cfg.space_charge.truncate_sigma == 5.0);
    CHECK(read_deck_text(base_text(), "d.toml").space_charge.deposition == "deterministic");
    one_error(base_text() + "[space_charge]\ngrid = [32, 3, 64]\n", n + 2, "space_charge.grid[1]");
    one_error(base_text() + "[space_charge]\nkicks_per_meter = 4\nkicks_per_element = 2\n", n + 3,
              "space_charge.kicks_per_element");
    auto d0 = one_error(base_text() + "[space_charge]\ndeposition = \"atomc\"\n", n + 2, "space_charge.deposition");
    CHECK(contains(d0.message, "did you mean 'atomic'?"));
    d0 = one_error(base_text() + "[space_charge]\nsolver = \"2d\"\n", n + 2, "space_charge.solver");
    CHECK(contains(d0.message, "\"2.5d\""));
    CHECK(read_deck_text(base_text() + "[space_charge]\nsolver = \"2.5d\"\n", "d.toml").space_charge.solver == "2.5d");
    one_error(base_text() + "[space_charge]\nshape = \"ngp\"\n", n + 2, "space_charge.shape");
    one_error(base_text() + "[space_charge]\nsort_every = -1\n", n + 2, "space_charge.sort_every");
    one_error(base_text() + "[space_charge]\nmargin = -0.1\n", n + 2, "space_charge.margin");
    one_error(base_text() + "[space_charge]\ntruncate_sigma = 1\n", n + 2, "space_charge.truncate_sigma");

    auto d = one_error(with_line(29, "phase_space = [\"BMP\"]"), 29, "output.phase_space[0]");
    CHECK(contains(d.message, "did you mean 'BPM'?"));
    d = one_error(with_line(29, "phase_space = [\"cell\"]"), 29, "output.phase_space[0]");
    CHECK(contains(d.message, "is a line"));
    d = one_error(with_lines({{24, "BPM = { type = \"monitor\" }\nX = { type = \"marker\" }"},
                              {29, "phase_space = [\"X\"]"}}),
                  30, "output.phase_space[0]");
    CHECK(contains(d.message, "not in the tracked line 'line'"));
    d = one_error(with_line(29, "stats = \"every_elemnt\""), 29, "output.stats");
    CHECK(contains(d.message, "did you mean 'every_element'?"));
    cfg = read_deck_text(with_line(29, "stats = \"turn\""), "d.toml");
    CHECK(cfg.output.stats == StatsWhere::turn);
    CHECK(cfg.output.phase_space == std::vector<std::string>{"end"});
}

TEST_CASE("read_deck: an unreadable file is a located error")
{
    try {
        read_deck("/nonexistent/deck.toml", {});
        FAIL("no error");
    } catch (DeckError const& e) {
        REQUIRE(e.diagnostics().size() == 1);
        CHECK(e.diagnostics()[0].where.file == "/nonexistent/deck.toml");
        CHECK(contains(e.diagnostics()[0].message, "cannot read the deck"));
    }
}

TEST_CASE("every example deck under inputs/ is valid")
{
    namespace fs = std::filesystem;
    fs::path const dir = fs::path(GTRACK_SOURCE_DIR) / "inputs";
    int decks = 0;
    if (fs::is_directory(dir)) {
        for (auto const& entry : fs::directory_iterator(dir)) {
            if (entry.path().extension() != ".toml") continue;
            ++decks;
            INFO(entry.path().string());
            try {
                auto const cfg = read_deck(entry.path().string(), {});
                if (cfg.run.kind == "detector") {
                    CHECK(!cfg.detector.volumes.empty());
                    CHECK((cfg.detector.gun.events > 0 || !cfg.detector.gun.file.empty()));  // 0: the whole file
                } else {
                    CHECK(!cfg.elements.empty());
                    CHECK(!cfg.lattice.lines.empty());
                }
            } catch (DeckError const& e) {
                FAIL_CHECK(e.what());
            }
        }
    }
    if (decks == 0) MESSAGE("no decks under inputs/: nothing to check");
}

TEST_CASE("a mistyped run.kind is the one error: the sections are not all reported as the other kind's")
{
    Diagnostic const d = one_error(with_line(2, "kind = \"detektor\""), 2, "run.kind");
    CHECK(contains(d.message, "did you mean 'detector'?"));
}
