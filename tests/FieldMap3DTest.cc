// 3D field maps (field_map element): trilinear interpolation, the helix in a uniform map, a
// quadrupole map against the quadrupole element, the energy gain of a TM010 pillbox map, the two
// device layouts, and every check of the file reader.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <string>

#include "FieldMap3DTestSupport.hh"
#include "IoTestSupport.hh"
#include "Relative.hh"
#include "TextTestSupport.hh"
#include "beam/FieldMap3DBuilder.hh"
#include "beam/FieldMap3DFile.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "kernels/elements/Quadrupole.hh"

using namespace gt;
using namespace gt::test;

namespace {

double const eps = std::numeric_limits<double>::epsilon();
double const deg = constants::pi / 180.0;

struct Built {
    std::vector<double> data;
    FieldMap3DSlices map;
};

//! The element of the map file at `path` (read and checked as a deck's would be), for `entry`.
Built build(std::string const& path, FieldMap3DRequest r, ReferenceParticle const& entry,
            FieldLayout layout = k_default_field_layout)
{
    FieldMap3DFile const file = read_field_map_3d(path);
    Built b;
    r.dz = file.spacing[2];
    if (r.frequency == 0.0) r.frequency = file.frequency;
    EmFieldGrid const grid = append_field_grid(file, 1.0, 1.0, layout, b.data);
    b.map = build_field_map_3d(r, grid, entry);
    return b;
}

Particle track(Built const& b, Particle p)
{
    for (FieldMap3D const& s : b.map.slices) REQUIRE(s(p));
    return p;
}

FieldMap3DRequest request(double length, int steps, double frequency = 0.0, double phase = 0.0)
{
    FieldMap3DRequest r;
    r.length = length;
    r.steps_per_slice = steps;
    r.frequency = frequency;
    r.phase = phase;
    return r;
}

SampledField const none;

//! A uniform Bz map of 5 x 5 x 7 nodes around the axis, z from 0 to 0.6 m.
std::string uniform_map(TempDir const& dir, double bz)
{
    std::string const path = dir.file("uniform.h5");
    write_map_file(path, sampled_map({5, 5, 7}, {-0.2, -0.2, 0.0}, {0.1, 0.1, 0.1}, none,
                                     [&](double, double, double) { return std::array<double, 3>{0.0, 0.0, bz}; }));
    return path;
}

}  // namespace

TEST_CASE("trilinear interpolation of a uniform field is exact to round-off, zero outside the grid")
{
    TempDir dir;
    double const bz = 0.7;
    FieldMap3DFile const file = read_field_map_3d(uniform_map(dir, bz));
    for (FieldLayout layout : {FieldLayout::interleaved, FieldLayout::planar}) {
        std::vector<double> data;
        EmFieldGrid const g = append_field_grid(file, 1.0, 1.0, layout, data);
        // The eight weights are products of three rounded factors that sum to 1: each weight carries
        // at most ~3 eps relative error and the sum of eight terms ~7 eps more, so the interpolated
        // field is B (1 + delta) with |delta| < 16 eps.
        for (int i = 0; i < 200; ++i) {
            double const x = -0.2 + 0.4 * std::fmod(0.6180339887 * i, 1.0);
            double const y = -0.2 + 0.4 * std::fmod(0.7548776662 * i, 1.0);
            double const z = 0.6 * std::fmod(0.5698402910 * i, 1.0);
            FieldValue const f = g(x, y, z);
            CHECK(std::abs(f.bz - bz) <= 16.0 * eps * bz);
            CHECK(f.bx == 0.0);
            CHECK(f.by == 0.0);
            CHECK(f.ez == 0.0);
        }
        CHECK(g(0.0, 0.0, 0.6).bz == test::relative(bz, 1e-15));  // the last node is inside
        CHECK(g(0.0, 0.0, 0.6000001).bz == 0.0);
        CHECK(g(0.0, -0.2000001, 0.3).bz == 0.0);
        CHECK(g(std::nan(""), 0.0, 0.3).bz == 0.0);
    }
}

TEST_CASE("a uniform-B 3D map gives the analytic helix")
{
    // 100 MeV proton (B rho = 1.4829 T m) in Bz = 0.7 T. With Bz only, Pz and |P_perp| are
    // constant and the kinetic transverse momentum turns at Omega = Bz / (B rho Pz) per metre of s:
    //   Px(s) = Px0 cos(Os) + Py0 sin(Os),  Py(s) = -Px0 sin(Os) + Py0 cos(Os),
    //   x(s) = x0 + (Px0 sin(Os) + Py0 (1 - cos(Os))) / (Pz O),  y(s) = y0 + (Py0 sin(Os) - Px0 (1 - cos(Os))) / (Pz O),
    //   tau(s) = w s / Pz (w = 1/beta0: pt = 0).
    TempDir dir;
    double const bz = 0.7, length = 0.6;
    ReferenceParticle const proton = ReferenceParticle::from_kinetic(constants::proton_mass_mev, 1.0, 100.0);
    Built const b = build(uniform_map(dir, bz), request(length, 600), proton);
    REQUIRE(b.map.slices.size() == 1);
    CHECK(b.map.reference_after[0].kinetic_mev == proton.kinetic_mev);

    double const x0 = 0.01, y0 = -0.02, px0 = 0.03, py0 = 0.01;
    Particle const out = track(b, Particle{x0, px0, y0, py0, 0.0, 0.0});
    double const pz = std::sqrt(1.0 - px0 * px0 - py0 * py0);
    double const om = bz / (proton.rigidity * pz);
    double const c = std::cos(om * length), s = std::sin(om * length);
    // RK4 with h = 1 mm: the local error ~ (Omega h)^5 / 120 x radius ~ 1e-18 m per step, far below
    // round-off; the round-off of 600 steps of O(1e-2) coordinates is ~ 600 x 1e-18 m. Momenta
    // O(1e-2) likewise. 1e-14 leaves a margin and still is "exact to round-off" at these sizes.
    CHECK(std::abs(out.px - (px0 * c + py0 * s)) <= 1e-14);
    CHECK(std::abs(out.py - (-px0 * s + py0 * c)) <= 1e-14);
    CHECK(std::abs(out.x - (x0 + (px0 * s + py0 * (1.0 - c)) / (pz * om))) <= 1e-14);
    CHECK(std::abs(out.y - (y0 + (py0 * s - px0 * (1.0 - c)) / (pz * om))) <= 1e-14);
    // t relative to the reference: (1/pz - 1) length / beta0. It is the difference of two path
    // times of ~1.4 m, each summed over 600 steps: round-off up to ~600 x 1.4 m x eps ~ 2e-13.
    CHECK(std::abs(out.t - (1.0 / pz - 1.0) * length / proton.beta) <= 2e-13);
    CHECK(out.pt == 0.0);
}

TEST_CASE("a 3D map of a quadrupole field agrees with the quadrupole element")
{
    // B = g (y, x, 0): linear in x and y, constant in z, so trilinear interpolation reproduces it
    // exactly (up to round-off, ~1e-16 relative): the interpolation adds nothing to the bound. What
    // remains is the quadrupole element's own model (exact in pt, paraxial in px, py: its map drops
    // terms of relative size |P_perp|^2 / 2, at most ~1e-8 here: px reaches 1.5e-4 at 10 MeV, where
    // k1 = 17 /m^2) and the RK4 truncation, (sqrt(k1) h)^4 ~ 3e-10 per unit phase / 120, with
    // h = 1 mm. Hence 1e-7 relative to each coordinate's scale (3e-5 m; k1 L times that for px, py).
    TempDir dir;
    double const g = 8.0, length = 0.25;
    std::string const path = dir.file("quad.h5");
    write_map_file(path, sampled_map({7, 9, 6}, {-0.03, -0.04, 0.0}, {0.01, 0.01, 0.05}, none,
                                     [&](double x, double y, double) { return std::array<double, 3>{g * y, g * x, 0.0}; }));
    for (double kinetic : {100.0, 10.0}) {
        ReferenceParticle const proton = ReferenceParticle::from_kinetic(constants::proton_mass_mev, 1.0, kinetic);
        Built const b = build(path, request(length, 250), proton);
        double const k1 = g / proton.rigidity;
        Quadrupole const q = Quadrupole::make(length, k1, QuadrupoleModel::exact, 4, proton);
        for (double pt : {0.0, 1e-3}) {
            Particle const in{2e-5, -1e-5, -3e-5, 2e-5, 0.0, pt};
            Particle ref = in;
            REQUIRE(q(ref));
            Particle const out = track(b, in);
            CAPTURE(kinetic);
            CAPTURE(pt);
            CHECK(std::abs(out.x - ref.x) <= 1e-7 * 3e-5);
            CHECK(std::abs(out.px - ref.px) <= 1e-7 * 3e-5 * std::max(1.0, k1 * length));
            CHECK(std::abs(out.y - ref.y) <= 1e-7 * 3e-5);
            CHECK(std::abs(out.py - ref.py) <= 1e-7 * 3e-5 * std::max(1.0, k1 * length));
            CHECK(std::abs(out.x - in.x) > 1e-6);  // the quadrupole does act
            CHECK(out.pt == pt);
        }
    }
}

TEST_CASE("TM010 pillbox 3D map: energy gain V0 T cos(phase)")
{
    // Pillbox of radius R: Ez = E0 J0(k r) cos(psi), B_theta = -(E0/c) J1(k r) sin(psi), k = 2.405/R,
    // omega = k c. Ez does not depend on z, so on the axis (a node line of the grid) the map is exact
    // and the gain of a particle at constant velocity is q E0 L T cos(phi) with the transit-time
    // factor T = sin(theta/2)/(theta/2), theta = omega L / (beta c). A 200 MeV electron gains 0.4%
    // of its energy: its beta changes by ~1e-8, which moves T by less than 1e-8; RK4 with
    // h = L/400 errs by ~(omega h / c)^4 ~ 1e-9. Hence 1e-6.
    TempDir dir;
    double const e0 = 20e6;
    std::string const path = dir.file("pillbox.h5");
    PillboxMap const cell = write_pillbox_map(path, e0, 0.0883);
    double const frequency = cell.frequency, length = cell.length;
    ReferenceParticle const electron = ReferenceParticle::from_kinetic(constants::electron_mass_mev, -1.0, 200.0);
    double const theta = constants::two_pi * frequency * length / (electron.beta * constants::c_light);
    double const transit = std::sin(theta / 2) / (theta / 2);
    double const v0t_mev = e0 * length * transit * 1e-6;
    for (double phase : {0.0, 30.0, -60.0}) {
        Built const b = build(path, request(length, 400, 0.0, phase * deg), electron);
        REQUIRE(b.map.slices[0].rf);
        double const gain = b.map.reference_after.back().kinetic_mev - electron.kinetic_mev;
        CAPTURE(phase);
        CHECK(std::abs(gain / (v0t_mev * std::cos(phase * deg)) - 1.0) <= 1e-6);
    }
    // The crest: the on-axis gain is largest there; an on-axis particle with the reference's
    // coordinates gains exactly as the reference did (pt stays 0 after re-expression).
    Built const crest = build(path, request(length, 400), electron);
    Particle const out = track(crest, Particle{0.0, 0.0, 0.0, 0.0, 0.0, 0.0});
    CHECK(std::abs(out.pt) <= 1e-15);
    CHECK(std::abs(out.t) <= 1e-15);
}

TEST_CASE("the interleaved and planar layouts give the same bits")
{
    TempDir dir;
    std::string const path = dir.file("mixed.h5");
    write_map_file(path, sampled_map(
                             {6, 5, 9}, {-0.025, -0.02, -0.01}, {0.01, 0.01, 0.03},
                             [](double x, double y, double z) {
                                 return std::array<double, 3>{1e5 * x * z, -2e5 * y, 3e6 * (1.0 + x * y)};
                             },
                             [](double x, double y, double z) {
                                 return std::array<double, 3>{0.5 * y + z * z, 0.5 * x, 0.1 + x * z};
                             }));
    ReferenceParticle const proton = ReferenceParticle::from_kinetic(constants::proton_mass_mev, 1.0, 30.0);
    FieldMap3DRequest r = request(0.2, 40, 325e6, -20 * deg);
    r.slices = 2;
    Built const a = build(path, r, proton, FieldLayout::interleaved);
    Built const b = build(path, r, proton, FieldLayout::planar);
    CHECK(a.map.reference_after.back().kinetic_mev == b.map.reference_after.back().kinetic_mev);
    Particle const in{3e-3, 1e-3, -2e-3, 5e-4, 1e-3, 2e-3};
    Particle const pa = track(a, in), pb = track(b, in);
    CHECK(pa.x == pb.x);
    CHECK(pa.px == pb.px);
    CHECK(pa.y == pb.y);
    CHECK(pa.py == pb.py);
    CHECK(pa.t == pb.t);
    CHECK(pa.pt == pb.pt);
    CHECK(pa.x != in.x);
}

TEST_CASE("field-map files: every check names the file and the problem")
{
    TempDir dir;
    std::string const path = dir.file("map.h5");
    auto error_of = [&](MapFileSpec const& s) -> std::string {
        write_map_file(path, s);
        try {
            read_field_map_3d(path);
        } catch (FieldMapFileError const& e) {
            return e.what();
        }
        return "";
    };
    auto const b = [](double, double, double) { return std::array<double, 3>{0.0, 0.1, 0.2}; };
    MapFileSpec const good = sampled_map({2, 3, 4}, {0, 0, 0}, {0.1, 0.1, 0.1}, none, b);
    CHECK(error_of(good).empty());
    auto with = [&](auto&& change) {
        MapFileSpec s = good;
        change(s);
        return error_of(s);
    };
    auto expect = [&](std::string const& message, std::string const& part) {
        CAPTURE(message);
        CHECK(contains(message, "field map '" + path + "'"));
        CHECK(contains(message, part));
    };
    expect(with([](MapFileSpec& s) { s.dimensions.reset(); }), "no 'dimensions' attribute");
    expect(with([](MapFileSpec& s) { s.dimensions = std::vector<std::uint64_t>{2, 3}; }),
           "'dimensions' has 2 values; expected 3");
    expect(with([](MapFileSpec& s) { s.dimensions = std::vector<std::uint64_t>{2, 1, 4}; }),
           "dimension y is 1: each axis needs at least 2 nodes");
    expect(with([](MapFileSpec& s) { s.dimensions = std::vector<std::uint64_t>{1u << 20, 1u << 20, 4}; }),
           "more than 2147483648 nodes");
    expect(with([](MapFileSpec& s) { s.origin.reset(); }), "no 'origin' attribute");
    expect(with([](MapFileSpec& s) { s.origin = std::vector<double>{0, std::nan(""), 0}; }),
           "'origin' holds a non-finite value");
    expect(with([](MapFileSpec& s) { s.spacing = std::vector<double>{0.1, 0.1}; }), "'spacing' has 2 values");
    expect(with([](MapFileSpec& s) { s.spacing = std::vector<double>{0.1, -0.1, 0.1}; }),
           "spacing along y is -0.1: the grid must increase");
    expect(with([](MapFileSpec& s) { s.spacing = std::vector<double>{0.1, 0.1, 0.0}; }), "spacing along z is 0");
    expect(with([](MapFileSpec& s) {
               s.origin = std::vector<double>{1e308, 0.0, 0.0};
               s.spacing = std::vector<double>{1e308, 0.1, 0.1};
           }),
           "the grid along x does not fit in finite numbers");
    expect(with([](MapFileSpec& s) { s.length_unit.reset(); }), "has no 'length_unit' attribute: units must be stated");
    expect(with([](MapFileSpec& s) { s.length_unit = "inch"; }), "unit 'inch'; expected one of m, cm, mm");
    expect(with([](MapFileSpec& s) { s.frequency = -1.0; }), "an RF map needs a finite frequency > 0");
    expect(with([](MapFileSpec& s) { s.datasets.clear(); }), "no field: the file needs E");
    expect(with([](MapFileSpec& s) { s.datasets[0].unit.reset(); }), "dataset 'B' has no 'unit' attribute");
    expect(with([](MapFileSpec& s) { s.datasets[0].unit = "V/m"; }), "dataset 'B' has unit 'V/m'; expected one of T, mT, G");
    expect(with([](MapFileSpec& s) { s.datasets[0].values.pop_back(); }),
           "dataset 'B' holds 71 values; the dimensions ask for 72 (24 nodes x 3 components)");
    expect(with([](MapFileSpec& s) { s.datasets[0].values[40] = std::numeric_limits<double>::infinity(); }),
           "dataset 'B' value 40 (inf) is not finite");
    expect(with([](MapFileSpec& s) { s.datasets.push_back({"Bx", std::vector<double>(24, 0.0), "T"}); }),
           "both 'B' and 'Bx' are given");
    expect(with([](MapFileSpec& s) {
               s.datasets = {{"Ex", std::vector<double>(24, 0.0), "V/m"}, {"Ez", std::vector<double>(24, 0.0), "V/m"}};
           }),
           "only 2 of Ex, Ey, Ez are given");
    expect(with([](MapFileSpec& s) {
               s.datasets = {{"Ex", std::vector<double>(24, 0.0), "V/m"},
                             {"Ey", std::vector<double>(23, 0.0), "V/m"},
                             {"Ez", std::vector<double>(24, 0.0), "V/m"}};
           }),
           "dataset 'Ey' holds 23 values; the dimensions ask for 24 (24 nodes)");
    std::string const not_hdf5 = dir.file("text.h5");
    std::ofstream(not_hdf5) << "not a map\n";
    auto read_error = [](std::string const& p) -> std::string {
        try {
            read_field_map_3d(p);
        } catch (FieldMapFileError const& e) {
            return e.what();
        }
        return "";
    };
    CHECK(contains(read_error(not_hdf5), "field map '" + not_hdf5 + "'"));
    CHECK(contains(read_error(dir.file("missing.h5")), "field map '" + dir.file("missing.h5") + "'"));

    // Separate components in other units give the same map as the combined dataset in SI.
    MapFileSpec split = good;
    split.length_unit = "cm";
    split.spacing = std::vector<double>{10, 10, 10};
    split.datasets.clear();
    for (int c = 0; c < 3; ++c) {
        std::vector<double> v;
        for (std::size_t i = 0; i < 24; ++i) v.push_back(good.datasets[0].values[3 * i + std::size_t(c)] * 1e3);
        split.datasets.push_back({std::string("B") + "xyz"[c], v, "mT"});
    }
    write_map_file(path, split);
    FieldMap3DFile const m = read_field_map_3d(path);
    CHECK(m.spacing[2] == test::relative(0.1, 1e-15));
    REQUIRE(m.b.size() == good.datasets[0].values.size());
    for (std::size_t i = 0; i < m.b.size(); ++i) CHECK(m.b[i] == test::relative(good.datasets[0].values[i], 1e-15));
    CHECK(m.e.empty());
}
