// 3D field maps (field_map) tracked in time: the helix of a uniform-B map against the exact helix
// and the z-code, a TM010 pillbox map's energy gain against V0 T cos(phase) and the z-code, and the
// `tracking` keys of a field_map in a deck (t, auto, the integrator check).
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "DeckTestSupport.hh"
#include "FieldMap3DTestSupport.hh"
#include "IoTestSupport.hh"
#include "beam/FieldMap3DBuilder.hh"
#include "beam/FieldMap3DFile.hh"
#include "beam/Lattice.hh"
#include "beam/TimeCodeBuilder.hh"
#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "kernels/cpu/Executor.hh"
#include "kernels/elements/TimeCode.hh"
#include "run/BeamRun.hh"

using namespace gt;
using namespace gt::test;

namespace {

double const deg = constants::pi / 180.0;

//! A map file's grid (scales 1) and its one-slice z-code element, for a reference entering as `entry`.
struct Built {
    std::vector<double> data;
    EmFieldGrid grid{};
    FieldMap3DSlices map;
    double dz = 0.0;
};

Built build(std::string const& path, double length, int steps, double phase, ReferenceParticle const& entry)
{
    FieldMap3DFile const file = read_field_map_3d(path);
    Built b;
    b.dz = file.spacing[2];
    b.grid = append_field_grid(file, 1.0, 1.0, k_default_field_layout, b.data);
    FieldMap3DRequest r;
    r.dz = b.dz;
    r.length = length;
    r.steps_per_slice = steps;
    r.frequency = file.frequency;
    r.phase = phase;
    b.map = build_field_map_3d(r, b.grid, entry);
    return b;
}

//! The t-code entry of the built map, as the lattice builder makes it (time_step 0: the accuracy rule).
TimeCode time_code(Built const& b, ReferenceParticle const& entry, double time_step = 0.0)
{
    GridPeaks const peaks = grid_peaks(b.grid);
    TimeCodeRequest t;
    t.field = TimeField::grid_map;
    t.length = b.map.slices[0].length;
    t.grid_map = b.map.slices[0];
    t.peak_e = peaks.e;
    t.peak_b = peaks.b;
    t.profile_dz = b.dz;
    t.time_step = time_step;
    return make_time_code(t, entry);
}

SampledField const none;

}  // namespace

TEST_CASE("a uniform-B 3D map tracked in time follows the exact helix")
{
    // 100 MeV proton in Bz = 0.7 T over 0.6 m (FieldMap3DTest's helix). Bz only: |P| and Pz are
    // constant and the transverse momentum turns at Omega = Bz / (B rho Pz) per metre of s; the exit
    // time is the path time w L / Pz. Trilinear interpolation of a uniform field is exact to ~16 eps.
    TempDir dir;
    double const bz = 0.7, length = 0.6;
    std::string const path = dir.file("uniform.h5");
    write_map_file(path, sampled_map({5, 5, 7}, {-0.2, -0.2, 0.0}, {0.1, 0.1, 0.1}, none,
                                     [&](double, double, double) { return std::array<double, 3>{0.0, 0.0, bz}; }));
    ReferenceParticle const proton = ReferenceParticle::from_kinetic(constants::proton_mass_mev, 1.0, 100.0);
    Built const b = build(path, length, 600, 0.0, proton);
    // RK4 with c dt = 0.5 mm: the rotation per step is Omega beta0 h ~ 1e-4 rad, RK4's phase error
    // per step (Omega h)^5 / 120 ~ 1e-22, far below round-off (the accuracy rule's 0.02 rad would
    // leave ~1e-11). The default rule picks RK4 only with E: ask for it.
    TimeCode tc = time_code(b, proton, 0.5e-3 / constants::c_light);
    REQUIRE(tc.integrator == TimeIntegrator::boris);
    tc.integrator = TimeIntegrator::rk4;
    double const inv_beta0 = 1.0 / proton.beta;
    for (double t0 : {0.0, 1.7e-3, -2.3e-3}) {
        for (double pt : {0.0, 2e-3}) {
            double const x0 = 0.01, y0 = -0.02, px0 = 0.03, py0 = 0.01;
            Particle p{x0, px0, y0, py0, t0, pt};
            Particle z = p;
            REQUIRE(tc(p));
            REQUIRE(b.map.slices[0](z));
            double const pz = std::sqrt(momentum_squared(pt, inv_beta0) - px0 * px0 - py0 * py0);
            double const om = bz / (proton.rigidity * pz);
            double const c = std::cos(om * length), s = std::sin(om * length);
            CAPTURE(t0);
            CAPTURE(pt);
            // Round-off: ~1200 steps (RK4 stages and the exit's Newton steps) of O(1e-2) coordinates,
            // each step a few roundings of ulp(1e-2) ~ 2e-18: ~1e-15, well inside the z-code
            // test's 1e-14.
            CHECK(std::abs(p.px - (px0 * c + py0 * s)) <= 1e-14);
            CHECK(std::abs(p.py - (-px0 * s + py0 * c)) <= 1e-14);
            CHECK(std::abs(p.x - (x0 + (px0 * s + py0 * (1.0 - c)) / (pz * om))) <= 1e-14);
            CHECK(std::abs(p.y - (y0 + (py0 * s - px0 * (1.0 - c)) / (pz * om))) <= 1e-14);
            // t: the entrance time plus the path time w L / Pz less the reference's L / beta0, each
            // ~1.4 m summed over the steps (the same 2e-13 as the z-code test).
            CHECK(std::abs(p.t - (t0 + ((inv_beta0 - pt) / pz - inv_beta0) * length)) <= 2e-13);
            // pt: w from |P|, which the field does not change; round-off of |P|^2 ~ eps.
            CHECK(std::abs(p.pt - pt) <= 1e-15);
            // The z-code on the same map (RK4 in s, 600 steps): the same helix.
            CHECK(std::abs(p.x - z.x) <= 2e-14);
            CHECK(std::abs(p.px - z.px) <= 2e-14);
            CHECK(std::abs(p.t - z.t) <= 4e-13);
        }
    }
}

TEST_CASE("TM010 pillbox 3D map tracked in time: energy gain V0 T cos(phase) and the z-code's")
{
    // FieldMap3DTest's pillbox: Ez = E0 J0(k r) cos(psi), B_theta = -(E0/c) J1(k r) sin(psi),
    // 1.3 GHz-like (k = 2.405/R), half a wavelength long, a 200 MeV electron. On the axis the map is
    // exact and the constant-velocity gain q E0 L T cos(phi), T = sin(theta/2)/(theta/2), holds to
    // ~1e-8 (the electron's beta changes by ~1e-8). In time the accuracy rule takes k h <= 0.02:
    // RK4's error in the integral of the cosine ~ (k h)^4 / 2880 ~ 1e-10. Hence 1e-6 against
    // V0 T cos(phase), and 1e-6 against the z-code's gain on the same map (400 RK4 steps in s), the
    // bounds of the z-code test and of the profile cavity in time.
    TempDir dir;
    double const e0 = 20e6;
    std::string const path = dir.file("pillbox.h5");
    PillboxMap const cell = write_pillbox_map(path, e0, 0.0883);
    double const k = cell.k, frequency = cell.frequency, length = cell.length;
    ReferenceParticle const electron = ReferenceParticle::from_kinetic(constants::electron_mass_mev, -1.0, 200.0);
    double const theta = constants::two_pi * frequency * length / (electron.beta * constants::c_light);
    double const v0t_mev = e0 * length * std::sin(theta / 2) / (theta / 2) * 1e-6;
    for (double phase : {0.0, 30.0, -60.0}) {
        Built const b = build(path, length, 400, phase * deg, electron);
        TimeCode const tc = time_code(b, electron);
        REQUIRE(tc.field == TimeField::grid_map);
        CHECK(tc.integrator == TimeIntegrator::rk4);  // E present: RK4 by default
        CHECK(tc.step <= 0.02 / k * (1.0 + 1e-12));   // the RF phase rule
        Particle p{0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
        REQUIRE(tc(p));
        double const pt_entry = p.pt / tc.momentum_ratio + tc.pt_ref_end;
        double const gain = -pt_entry * electron.pc_mev;
        double const zgain = b.map.reference_after.back().kinetic_mev - electron.kinetic_mev;
        CAPTURE(phase);
        CHECK(std::abs(gain / (v0t_mev * std::cos(phase * deg)) - 1.0) <= 1e-6);
        CHECK(std::abs(gain / zgain - 1.0) <= 1e-6);
        // Off the axis and late: the t-code and the z-code see the same field at the same times;
        // both are RK4-accurate (~1e-10 of the kick), so they agree far inside 1e-8 of the scales.
        Particle q{2e-3, 1e-4, -1e-3, 0.0, 3e-3, 1e-4};
        Particle zq = q;
        REQUIRE(tc(q));
        REQUIRE(b.map.slices[0](zq));
        CHECK(std::abs(q.x - zq.x) <= 1e-8 * 2e-3);
        CHECK(std::abs(q.px - zq.px) <= 1e-8 * 1e-3);
        CHECK(std::abs(q.pt - zq.pt) <= 1e-8 * 1e-3);
        CHECK(std::abs(q.t - zq.t) <= 1e-8 * 3e-3);
    }
    // Boris cannot push through E.
    Built const b = build(path, length, 400, 0.0, electron);
    TimeCodeRequest t;
    t.field = TimeField::grid_map;
    t.length = length;
    t.grid_map = b.map.slices[0];
    t.profile_dz = b.dz;
    t.integrator = "boris";
    CHECK_THROWS_AS(make_time_code(t, electron), std::invalid_argument);
}

TEST_CASE("field_map tracking keys: t, auto (a cell against the bunch length), integrator errors")
{
    TempDir dir;
    // A uniform Bz map and a 1.3 GHz pillbox-like map (Ez only, uniform: the reference gains on crest).
    write_map_file(dir.file("b.h5"),
                   sampled_map({3, 3, 5}, {-0.05, -0.05, 0.0}, {0.05, 0.05, 0.05}, none,
                               [](double, double, double) { return std::array<double, 3>{0.0, 0.0, 0.1}; }));
    MapFileSpec e = sampled_map({3, 3, 5}, {-0.05, -0.05, 0.0}, {0.05, 0.05, 0.025},
                                [](double, double, double) { return std::array<double, 3>{0.0, 0.0, 1e6}; }, none);
    e.frequency = 1.3e9;
    write_map_file(dir.file("e.h5"), e);
    auto deck_text = [](std::string const& run, std::string const& elements, std::string const& sigma_t) {
        return "[run]\nname = \"t\"\n" + run + R"(
[beam]
particle = "proton"
kinetic_energy = "10 MeV"
macroparticles = 64
[beam.twiss]
beta_x = 1.0
beta_y = 1.0
emittance_x = 1e-6
emittance_y = 1e-6
sigma_t = )" + sigma_t + R"(
sigma_pt = 1e-4
[elements]
)" + elements + R"(
[lattice]
line = ["B", "E"]
)";
    };
    std::string const elements = R"(
B = { type = "field_map", file = "b.h5", length = 0.2 }
E = { type = "field_map", file = "e.h5", length = 0.1, phase = -20 }
)";
    auto lattice = [&](std::string const& run, std::string const& els, std::string const& sigma_t = "1e-3") {
        DeckConfig const deck = read_deck_text(deck_text(run, els, sigma_t), dir.file("deck.toml"));
        return build_lattice(deck, initial_reference(deck));
    };
    auto kinds = [](Lattice const& l) {
        std::string out;
        for (auto const& el : l.elements) out += el.kind == ElementKind::time_code ? "t" : "z";
        return out;
    };
    CHECK(kinds(lattice("", elements)) == "zz");
    Lattice const t = lattice("tracking = \"t\"", elements);
    REQUIRE(kinds(t) == "tt");
    CHECK(t.elements[0].time_code.field == TimeField::grid_map);
    CHECK(t.elements[0].time_code.integrator == TimeIntegrator::boris);  // B only
    CHECK(t.elements[1].time_code.integrator == TimeIntegrator::rk4);    // E
    // The t-code entry ends where the z-code's reference does: the same reference after it.
    Lattice const z = lattice("", elements);
    CHECK(t.reference_after.back().kinetic_mev == z.reference_after.back().kinetic_mev);
    CHECK(t.field_data->size() == z.field_data->size());
    std::string const text = describe(t);
    CHECK(text.find("3D map B 3x3x5") != std::string::npos);
    CHECK(text.find("3D map E 3x3x5 RF, RK4") != std::string::npos);
    // auto: 10 MeV protons, beta = 0.145: a cell is beta lambda / 2 = 16.7 mm. sigma_t = 1 mm of c t
    // is a bunch of 0.145 mm: the cell is 115 bunch lengths (z-code), the B map 1380 (z-code). With
    // sigma_t = 30 mm the bunch is 4.35 mm: the cell is 3.8 bunch lengths (t-code), the B map's
    // 0.2 m is 46 (z-code).
    CHECK(kinds(lattice("tracking = \"auto\"", elements)) == "zz");
    Lattice const a = lattice("tracking = \"auto\"", elements, "0.03");
    CHECK(kinds(a) == "zt");
    CHECK(describe(a).find("t-code (auto: field scale 0.0167 m") != std::string::npos);
    // Per element over the run's default, and the integrator check naming the key.
    CHECK(kinds(lattice("tracking = \"t\"", R"(
B = { type = "field_map", file = "b.h5", length = 0.2, tracking = "z" }
E = { type = "field_map", file = "e.h5", length = 0.1, time_step = "1 ps" }
)")) == "zt");
    auto error_of = [&](std::string const& els) -> std::string {
        try {
            lattice("", els);
        } catch (DeckError const& err) {
            return err.what();
        }
        return "";
    };
    std::string const boris = error_of(R"(
B = { type = "field_map", file = "b.h5", length = 0.2, tracking = "t", time_integrator = "boris" }
E = { type = "field_map", file = "e.h5", length = 0.1, tracking = "t", time_integrator = "boris" }
)");
    CHECK(boris.find("elements.E.time_integrator") != std::string::npos);
    CHECK(boris.find("a map with E needs rk4") != std::string::npos);
}

TEST_CASE("field_map in time on the CPU backend: the same bits for 1 and 3 threads")
{
    TempDir dir;
    MapFileSpec e = sampled_map(
        {5, 5, 9}, {-0.02, -0.02, 0.0}, {0.01, 0.01, 0.0125},
        [](double x, double y, double z) {
            return std::array<double, 3>{-0.5e5 * x, -0.5e5 * y, 1e5 * std::sin(constants::pi * z / 0.1)};
        },
        [](double x, double y, double) { return std::array<double, 3>{0.3 * y, 0.3 * x, 0.05}; });
    e.frequency = 0.7e9;
    write_map_file(dir.file("e.h5"), e);
    std::string const text = deck_text(TestDeck{.run = "tracking = \"t\"",
                                                .kinetic_energy = "10 MeV",
                                                .macroparticles = 500,
                                                .sigma_t = "0.01",
                                                .sigma_pt = "1e-3",
                                                .elements = R"(
E = { type = "field_map", file = "e.h5", length = 0.1, phase = -30 }
)",
                                                .line = R"(["E", "E"])"});
    DeckConfig const deck = read_deck_text(text, dir.file("deck.toml"));
    Lattice const lattice = build_lattice(deck, initial_reference(deck));
    REQUIRE(lattice.elements[0].kind == ElementKind::time_code);
    std::vector<double> const one = tracked_coordinates(deck, lattice, 1);
    CHECK(tracked_coordinates(deck, lattice, 3) == one);
    cpu::set_thread_count(0);
}
