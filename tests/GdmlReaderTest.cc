// The GDML reader (src/detector/gdml/): expressions and Geant4's units, materials (mass fractions,
// atom counts, mixtures, isotopes, NIST names, element/material name clashes), the placement
// convention of Geant4's reader, assemblies, <constant> overrides from the deck, and malformed files
// refused with file, line and element.
#include <cmath>

#include "GdmlTestSupport.hh"
#include "Relative.hh"
#include "deck/DeckError.hh"
#include "deck/gdml/GdmlExpression.hh"
#include "deck/gdml/GdmlReader.hh"
#include "deck/gdml/GdmlSource.hh"

using namespace gt;
using namespace gt::gdml;

namespace {

std::string const k_air = R"(<material name="Gas" state="gas"><D value="1.2" unit="mg/cm3"/>
<fraction n="0.8" ref="G4_N"/><fraction n="0.2" ref="G4_O"/></material>)";

//! A world box of 1 m holding what `structure` places; materials Gas plus `materials`.
GdmlGeometry read(std::string const& define, std::string const& materials, std::string const& solids,
                  std::string const& volumes, std::string const& world_daughters, GdmlOptions const& o = {})
{
    std::string const structure = volumes + R"(<volume name="World"><materialref ref="Gas"/>
<solidref ref="WorldBox"/>)" + world_daughters +
                                  "</volume>";
    return read_gdml_text(
        "t.gdml",
        test::gdml_text(define, k_air + materials,
                        solids + R"(<box name="WorldBox" x="1" y="1" z="1" lunit="m"/>)", structure),
        o);
}

//! The error text of reading a GDML document.
std::string error_of(std::string const& text, GdmlOptions const& o = {})
{
    try {
        read_gdml_text("bad.gdml", text, o);
    } catch (GdmlError const& e) {
        return e.what();
    }
    return "";
}

double fraction_of(MaterialConfig const& m, std::string const& symbol)
{
    for (auto const& [s, w] : m.elements)
        if (s == symbol) return w;
    return 0;
}

}  // namespace

TEST_CASE("GDML expressions: precedence, functions, units and names as CLHEP's evaluator has them")
{
    Symbols s;
    // in CLHEP's units (mm = 1), as Geant4 evaluates them
    CHECK(evaluate("2*cm + 3*mm", s) == doctest::Approx(23));
    CHECK(evaluate("2^3^2", s) == 512);  // right-associative powers
    CHECK(evaluate("2**3", s) == 8);
    CHECK(evaluate("-(1+2)*3", s) == -9);
    CHECK(evaluate("sqrt(16) + pow(2, 3) - abs(-1)", s) == 11);
    CHECK(evaluate("sin(30*deg)", s) == test::relative(0.5, 1e-12));
    CHECK(evaluate("1.5e-3*m/mm", s) == doctest::Approx(1.5));
    CHECK(evaluate("1*s/ns", s) == doctest::Approx(1e9));
    CHECK(evaluate("exp(log(7))", s) == doctest::Approx(7));
    CHECK(evaluate("188*eV", s) == 188e-6);  // energies in MeV, exactly as a deck's "188 eV"
    CHECK(evaluate("1.39*g/cm3", s) / evaluate("kg/m3", s) == doctest::Approx(1390));
    CHECK(s.define("gap", 2.5));
    CHECK(evaluate("gap/2 + pi - pi", s) == 1.25);
    CHECK_FALSE(s.define("mm", 1.0));  // a unit cannot be redefined
    for (char const* bad : {"2*", "(1+2", "foo+1", "1/0", "sqrt(1, 2)", "nosuch(1)", "1 2", "3 $"})
        CHECK_THROWS_AS(evaluate(bad, s), ExpressionError);
}

TEST_CASE("GDML <define>: constants, variables, quantities, positions and rotations with units")
{
    GdmlGeometry const g =
        read(R"(<constant name="t" value="2.3"/>
<variable name="w" value="2*t"/>
<quantity name="len" value="1" unit="cm"/>
<expression name="e">t + 1</expression>
<position name="p" x="len" y="-w" z="e" unit="mm"/>
<rotation name="r" z="90" unit="deg"/>)",
             "", R"(<box name="B" x="t" y="w" z="len" lunit="mm"/>)",
             R"(<volume name="V"><materialref ref="Gas"/><solidref ref="B"/></volume>)",
             R"(<physvol><volumeref ref="V"/><positionref ref="p"/><rotationref ref="r"/></physvol>)");
    REQUIRE(g.volumes.size() == 1);
    VolumeConfig const& v = g.volumes[0];
    CHECK(v.half_size[0] == test::relative(1.15e-3, 1e-12));
    CHECK(v.half_size[1] == test::relative(2.3e-3, 1e-12));
    // a quantity of 1 cm is 10 in CLHEP's units (mm = 1), and the box's lunit="mm" makes it 10 mm,
    // as in Geant4
    CHECK(v.half_size[2] == test::relative(5e-3, 1e-12));
    REQUIRE(v.placements.size() == 1);
    CHECK(v.placements[0].position[0] == test::relative(10e-3, 1e-12));
    CHECK(v.placements[0].position[1] == test::relative(-4.6e-3, 1e-12));
    CHECK(v.placements[0].position[2] == test::relative(3.3e-3, 1e-12));
    CHECK(v.placements[0].mother == "World");
}

TEST_CASE("GDML placements follow Geant4's reader: the rotation turns the frame (the volume by its inverse)")
{
    // A long box along its local x holds a marker at local x = +0.3 m; it is placed with GDML rotation
    // z = 90 deg. G4GDMLReadStructure::PhysvolRead places it with the inverse of Rz(90 deg): the local
    // +x axis points to global -y, so the marker is at (0, -0.3, 0).
    GdmlGeometry const g = read(
        "", "",
        R"(<box name="Long" x="0.8" y="0.1" z="0.1" lunit="m"/><box name="Dot" x="0.05" y="0.05" z="0.05" lunit="m"/>)",
        R"(<volume name="Marker"><materialref ref="G4_Pb"/><solidref ref="Dot"/></volume>
<volume name="Arm"><materialref ref="Gas"/><solidref ref="Long"/>
<physvol><volumeref ref="Marker"/><position name="m" x="0.3" unit="m"/></physvol></volume>)",
        R"(<physvol><volumeref ref="Arm"/><rotation name="rz" z="90" unit="deg"/></physvol>)");
    DeckConfig cfg;
    cfg.detector.world = g.world;
    cfg.detector.volumes = g.volumes;
    cfg.detector.materials = g.materials;
    GeometryTables const t = build_geometry(cfg.detector, {{"Gas", 0}, {"lead", 1}});
    Navigator const nav(t.view());
    auto at = [&](Vec3 p) { return t.logical_names[t.volumes[nav.locate(p)].logical]; };
    CHECK(at({0, -0.3, 0}) == "Marker");
    CHECK(at({0, 0.3, 0}) == "Arm");
    CHECK(at({0.3, 0, 0}) == "World");
    // G4_Pb is gtrack's built-in lead (same density and I)
    CHECK(g.volumes[0].material == "Gas");
    CHECK(g.volumes[1].material == "lead");
}

TEST_CASE("GDML materials: atom counts, mass fractions, mixtures, isotopes, NIST names, name clashes")
{
    std::string const materials = R"(
<isotope name="U235" Z="92" N="235"><atom value="235.04"/></isotope>
<isotope name="U238" Z="92" N="238"><atom value="238.05"/></isotope>
<element name="Uenr"><fraction n="0.2" ref="U235"/><fraction n="0.8" ref="U238"/></element>
<element name="Hydrogen" formula="H" Z="1"><atom value="1.008"/></element>
<element name="Oxygen" formula="O" Z="8"><atom value="16.0"/></element>
<element name="Lead" Z="82"><atom value="207.2"/></element>
<material name="Water"><D value="1.0"/><MEE value="78" unit="eV"/>
  <composite n="2" ref="Hydrogen"/><composite n="1" ref="Oxygen"/></material>
<material name="Lead" state="solid"><T value="293.15" unit="K"/><D value="11.35" unit="g/cm3"/><fraction n="1" ref="Lead"/></material>
<material name="Mix"><D value="5" unit="g/cm3"/><fraction n="0.5" ref="Water"/><fraction n="0.5" ref="Lead"/></material>
<material name="Fuel"><D value="19" unit="g/cm3"/><fraction n="1" ref="Uenr"/></material>
<material name="Cable"><D value="1.42"/><fraction n="1" ref="G4_KAPTON"/></material>
<material name="vacuum"><D value="1e-25" unit="g/cm3"/><fraction n="1" ref="Hydrogen"/></material>)";
    std::string solids = R"(<box name="B" x="1" y="1" z="1"/>)";
    std::string volumes, daughters;
    for (char const* m : {"Water", "Lead", "Mix", "Fuel", "Cable", "vacuum", "G4_KAPTON", "G4_PbWO4"}) {
        volumes +=
            fmt::format(R"(<volume name="V_{0}"><materialref ref="{0}"/><solidref ref="B"/></volume>)", m);
        daughters += fmt::format(R"(<physvol><volumeref ref="V_{0}"/></physvol>)", m);
    }
    GdmlGeometry const g = read("", materials, solids, volumes, daughters);
    auto material = [&](std::string const& name) {
        for (MaterialConfig const& m : g.materials)
            if (m.name == name) return m;
        FAIL("no material ", name);
        return MaterialConfig{};
    };
    // H2O by atom counts with the file's molar masses: w_H = 2 x 1.008 / (2 x 1.008 + 16.0)
    MaterialConfig const water = material("Water");
    CHECK(fraction_of(water, "H") == test::relative(2 * 1.008 / (2 * 1.008 + 16.0), 1e-12));
    CHECK(fraction_of(water, "O") == test::relative(16.0 / (2 * 1.008 + 16.0), 1e-12));
    CHECK(*water.mean_excitation == test::relative(78e-6, 1e-12));
    CHECK(water.density == doctest::Approx(1000));  // D's default unit is g/cm3
    // "Lead" names an element and a material: a <fraction ref="Lead"> takes the element, as in
    // Geant4 (G4GDMLReadMaterials::MixtureRead looks for an element first)
    CHECK(fraction_of(material("Lead"), "Pb") == 1.0);
    MaterialConfig const mix = material("Mix");
    CHECK(fraction_of(mix, "Pb") == test::relative(0.5, 1e-12));
    CHECK(fraction_of(mix, "H") == test::relative(0.5 * 2 * 1.008 / (2 * 1.008 + 16.0), 1e-12));
    CHECK(fraction_of(material("Fuel"), "U") == 1.0);
    // a material made of a NIST one takes its composition: Kapton's NIST mass fractions
    MaterialConfig const cable = material("Cable");
    CHECK(fraction_of(cable, "C") == test::relative(0.691133, 1e-12));
    CHECK(fraction_of(cable, "N") == test::relative(0.07327, 1e-12));
    MaterialConfig const kapton = material("G4_KAPTON");
    CHECK(kapton.density == test::relative(1420, 1e-12));
    CHECK(*kapton.mean_excitation == test::relative(79.6e-6, 1e-12));
    // PbWO4 by atom counts (Geant4 defines it so), I from Bragg additivity
    MaterialConfig const pwo = material("G4_PbWO4");
    CHECK(fraction_of(pwo, "O") == test::relative(4 * 15.999 / (207.2 + 183.84 + 4 * 15.999), 1e-9));
    CHECK_FALSE(pwo.mean_excitation.has_value());
    // a file's vacuum (1e-25 g/cm3) is gtrack's vacuum
    for (VolumeConfig const& v : g.volumes)
        if (v.name == "V_vacuum") CHECK(v.material == "vacuum");
}

TEST_CASE("GDML assemblies: their volumes placed in the mother with the composed transforms")
{
    GdmlGeometry const g =
        read("", "", R"(<box name="Small" x="10" y="10" z="10"/>)",
             R"(<volume name="Cell"><materialref ref="G4_Si"/><solidref ref="Small"/></volume>
<assembly name="Pair">
  <physvol><volumeref ref="Cell"/><position name="a" x="-20"/></physvol>
  <physvol copynumber="7"><volumeref ref="Cell"/><position name="b" x="20"/></physvol>
</assembly>)",
             R"(<physvol><volumeref ref="Pair"/><position name="p1" y="100"/></physvol>
<physvol><volumeref ref="Pair"/><position name="p2" y="-100"/><rotation name="r" z="180" unit="deg"/></physvol>)");
    REQUIRE(g.volumes.size() == 1);
    auto const& pl = g.volumes[0].placements;
    REQUIRE(pl.size() == 4);
    CHECK(pl[0].position[0] == test::relative(-0.02, 1e-12));
    CHECK(pl[0].position[1] == test::relative(0.1, 1e-12));
    CHECK(pl[1].position[0] == test::relative(0.02, 1e-12));
    CHECK(*pl[1].copy == 7);
    // rotated by 180 deg about z: x flips
    CHECK(pl[2].position[0] == test::relative(0.02, 1e-12));
    CHECK(pl[2].position[1] == test::relative(-0.1, 1e-12));
    CHECK(g.volumes[0].material == "silicon");
}

TEST_CASE("GDML <constant>s take the deck's [geometry.gdml_constants] values, --set included")
{
    std::string const file = test::write_temp_file(
        "scan.gdml",
        test::gdml_text(R"(<constant name="thickness" value="2.3"/>)", k_air,
                        R"(<box name="Abs" x="thickness" y="100" z="100"/>
<box name="WorldBox" x="1" y="1" z="1" lunit="m"/>)",
                        R"(<volume name="Absorber"><materialref ref="G4_Pb"/><solidref ref="Abs"/></volume>
<volume name="World"><materialref ref="Gas"/><solidref ref="WorldBox"/>
<physvol><volumeref ref="Absorber"/></physvol></volume>)"));
    auto half_x = [&](std::string const& lines, std::vector<std::string> const& set) {
        DeckConfig const cfg = read_deck_text(test::gdml_deck(file, lines), "scan.toml", set);
        return cfg.detector.volumes.at(0).half_size[0];
    };
    CHECK(half_x("", {}) == test::relative(1.15e-3, 1e-12));
    CHECK(half_x("[geometry.gdml_constants]\nthickness = 5.0", {}) == test::relative(2.5e-3, 1e-12));
    CHECK(half_x("", {"geometry.gdml_constants.thickness=8"}) == test::relative(4e-3, 1e-12));
    // a [scan] over the constant: the thickness-scan use case, one job per point (a scan sets keys
    // the deck gives, so the deck names the constant in [geometry.gdml_constants])
    std::string const scan = test::gdml_deck(file, "[geometry.gdml_constants]\nthickness = 2.3") +
                             "[scan]\n\"geometry.gdml_constants.thickness\" = [2.0, 6.0]\n";
    CHECK(read_deck_text(scan, "scan.toml", {}, 1).detector.volumes.at(0).half_size[0] ==
          test::relative(3e-3, 1e-12));
    // a name that is not a constant of the file
    try {
        read_deck_text(test::gdml_deck(file, "[geometry.gdml_constants]\nthicknes = 5.0"), "scan.toml", {});
        FAIL("no error");
    } catch (DeckError const& e) {
        std::string const what = e.what();
        CHECK(what.find("'thicknes'") != std::string::npos);
        CHECK(what.find("thickness") != std::string::npos);
    }
}

TEST_CASE("malformed GDML: an error naming the file, the line and the element, nothing read")
{
    std::string const ok_materials = k_air;
    std::string const world =
        R"(<volume name="World"><materialref ref="Gas"/><solidref ref="WorldBox"/></volume>)";
    std::string const wbox = R"(<box name="WorldBox" x="1" y="1" z="1" lunit="m"/>)";
    // not XML: the line of the problem
    std::string e = error_of("<gdml>\n<define>\n<constant name=\"a\" value=\"1\">\n</gdml>\n");
    CHECK(e.find("bad.gdml:4:") == 0);
    CHECK(e.find("XML") != std::string::npos);
    // a solid gtrack does not navigate: its name, type and line
    e = error_of(test::gdml_text(
        "", ok_materials,
        wbox + "\n<polyhedra name=\"pc\" startphi=\"0\" deltaphi=\"360\" numsides=\"6\" aunit=\"deg\"/>",
        world));
    CHECK(e.find("bad.gdml:12:") == 0);
    CHECK(e.find("'pc'") != std::string::npos);
    CHECK(e.find("<polyhedra>") != std::string::npos);
    CHECK(e.find("not supported") != std::string::npos);
    // a material that does not exist
    e = error_of(test::gdml_text(
        "", ok_materials, wbox,
        R"(<volume name="World"><materialref ref="Unobtainium"/><solidref ref="WorldBox"/></volume>)"));
    CHECK(e.find("Unobtainium") != std::string::npos);
    CHECK(e.find("<materialref>") != std::string::npos);
    // a unit of the wrong kind
    e = error_of(
        test::gdml_text("", ok_materials, R"(<box name="WorldBox" x="1" y="1" z="1" lunit="deg"/>)", world));
    CHECK(e.find("lunit=\"deg\" is not a unit of length") != std::string::npos);
    CHECK(e.find("<box name=\"WorldBox\">") != std::string::npos);
    // an expression with an unknown name
    e = error_of(
        test::gdml_text("", ok_materials, R"(<box name="WorldBox" x="1+width" y="1" z="1"/>)", world));
    CHECK(e.find("unknown name 'width'") != std::string::npos);
    // a sphere segment and a reflection are refused, not approximated
    e = error_of(test::gdml_text(
        "", ok_materials,
        wbox + R"(<sphere name="cap" rmax="1" deltaphi="360" deltatheta="90" aunit="deg"/>)", world));
    CHECK(e.find("theta segment") != std::string::npos);
    e = error_of(test::gdml_text("", ok_materials, wbox + R"(<box name="b" x="1" y="1" z="1"/>)",
                                 R"(<volume name="V"><materialref ref="Gas"/><solidref ref="b"/></volume>
<volume name="World"><materialref ref="Gas"/><solidref ref="WorldBox"/>
<physvol><volumeref ref="V"/><scale name="s" x="-1" y="1" z="1"/></physvol></volume>)"));
    CHECK(e.find("reflect") != std::string::npos);
    // fractions that do not add up, and no <setup>
    e = error_of(test::gdml_text(
        "", R"(<material name="Gas"><D value="1"/><fraction n="0.5" ref="G4_N"/></material>)", wbox, world));
    CHECK(e.find("add up to 0.5") != std::string::npos);
    e = error_of("<gdml><structure/></gdml>");
    CHECK(e.find("<setup>") != std::string::npos);
    // through a deck: the deck's key, then the GDML file's position
    std::string const file =
        test::write_temp_file("broken.gdml", "<gdml>\n<solids>\n<box name=\"b\"/>\n</solids>\n</gdml>");
    try {
        read_deck_text(test::gdml_deck(file), "det.toml", {});
        FAIL("no error");
    } catch (DeckError const& err) {
        std::string const what = err.what();
        CHECK(what.find("det.toml:4:") != std::string::npos);
        CHECK(what.find("geometry.gdml") != std::string::npos);
        CHECK(what.find("broken.gdml:3: <box name=\"b\">: the attribute 'x' is missing") !=
              std::string::npos);
    }
    // a missing file
    try {
        read_deck_text(test::gdml_deck("/nonexistent/x.gdml"), "det.toml", {});
        FAIL("no error");
    } catch (DeckError const& err) {
        CHECK(std::string(err.what()).find("cannot be read") != std::string::npos);
    }
}

TEST_CASE("Geant4's pointer suffixes: stripped only when asked")
{
    CHECK(strip_pointer("gap_00x600000ef0dc0") == "gap_0");
    CHECK(strip_pointer("absorber_10x600000ef0e60") == "absorber_1");
    CHECK(strip_pointer("Layer") == "Layer");
    CHECK(strip_pointer("box0xZZ") == "box0xZZ");
    CHECK(strip_pointer("0x12") == "0x12");
}
