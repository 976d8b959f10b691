// Lattice building: line expansion, slicing, s positions, the reference through RF, global
// apertures, and the deck errors a user gets for a bad lattice.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "ElementTestSupport.hh"
#include "Relative.hh"
#include "beam/Lattice.hh"
#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"

using namespace gt;
using namespace gt::test;

namespace {

ElementConfig element(std::string name, std::string type, std::map<std::string, double> values,
                      std::map<std::string, std::string> strings = {})
{
    ElementConfig e;
    e.name = std::move(name);
    e.type = std::move(type);
    e.values = std::move(values);
    e.strings = std::move(strings);
    e.where = SourceLocation{"test.toml", 10, 1};
    return e;
}

DeckConfig fodo_deck()
{
    DeckConfig d;
    d.path = "test.toml";
    d.elements = {
        element("QF", "quadrupole", {{"length", 0.5}, {"k1", 1.2}, {"slices", 2}}),
        element("QD", "quadrupole", {{"length", 0.5}, {"k1", -1.2}}),
        element("D", "drift", {{"length", 2.0}}),
        element("B", "sbend", {{"length", 1.0}, {"angle", 0.1}, {"e1", 0.01}, {"slices", 3}}),
        element("BPM", "monitor", {}),
    };
    d.lattice.lines = {
        {"cell", {"QF", "D", "QD", "D", "BPM"}}, {"arc", {"cell*2", "B"}}, {"line", {"3*arc", "BPM"}}};
    d.lattice.use = "line";
    return d;
}

}  // namespace

TEST_CASE("nested lines and repetition expand in order")
{
    DeckConfig const d = fodo_deck();
    std::vector<std::string> const names = expand_use_line(d);
    std::vector<std::string> cell = {"QF", "D", "QD", "D", "BPM"};
    std::vector<std::string> expected;
    for (int a = 0; a < 3; ++a) {
        for (int c = 0; c < 2; ++c) expected.insert(expected.end(), cell.begin(), cell.end());
        expected.push_back("B");
    }
    expected.push_back("BPM");
    CHECK(names == expected);
}

TEST_CASE("slicing, bend edges, s positions and the table index")
{
    DeckConfig const d = fodo_deck();
    ReferenceParticle const begin = proton(250.0);
    Lattice const lat = build_lattice(d, begin);
    // Per arc: 2 cells of (QF: 2 slices, D, QD, D, BPM) = 12 entries, then B: edge + 3 + edge = 5.
    REQUIRE(lat.elements.size() == 3 * (12 + 5) + 1);
    REQUIRE(lat.info.size() == lat.elements.size());
    REQUIRE(lat.reference_after.size() == lat.elements.size());
    double const cell_length = 0.5 + 2.0 + 0.5 + 2.0;
    CHECK(lat.length == test::relative(3 * (2 * cell_length + 1.0), 1e-14));
    for (std::size_t i = 0; i < lat.elements.size(); ++i) {
        CHECK(lat.elements[i].index == static_cast<std::int32_t>(i));
        if (i > 0) CHECK(lat.info[i].s_begin == lat.info[i - 1].s_end);  // contiguous
    }
    // First QF: two slices of 0.25 m.
    CHECK(lat.info[0].name == "QF");
    CHECK(lat.info[0].slice == 0);
    CHECK(lat.info[0].slices == 2);
    CHECK(lat.info[1].slice == 1);
    CHECK(lat.info[1].s_end == test::relative(0.5, 1e-12));
    CHECK(lat.elements[0].quadrupole.length == test::relative(0.25, 1e-12));
    CHECK(lat.elements[0].kind == ElementKind::quadrupole);
    CHECK(lat.info[5].is_monitor);
    CHECK(lat.elements[5].kind == ElementKind::monitor);
    // The bend of the first arc: entries 12 ... 16.
    CHECK(lat.elements[12].kind == ElementKind::dipole_edge);
    CHECK(lat.elements[13].kind == ElementKind::exact_bend);
    CHECK(lat.elements[16].kind == ElementKind::dipole_edge);
    CHECK(lat.info[12].slices == 5);
    CHECK(lat.info[16].slice == 4);
    CHECK(lat.info[12].s_begin == lat.info[12].s_end);  // edges are thin
    CHECK(lat.elements[13].exact_bend.angle == test::relative(0.1 / 3, 1e-12));
    CHECK(lat.elements[12].dipole_edge.kx == test::relative(0.1 * std::tan(0.01), 1e-12));
    CHECK(lat.elements[16].dipole_edge.kx == 0.0);  // e2 = 0
    CHECK(lat.info[13].s_begin == doctest::Approx(2 * cell_length));
    CHECK(lat.info[13].deck_index == 3);
    // Reference time of flight at constant energy: s / (beta c).
    CHECK(rel_diff(lat.reference_end().t, lat.length / (begin.beta * constants::c_light)) < 1e-14);
    CHECK(lat.reference_end().kinetic_mev == begin.kinetic_mev);
    CHECK_FALSE(lat.changes_reference_energy());
    CHECK(describe(lat).find("QD") != std::string::npos);
    CHECK(describe(lat).find("dipole edge") != std::string::npos);
}

TEST_CASE("an RF cavity raises the reference energy; turns > 1 is then refused")
{
    DeckConfig d;
    d.path = "test.toml";
    double const volts = 3e6, phase = -0.3;
    d.elements = {
        element("D", "drift", {{"length", 1.0}}),
        element(
            "RF", "rfcavity",
            {{"length", 0.4}, {"voltage", volts}, {"frequency", 352.2e6}, {"phase", phase}, {"slices", 2}})};
    d.lattice.lines = {{"line", {"D", "RF", "D"}}};
    ReferenceParticle const begin = proton(20.0);
    Lattice const lat = build_lattice(d, begin);
    REQUIRE(lat.elements.size() == 4);
    double const gain = volts * 1e-6 * std::cos(phase);
    CHECK(rel_diff(lat.reference_after[1].kinetic_mev, 20.0 + gain / 2) < 1e-14);
    CHECK(rel_diff(lat.reference_after[2].kinetic_mev, 20.0 + gain) < 1e-14);
    CHECK(rel_diff(lat.reference_end().kinetic_mev, 20.0 + gain) < 1e-14);
    CHECK(lat.changes_reference_energy());
    // The last drift is built for the new reference: its 1/beta is the accelerated one.
    ReferenceParticle const accelerated = proton(20.0 + gain);
    CHECK(rel_diff(lat.elements[3].drift.inv_beta, 1.0 / accelerated.beta) < 1e-14);
    // Time of flight: 1 m at beta0, each cavity slice half at the old and half at the new beta, 1 m at beta1.
    double const c = constants::c_light;
    ReferenceParticle const mid = proton(20.0 + gain / 2);
    double const t = 1.0 / (begin.beta * c) + 0.1 / (begin.beta * c) + 0.1 / (mid.beta * c) +
                     0.1 / (mid.beta * c) + 0.1 / (accelerated.beta * c) + 1.0 / (accelerated.beta * c);
    CHECK(rel_diff(lat.reference_end().t, t) < 1e-14);
    CHECK(rel_diff(lat.reference_end().s, 2.4) < 1e-15);

    d.lattice.turns = 100;
    CHECK_THROWS_WITH_AS(build_lattice(d, begin), doctest::Contains("lattice.turns"), DeckError);
    // A ring buncher at the zero crossing leaves the reference alone: turns are fine.
    d.elements[1].values["phase"] = -constants::pi / 2;
    Lattice const ring = build_lattice(d, begin);
    CHECK_FALSE(ring.changes_reference_energy());
}

TEST_CASE("global aperture entries follow every element that moves particles")
{
    DeckConfig d = fodo_deck();
    d.lattice.lines = {{"line", {"QF", "BPM", "D"}}};
    d.lattice.global_half_x = 0.01;
    d.lattice.global_shape = "ellipse";
    Lattice const lat = build_lattice(d, proton(250.0));
    // QF (2 slices) + aperture, BPM (none after a monitor), D + aperture.
    REQUIRE(lat.elements.size() == 6);
    CHECK(lat.elements[2].kind == ElementKind::aperture);
    CHECK(lat.info[2].name == "global_aperture");
    CHECK(lat.info[2].deck_index == -1);
    CHECK(lat.elements[2].aperture.shape == ApertureShape::ellipse);
    CHECK(lat.elements[3].kind == ElementKind::monitor);
    CHECK(lat.elements[5].kind == ElementKind::aperture);
    Particle p{0.0, 0.0, 1.0, 0.0, 0.0, 0.0};  // half_y = 0: the vertical plane is open
    CHECK(track_element(lat.elements[2], p));
    Particle q{0.011, 0.0, 0.0, 0.0, 0.0, 0.0};
    CHECK_FALSE(track_element(lat.elements[2], q));
}

TEST_CASE("lattice errors name the key and explain")
{
    ReferenceParticle const ref = proton(250.0);
    DeckConfig d = fodo_deck();
    d.lattice.lines = {{"line", {"QF", "QFF"}}};
    CHECK_THROWS_WITH_AS(build_lattice(d, ref), doctest::Contains("did you mean 'QF'"), DeckError);
    d.lattice.lines = {{"a", {"QF", "b"}}, {"b", {"a"}}};
    d.lattice.use = "a";
    CHECK_THROWS_WITH_AS(build_lattice(d, ref), doctest::Contains("contains itself"), DeckError);
    d.lattice.lines = {{"line", {"QF*0"}}};
    d.lattice.use = "line";
    CHECK_THROWS_WITH_AS(build_lattice(d, ref), doctest::Contains("whole number"), DeckError);
    d.lattice.use = "lin";
    CHECK_THROWS_WITH_AS(build_lattice(d, ref), doctest::Contains("lattice.use"), DeckError);

    DeckConfig bad = fodo_deck();
    bad.elements[0].values["k2"] = 1.0;             // not a quadrupole parameter
    bad.elements[2].strings["model"] = "paraxial";  // not a drift model
    bad.elements[3].values["length"] = 0.0;         // a bend needs a length
    try {
        build_lattice(bad, ref);
        FAIL("expected a DeckError");
    } catch (DeckError const& e) {
        // All three at once, each with its key.
        REQUIRE(e.diagnostics().size() == 3);
        std::string const text = e.what();
        CHECK(text.find("elements.QF.k2") != std::string::npos);
        CHECK(text.find("elements.D.model") != std::string::npos);
        CHECK(text.find("elements.B.length") != std::string::npos);
        CHECK(text.find("test.toml:10:1") != std::string::npos);
    }

    // Decelerating the reference below rest is refused at the cavity's voltage.
    DeckConfig rf;
    rf.path = "test.toml";
    rf.elements = {element("RF", "rfcavity", {{"voltage", -30e6}, {"frequency", 1e8}, {"phase", 0.0}})};
    rf.lattice.lines = {{"line", {"RF"}}};
    CHECK_THROWS_WITH_AS(build_lattice(rf, proton(20.0)), doctest::Contains("elements.RF.voltage"),
                         DeckError);
}

TEST_CASE("the every-element deck, as the deck reader gives it, builds and tracks")
{
    DeckConfig const d = read_deck(std::string(GTRACK_SOURCE_DIR) + "/tests/data/every_element.toml");
    ReferenceParticle const begin = ReferenceParticle::from_kinetic(
        d.beam.species.mass_mev, d.beam.species.charge_e, d.beam.kinetic_energy_mev);
    Lattice const lat = build_lattice(d, begin);
    // Per cell: 18 one-entry elements, QK in 2 slices, B1, BL, BC as edge + body + edge, SOL in 3 slices.
    CHECK(lat.elements.size() == 3 * 31);
    CHECK(lat.changes_reference_energy());  // CAV at -20 deg accelerates; BUN at -90 deg does not
    double const gain = 3 * 1.5 * std::cos(20.0 * constants::pi / 180.0);
    CHECK(rel_diff(lat.reference_end().kinetic_mev, 800.0 + gain) < 1e-12);
    Particle p{1e-4, -2e-5, 5e-5, 1e-5, 1e-3, 1e-4};
    for (Element const& e : lat.elements) REQUIRE(track_element(e, p));
    // The channel is not matched: a 1 mm particle grows to y = 5.35 mm by the second AP (5 mm).
    Particle big{1e-3, -2e-4, 5e-4, 1e-4, 1e-3, 1e-4};
    std::size_t lost_at = lat.elements.size();
    for (std::size_t i = 0; i < lat.elements.size() && lost_at == lat.elements.size(); ++i)
        if (!track_element(lat.elements[i], big)) lost_at = i;
    REQUIRE(lost_at < lat.elements.size());
    CHECK(lat.info[lost_at].name == "AP");
    CHECK(big.y > 5e-3);
    std::string const text = describe(lat);
    CHECK(text.find("kick, 6 steps") != std::string::npos);
    CHECK(text.find("rf cavity") != std::string::npos);
}

TEST_CASE("a bend's body components: knl[1] and knl[2] join k1 and k2, the others the body's kicks")
{
    ReferenceParticle const ref = proton(250.0);
    DeckConfig d;
    d.path = "test.toml";
    ElementConfig b =
        element("B", "sbend", {{"length", 2.0}, {"angle", 0.1}, {"k1", 0.1}, {"k3", 6.0}, {"k1s", 0.02}});
    b.arrays["knl"] = {1e-4, 0.04, 0.6, 3.0};
    b.arrays["ksl"] = {0.0, 0.0, 0.2};
    d.elements = {b};
    d.lattice.lines = {{"line", {"B"}}};
    d.lattice.use = "line";
    Lattice const lat = build_lattice(d, ref);
    REQUIRE(lat.elements.size() == 3);
    REQUIRE(lat.elements[1].kind == ElementKind::exact_bend);
    ExactBend const& e = lat.elements[1].exact_bend;
    CHECK(e.k1 == test::relative(0.1 + 0.04 / 2.0, 1e-15));
    CHECK(e.k2 == test::relative(0.6 / 2.0, 1e-15));
    CHECK(e.kicked);
    CHECK(e.body.terms == 4);
    CHECK(e.body.normal[0] == test::relative(1e-4 / 2.0, 1e-15));
    CHECK(e.body.normal[1] == 0.0);  // in k1
    CHECK(e.body.normal[2] == 0.0);  // in k2
    CHECK(e.body.normal[3] == test::relative((6.0 + 3.0 / 2.0) / 6.0, 1e-15));
    CHECK(e.body.skew[1] == test::relative(0.02, 1e-15));
    CHECK(e.body.skew[2] == test::relative(0.2 / 2.0 / 2.0, 1e-15));
    CHECK(e.body.h_a0 == test::relative(0.05 * 1e-4 / 2.0, 1e-15));

    // The linear model takes knl[1] (a gradient) and refuses the others, naming the key.
    DeckConfig lin = d;
    lin.elements[0] = element("B", "sbend", {{"length", 2.0}, {"angle", 0.1}}, {{"model", "linear"}});
    lin.elements[0].arrays["knl"] = {0.0, 0.04};
    Lattice const ok = build_lattice(lin, ref);
    REQUIRE(ok.elements[1].kind == ElementKind::sector_bend);
    CHECK(ok.elements[1].sector_bend.k1 == test::relative(0.02, 1e-15));
    lin.elements[0].values["k1s"] = 0.01;
    CHECK_THROWS_WITH_AS(build_lattice(lin, ref), doctest::Contains("elements.B.k1s"), DeckError);
    CHECK_THROWS_WITH_AS(build_lattice(lin, ref), doctest::Contains("model = \"exact\""), DeckError);
    lin.elements[0].values.erase("k1s");
    lin.elements[0].arrays["ksl"] = {0.0, 0.01};
    CHECK_THROWS_WITH_AS(build_lattice(lin, ref), doctest::Contains("elements.B.ksl"), DeckError);

    // At most 21 coefficients, as a thin multipole's.
    DeckConfig longer = d;
    longer.elements[0].arrays["knl"] = std::vector<double>(22, 1.0);
    CHECK_THROWS_WITH_AS(build_lattice(longer, ref), doctest::Contains("at most 21"), DeckError);
}

TEST_CASE("an aperture or collimator with a half size left out is open in that plane; one is required")
{
    // ELEGANT's scrapers and its zero X_MAX or Y_MAX limit one plane (scripts/import_elegant.py).
    DeckConfig d = fodo_deck();
    d.elements.push_back(element("AP", "aperture", {{"half_x", 0.01}}, {{"shape", "rectangle"}}));
    d.elements.push_back(
        element("COL", "collimator", {{"half_y", 0.02}, {"length", 0.1}}, {{"shape", "ellipse"}}));
    d.lattice.lines = {{"line", {"D", "AP", "COL"}}};
    Lattice const lat = build_lattice(d, proton(250.0));
    REQUIRE(lat.elements.size() == 3);
    CHECK(lat.elements[1].aperture.half_x == 0.01);
    CHECK(std::isinf(lat.elements[1].aperture.half_y));
    CHECK(std::isinf(lat.elements[2].collimator.aperture.half_x));
    CHECK(lat.elements[2].collimator.aperture.half_y == 0.02);
    d.elements.push_back(element("NONE", "aperture", {}, {{"shape", "rectangle"}}));
    d.lattice.lines = {{"line", {"D", "NONE"}}};
    CHECK_THROWS_WITH_AS(build_lattice(d, proton(250.0)), doctest::Contains("give half_x, half_y or both"),
                         DeckError);
}

TEST_CASE("an aperture's open_side: none by default, each of the four sides; the collimator has none")
{
    // ELEGANT's OPEN_SIDE of MAXAMP (scripts/elegant_convert.py); kernels/elements/Aperture.hh keeps that
    // side.
    DeckConfig d = fodo_deck();
    d.elements.push_back(element("AP0", "aperture", {{"half_x", 0.01}}, {{"shape", "rectangle"}}));
    std::vector<std::string> line = {"D", "AP0"};
    for (char const* side : {"+x", "-x", "+y", "-y"}) {
        std::string const name = std::string("AP") + side;
        d.elements.push_back(element(name, "aperture", {{"half_x", 0.01}, {"half_y", 0.02}},
                                     {{"shape", "ellipse"}, {"open_side", side}}));
        line.push_back(name);
    }
    d.lattice.lines = {{"line", line}};
    Lattice const lat = build_lattice(d, proton(250.0));
    REQUIRE(lat.elements.size() == 6);
    CHECK(lat.elements[1].aperture.open_side == ApertureSide::none);
    CHECK(lat.elements[2].aperture.open_side == ApertureSide::plus_x);
    CHECK(lat.elements[3].aperture.open_side == ApertureSide::minus_x);
    CHECK(lat.elements[4].aperture.open_side == ApertureSide::plus_y);
    CHECK(lat.elements[5].aperture.open_side == ApertureSide::minus_y);
    d.elements.push_back(element("BAD", "aperture", {{"half_x", 0.01}}, {{"open_side", "x"}}));
    d.lattice.lines = {{"line", {"D", "BAD"}}};
    CHECK_THROWS_WITH_AS(build_lattice(d, proton(250.0)), doctest::Contains("elements.BAD.open_side"),
                         DeckError);
    d.elements.push_back(
        element("COL", "collimator", {{"half_x", 0.01}, {"length", 0.1}}, {{"open_side", "+x"}}));
    d.lattice.lines = {{"line", {"D", "COL"}}};
    CHECK_THROWS_WITH_AS(build_lattice(d, proton(250.0)), doctest::Contains("elements.COL.open_side"),
                         DeckError);
}
