// GDML <polycone> in a file another project wrote: pyg4ometry's T011_Polycone.gdml (kept unchanged,
// tests/data/gdml/README.md): an iron polycone of three z planes (z = -10, 0, 10 mm with radii
// (1, 9), (5, 9), (3, 5) mm) over 270 deg (startphi 0, deltaphi 1.5 pi) in a 100 mm vacuum box, and
// a second one in cm and degrees that no volume uses. Straight tracks cross the cones, the shared
// plane and the phi edges where G4Polycone's definition puts them; `gtrack check` finds no problem
// and prints its mass, which equals Geant4's density of G4_Fe times the frusta's volume and the
// navigator's hit-or-miss volume.
#include <random>
#include <sstream>

#include "GdmlTestSupport.hh"
#include "deck/gdml/GdmlReader.hh"
#include "run/DetectorRun.hh"

using namespace gt;

namespace {

constexpr double k_pi = 3.14159265358979323846;

std::string const k_file = std::string(GTRACK_SOURCE_DIR) + "/tests/data/gdml/T011_Polycone.gdml";

}  // namespace

TEST_CASE("GDML polycone (pyg4ometry T011): straight tracks cross the surfaces G4Polycone's definition gives")
{
    gdml::GdmlGeometry const gg = gdml::read_gdml_file(k_file, {});
    GeometryTables const g = test::tables_of(gg);
    // radii [mm]: for z in [-10, 0] rmin = 5 + 0.4 z, rmax = 9; for z in [0, 10] rmin = 5 - 0.2 z,
    // rmax = 9 - 0.4 z. Along z at x = 0, y = 7 (phi = 90 deg, in the segment): in at the bottom
    // plane, through the shared plane z = 0, out where rmax = 7 (z = 5)
    test::check_trace(g, {0, 0.007, -0.0499}, {0, 0, 1}, {"wl", "pl", "wl"}, {0.0399, 0.015, 0.045});
    // along y at x = -4 mm, z = -5 mm (phi from 270 down to 90 deg through 180: in the segment;
    // rmin = 3 < 4 there): in and out through the outer cylinder r = 9 at y = -+sqrt(65)
    double const y9 = std::sqrt(65.0) * 1e-3;
    test::check_trace(g, {-0.004, -0.0499, -0.005}, {0, 1, 0}, {"wl", "pl", "wl"},
                      {0.0499 - y9, 2 * y9, 0.05 - y9});
    // along x at y = -2 mm, z = -5 mm: in through r = 9 at x = -sqrt(77), out into the hole r = 3 at
    // x = -sqrt(5); beyond x = 0 the ray runs in the missing quadrant (phi 270..360 deg)
    double const x9 = std::sqrt(77.0) * 1e-3, x3 = std::sqrt(5.0) * 1e-3;
    test::check_trace(g, {-0.0499, -0.002, -0.005}, {1, 0, 0}, {"wl", "pl", "wl"},
                      {0.0499 - x9, x9 - x3, 0.05 + x3});
    // along -y at x = 3 mm, z = 2 mm (rmin 4.6, rmax 8.2 there; phi in (0, 90) deg for y > 0): in
    // through the outer cone at y = sqrt(8.2^2 - 9), out into the hole at y = sqrt(4.6^2 - 9); past
    // the hole y < 0 with x > 0 is the missing quadrant: the world down to its face
    double const yo = std::sqrt(8.2 * 8.2 - 9) * 1e-3, yi = std::sqrt(4.6 * 4.6 - 9) * 1e-3;
    test::check_trace(g, {0.003, 0.0499, 0.002}, {0, -1, 0}, {"wl", "pl", "wl"},
                      {0.0499 - yo, yo - yi, yi + 0.05});
}

TEST_CASE("GDML polycone (pyg4ometry T011): gtrack check, and its mass against density x volume")
{
    std::string const deck = test::write_temp_file("polycone.toml", test::gdml_deck(k_file));
    DeckConfig const cfg = read_deck(deck, {});
    std::size_t problems = 99;
    std::string const text = describe_geometry(cfg, &problems);
    INFO(text);
    CHECK(problems == 0);
    CHECK(text.find("solids by type: box 1, polycone 1") != std::string::npos);
    // frusta pi h / 3 (R1^2 + R1 R2 + R2^2) [mm^3], outer less inner, times 270 / 360
    auto frustum = [](double r1, double r2, double h) {
        return k_pi * h / 3 * (r1 * r1 + r1 * r2 + r2 * r2);
    };
    double const volume =
        0.75 * (frustum(9, 9, 10) - frustum(1, 5, 10) + frustum(9, 5, 10) - frustum(5, 3, 10)) * 1e-9;
    double const mass = 7.874e3 * volume;  // G4_Fe: 7.874 g/cm3 (G4NistMaterialBuilder)
    std::size_t const at = text.rfind("\n    pl ");
    REQUIRE(at != std::string::npos);
    std::istringstream line(text.substr(at + 1, text.find('\n', at + 1) - at - 1));
    std::string name, cm3, kg;
    double printed_cm3 = 0, printed_kg = 0;
    line >> name >> printed_cm3 >> cm3 >> printed_kg >> kg;
    CHECK(printed_cm3 == test::relative(volume * 1e6, 1e-5));  // printed to 6 digits
    CHECK(printed_kg == test::relative(mass, 1e-5));

    gdml::GdmlGeometry const gg = gdml::read_gdml_file(k_file, {});
    GeometryTables const g = test::tables_of(gg);
    CHECK(g.sections.size() == 2);
    Navigator const nav(g.view());
    PlacedVolume const& pv = g.volumes[1];
    REQUIRE(g.logical_names[pv.logical] == "pl");
    std::mt19937_64 gen(17);
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
}
