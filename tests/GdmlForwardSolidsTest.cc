// A GDML geometry of the solids <cone>, <trd>, <eltube> and <para> (tests/data/gdml/forward-solids.gdml,
// nested and side by side) read, checked and navigated: straight tracks cross the boundaries the
// dimensions give by hand, `gtrack check` finds no problem, counts the solids and prints each
// volume's mass, and the mass of each volume (its material's density times the navigator's
// hit-or-miss volume, daughters excluded) equals the published density times the closed-form volume. Bad
// dimensions and the solids still unsupported are refused with file, line and element.
#include <random>
#include <sstream>

#include "GdmlTestSupport.hh"
#include "deck/Materials.hh"
#include "deck/gdml/GdmlReader.hh"
#include "deck/gdml/GdmlSource.hh"
#include "run/DetectorRun.hh"

using namespace gt;

namespace {

constexpr double k_pi = 3.14159265358979323846;

std::string const k_file = std::string(GTRACK_SOURCE_DIR) + "/tests/data/gdml/forward-solids.gdml";

}  // namespace

TEST_CASE("GDML cone, trd, eltube and para: straight tracks cross the boundaries the dimensions give")
{
    gdml::GdmlGeometry const gg = gdml::read_gdml_file(k_file, {});
    GeometryTables const g = test::tables_of(gg);
    // along z at x = -162 mm: the vessel (eltube, z -550..50 mm), the pipe's wall 42 mm from its
    // axis (x = -120 mm) where 35 + z/20 >= 42 (pipe z >= 140 mm: global -110 mm) up to its top
    // face (global -50 mm), then the absorber (hollow cone, phi 45..315 deg, r = 162 mm at phi 180
    // deg) from where its outer radius 175 + z/6 reaches 162 mm (z = -78 mm: global 322 mm) to its
    // top face (550 mm). Both cone crossings are parallel to the axis: the quadratic's leading
    // coefficient is -k^2 < 0.
    test::check_trace(g, {-0.162, 0, -0.999}, {0, 0, 1},
                      {"World", "Vessel", "Pipe", "Vessel", "World", "Absorber", "World"},
                      {0.449, 0.440, 0.060, 0.100, 0.272, 0.228, 0.450});
    // along x at the vessel's centre plane (z = -250 mm): the pipe's wall (radii 30 and 35 mm at its
    // middle) twice, then the crystal (trd, half-width 12 mm at its middle, centred at x = 150 mm)
    test::check_trace(g, {-0.999, 0, -0.25}, {1, 0, 0},
                      {"World", "Vessel", "Pipe", "Vessel", "Pipe", "Vessel", "Crystal", "Vessel", "World"},
                      {0.699, 0.145, 0.005, 0.060, 0.005, 0.223, 0.024, 0.138, 0.700});
    // along x at y = 100 mm through the absorber's middle (radii 55 and 175 mm): in at
    // x = -sqrt(175^2 - 100^2), out through the phi = 45 deg edge at x = 100 mm
    double const x_in = std::sqrt(175.0 * 175.0 - 100.0 * 100.0) * 1e-3;
    test::check_trace(g, {-0.999, 0.1, 0.4}, {1, 0, 0}, {"World", "Absorber", "World"},
                      {0.999 - x_in, x_in + 0.1, 0.9});
    // along x at z = 480 mm (the absorber's z = 80 mm: radii 55 + 80/30 and 175 + 80/6 mm; the ray
    // at y = 0, x > 0 runs through the absorber's missing 90 deg) and the block's z = 80 mm, where
    // G4Para's definition, x' = x - y' tan(alpha) - z tan(theta) cos(phi) with
    // y' = y - z tan(theta) sin(phi), puts its faces |x'| = 50 mm at x = 500 +- 50 + s mm
    double const deg = k_pi / 180;
    double const tt = std::tan(15 * deg);
    double const s = 80 * (tt * std::cos(30 * deg) - std::tan(10 * deg) * tt * std::sin(30 * deg));
    double const r_out = (175 + 80.0 / 6) * 1e-3, r_in = (55 + 80.0 / 30) * 1e-3;
    double const block_in = (450 + s) * 1e-3;
    test::check_trace(g, {-0.999, 0, 0.48}, {1, 0, 0}, {"World", "Absorber", "World", "Block", "World"},
                      {0.999 - r_out, r_out - r_in, r_in + block_in, 0.1, 1 - block_in - 0.1});
}

TEST_CASE("GDML cone, trd, eltube and para: gtrack check, and each volume's mass against density x volume")
{
    std::string const deck = test::write_temp_file("forward-solids.toml", test::gdml_deck(k_file));
    DeckConfig const cfg = read_deck(deck, {});
    std::size_t problems = 99;
    std::string const text = describe_geometry(cfg, &problems);
    INFO(text);
    CHECK(problems == 0);  // every daughter inside its mother, no overlap found by the sampling check
    CHECK(text.find("solids by type: box 1, cone 2, eltube 1, para 1, trd 1") != std::string::npos);
    CHECK(text.find("      Vessel (eltube, ") != std::string::npos);
    CHECK(text.find("        Crystal (trd, ") != std::string::npos);
    // the masses it prints (closed forms in GdmlSummary.cc) against the hand values below
    auto printed_mass = [&](std::string const& volume) {
        std::size_t const at = text.rfind("\n    " + volume + " ");  // the last section
        REQUIRE(at != std::string::npos);
        std::istringstream line(text.substr(at + 1, text.find('\n', at + 1) - at - 1));
        std::string name, cm3, kg;
        double volume_cm3 = 0, mass = 0;
        line >> name >> volume_cm3 >> cm3 >> mass >> kg;
        CHECK(kg == "kg");
        return mass;
    };

    gdml::GdmlGeometry const gg = gdml::read_gdml_file(k_file, {});
    GeometryTables const g = test::tables_of(gg);
    auto density = [&](std::string const& name) {  // [kg/m^3] as gtrack reads the material
        if (auto m = builtin_material(name)) return m->density;
        for (MaterialConfig const& m : gg.materials)
            if (m.name == name) return m.density;
        FAIL("no material ", name);
        return 0.0;
    };
    // closed forms [mm^3]: trd h/6 (A1 + A2 + 4 A_mid); hollow cone pi h/3 (R1^2 + R1 R2 + R2^2)
    // outer minus inner, times the phi share; eltube pi dx dy h; each less its daughters
    double const crystal = 230.0 / 6 * (22 * 22 + 26 * 26 + 4 * 24 * 24);
    double const pipe = k_pi * 400 / 3 * ((25 * 25 + 25 * 45 + 45 * 45) - (20 * 20 + 20 * 40 + 40 * 40));
    double const vessel = k_pi * 300 * 200 * 600 - crystal - pipe;
    double const block = 100.0 * 100 * 200;  // a para: a sheared box keeps the box's volume
    double const absorber =
        0.75 * k_pi * 300 / 3 * ((150 * 150 + 150 * 200 + 200 * 200) - (50 * 50 + 50 * 60 + 60 * 60));
    // Geant4's NIST densities [g/cm3] (G4NistMaterialBuilder): PbWO4 8.28, Al 2.699, lAr 1.396, Fe 7.874,
    // Cu 8.96
    struct Expected {
        char const* volume;
        double mass;  //!< [kg]
    };
    std::vector<Expected> const expected = {{"Crystal", 8.28e3 * crystal * 1e-9},
                                            {"Pipe", 2.699e3 * pipe * 1e-9},
                                            {"Vessel", 1.396e3 * vessel * 1e-9},
                                            {"Absorber", 7.874e3 * absorber * 1e-9},
                                            {"Block", 8.96e3 * block * 1e-9}};
    for (Expected const& e : expected) {
        INFO(e.volume);
        // printed to 6 digits
        CHECK(printed_mass(e.volume) == test::relative(e.mass, 1e-5));
    }
    Navigator const nav(g.view());
    std::mt19937_64 gen(11);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (Expected const& e : expected) {
        INFO(e.volume);
        std::int32_t v = -1;
        for (std::size_t i = 0; i < g.volumes.size(); ++i)
            if (g.logical_names[g.volumes[i].logical] == e.volume) v = static_cast<std::int32_t>(i);
        REQUIRE(v >= 0);
        PlacedVolume const& pv = g.volumes[v];
        // hit-or-miss in the global bounding box: points the navigator locates in this volume
        int const n = 200000;
        int hits = 0;
        for (int i = 0; i < n; ++i) {
            Vec3 const p{pv.lo.x + (pv.hi.x - pv.lo.x) * u(gen), pv.lo.y + (pv.hi.y - pv.lo.y) * u(gen),
                         pv.lo.z + (pv.hi.z - pv.lo.z) * u(gen)};
            if (nav.locate(p) == v) ++hits;
        }
        double const box = (pv.hi.x - pv.lo.x) * (pv.hi.y - pv.lo.y) * (pv.hi.z - pv.lo.z);
        double const f = static_cast<double>(hits) / n;
        double const mass = density(gg.volumes[static_cast<std::size_t>(pv.logical - 1)].material) * f * box;
        // binomial standard error of the hit fraction: 4 sigma (a 1e-4 chance of a false alarm)
        double const sigma = std::sqrt(f * (1 - f) / n);
        CHECK(std::fabs(mass - e.mass) < 4 * sigma / f * e.mass);
    }
}

TEST_CASE("GDML cone, trd, eltube and para: bad dimensions and still-unsupported solids refused by line")
{
    auto error_of = [](std::string const& solid) {
        std::string const text = test::gdml_text(
            "", "", solid + "\n" + R"(<box name="W" x="1" y="1" z="1" lunit="m"/>)",
            R"(<volume name="World"><materialref ref="G4_Galactic"/><solidref ref="W"/></volume>)");
        try {
            gdml::read_gdml_text("bad.gdml", text, {});
        } catch (gdml::GdmlError const& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    std::string e =
        error_of(R"(<cone name="c" rmin1="30" rmax1="20" rmax2="40" z="10" deltaphi="360" aunit="deg"/>)");
    CHECK(e.find("bad.gdml:") != std::string::npos);
    CHECK(e.find("<cone name=\"c\">") != std::string::npos);
    CHECK(e.find("rmin1 <= rmax1") != std::string::npos);
    e = error_of(R"(<cone name="c" rmax1="20" rmax2="40" z="10" deltaphi="400" aunit="deg"/>)");
    CHECK(e.find("deltaphi") != std::string::npos);
    e = error_of(R"(<trd name="t" x1="-1" x2="2" y1="1" y2="1" z="3"/>)");
    CHECK(e.find("<trd name=\"t\">") != std::string::npos);
    CHECK(e.find("x1, x2, y1, y2 must be at least 0") != std::string::npos);
    e = error_of(R"(<eltube name="e" dx="0" dy="2" dz="3"/>)");
    CHECK(e.find("dx must be positive") != std::string::npos);
    // a trap whose -x face bends: x1 = x2 at -z but x3 != x4 at +z with equal y1, y2 (Geant4 refuses it too)
    e = error_of(R"(<trap name="w" z="20" y1="10" x1="10" x2="10" y2="10" x3="10" x4="30"/>)");
    CHECK(e.find("<trap name=\"w\">") != std::string::npos);
    CHECK(e.find("side faces are not planar") != std::string::npos);
    e = error_of(R"(<trap name="w" z="20" y1="10" x1="10" x2="0" y2="10" x3="10" x4="10"/>)");
    CHECK(e.find("x2 must be positive") != std::string::npos);
    // polycone planes out of order, and a section of no thickness
    e = error_of(
        R"(<polycone name="p" deltaphi="360" aunit="deg"><zplane z="0" rmax="5"/><zplane z="10" rmax="5"/><zplane z="5" rmax="5"/></polycone>)");
    CHECK(e.find("<polycone name=\"p\">") != std::string::npos);
    CHECK(e.find("must rise (or fall)") != std::string::npos);
    e = error_of(
        R"(<polycone name="p" deltaphi="360" aunit="deg"><zplane z="0" rmin="5" rmax="5"/><zplane z="10" rmin="5" rmax="5"/></polycone>)");
    CHECK(e.find("no thickness") != std::string::npos);
    for (char const* tag : {"torus", "genericPolycone", "polyhedra", "union"}) {
        e = error_of(fmt::format(R"(<{} name="s" lunit="mm"/>)", tag));
        CHECK(e.find(fmt::format("of type <{}> is not supported", tag)) != std::string::npos);
        CHECK(
            e.find("supported: box, tube, cone, polycone (z planes), trd, trap, eltube, para, orb, sphere") !=
            std::string::npos);
    }
}
