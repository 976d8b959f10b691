// GDML <trap> (G4Trap) in a file another project wrote: pyg4ometry's T007_Trap.gdml (kept unchanged,
// tests/data/gdml/README.md), an iron trap (z = 10 mm, theta = 0.6 rad, y1 = 5, x1 = x2 = 5 mm at
// -z, y2 = 7.5, x3 = x4 = 10 mm at +z, all full lengths) in a 100 mm vacuum box, and a second trap
// in cm and degrees that no volume uses. Straight tracks cross the faces where G4Trap's definition
// puts them; `gtrack check` finds no problem and prints the trap's mass, which equals Geant4's
// density of G4_Fe times the prismatoid volume and the navigator's hit-or-miss volume.
#include <random>
#include <sstream>

#include "GdmlTestSupport.hh"
#include "deck/Materials.hh"
#include "deck/gdml/GdmlReader.hh"
#include "run/DetectorRun.hh"

using namespace gt;

namespace {

std::string const k_file = std::string(GTRACK_SOURCE_DIR) + "/tests/data/gdml/T007_Trap.gdml";

// The trap's section at height z [mm] (G4Trap with theta = 0.6 rad, phi = 0, no shear): centred on
// x = z tan(theta), y = 0; half-height 3.125 + 0.125 z and half-width 3.75 + 0.25 z (linear from
// y1/2 = 2.5, x1/2 = 2.5 at z = -5 to y2/2 = 3.75, x3/2 = 5 at z = +5).
double const k_tan_theta = std::tan(0.6);

}  // namespace

TEST_CASE("GDML trap (pyg4ometry T007): straight tracks cross the faces G4Trap's definition gives")
{
    gdml::GdmlGeometry const gg = gdml::read_gdml_file(k_file, {});
    GeometryTables const g = test::tables_of(gg);
    // along x at y = z = 0: the section spans x in [-3.75, 3.75] mm; the world ends at +-50 mm
    test::check_trace(g, {-0.0499, 0, 0}, {1, 0, 0}, {"wl", "tl", "wl"}, {0.04615, 0.0075, 0.04625});
    // along y at x = z = 0: |y| <= 3.125 mm
    test::check_trace(g, {0, -0.0499, 0}, {0, 1, 0}, {"wl", "tl", "wl"}, {0.046775, 0.00625, 0.046875});
    // along z at x = y = 0: in through the slanted +x face x = z tan(theta) + 3.75 + 0.25 z = 0, out
    // through the +z face
    double const z_in = -3.75 / (k_tan_theta + 0.25);
    test::check_trace(g, {0, 0, -0.0499}, {0, 0, 1}, {"wl", "tl", "wl"},
                      {(z_in + 49.9) * 1e-3, (5 - z_in) * 1e-3, 0.045});
    // along z at x = 5 mm, y = 1 mm: outside the -z face (there x in [-5.92, -0.92] mm), in through
    // the +x face where 5 = z tan(theta) + 3.75 + 0.25 z, out through the +z face (x in [-1.58, 8.42])
    double const z_in5 = (5 - 3.75) / (k_tan_theta + 0.25);
    test::check_trace(g, {0.005, 0.001, -0.0499}, {0, 0, 1}, {"wl", "tl", "wl"},
                      {(z_in5 + 49.9) * 1e-3, (5 - z_in5) * 1e-3, 0.045});
}

TEST_CASE("GDML trap (pyg4ometry T007): gtrack check, and its mass against density x volume")
{
    std::string const deck = test::write_temp_file("trap.toml", test::gdml_deck(k_file));
    DeckConfig const cfg = read_deck(deck, {});
    std::size_t problems = 99;
    std::string const text = describe_geometry(cfg, &problems);
    INFO(text);
    CHECK(problems == 0);
    CHECK(text.find("solids by type: box 1, trap 1") != std::string::npos);
    CHECK(text.find("  tl (trap, ") != std::string::npos);
    // prismatoid [mm^3]: h/6 (A1 + A2 + 4 A_mid), A = 2 y (x_low + x_high) with half-lengths:
    // A1 = 2 2.5 (2.5 + 2.5) = 25, A2 = 2 3.75 (5 + 5) = 75, A_mid = 2 3.125 (3.75 + 3.75) = 46.875
    double const volume = 10.0 / 6 * (25 + 75 + 4 * 46.875) * 1e-9;  // [m^3]
    double const mass = 7.874e3 * volume;  // G4_Fe: 7.874 g/cm3 (G4NistMaterialBuilder)
    std::size_t const at = text.rfind("\n    tl ");
    REQUIRE(at != std::string::npos);
    std::istringstream line(text.substr(at + 1, text.find('\n', at + 1) - at - 1));
    std::string name, cm3, kg;
    double printed_cm3 = 0, printed_kg = 0;
    line >> name >> printed_cm3 >> cm3 >> printed_kg >> kg;
    CHECK(printed_cm3 == test::relative(volume * 1e6, 1e-5));  // printed to 6 digits
    CHECK(printed_kg == test::relative(mass, 1e-5));

    // hit-or-miss in the trap's global bounding box: the points the navigator locates in it
    gdml::GdmlGeometry const gg = gdml::read_gdml_file(k_file, {});
    GeometryTables const g = test::tables_of(gg);
    Navigator const nav(g.view());
    PlacedVolume const& pv = g.volumes[1];
    REQUIRE(g.logical_names[pv.logical] == "tl");
    std::mt19937_64 gen(5);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    int const n = 200000;
    int hits = 0;
    for (int i = 0; i < n; ++i) {
        Vec3 const p{pv.lo.x + (pv.hi.x - pv.lo.x) * u(gen), pv.lo.y + (pv.hi.y - pv.lo.y) * u(gen),
                     pv.lo.z + (pv.hi.z - pv.lo.z) * u(gen)};
        if (nav.locate(p) == 1) ++hits;
    }
    double const box = (pv.hi.x - pv.lo.x) * (pv.hi.y - pv.lo.y) * (pv.hi.z - pv.lo.z);
    double const f = static_cast<double>(hits) / n;
    // binomial standard error of the hit fraction: 4 sigma (a 1e-4 chance of a false alarm)
    CHECK(std::fabs(f * box - volume) < 4 * std::sqrt(f * (1 - f) / n) * box);
    // the bounding box (symmetric about the trap's origin) holds the corners: the farthest in x is
    // the +z face's +x corner at 5 tan(theta) + 5 mm, in y the +z face's 3.75 mm
    CHECK(pv.hi.x == test::relative((5 * k_tan_theta + 5) * 1e-3, 1e-12));
    CHECK(pv.hi.y == test::relative(3.75e-3, 1e-12));
}
