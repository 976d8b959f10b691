// Space charge through the real run: kick placement in the lattice, the /space_charge table, and the
// expanding uniform sphere read from a deck and a particle file.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "IoTestSupport.hh"
#include "Relative.hh"
#include "beam/Lattice.hh"
#include "deck/DeckReader.hh"
#include "io/TableWriter.hh"
#include "kernels/core/Device.hh"
#include "run/BeamRun.hh"
#include "run/SpaceChargeSchedule.hh"
#include "run/Validation.hh"
#include "tests/SpaceChargeTestSupport.hh"
#include "tests/SphereDeckSupport.hh"

using namespace gt;
using namespace gt::test;

namespace {

std::string const k_lattice_deck = R"(
[beam]
particle = "proton"
kinetic_energy = 100
bunch_charge = "1 nC"
macroparticles = 1000
[beam.twiss]
beta_x = 5.0
beta_y = 5.0
emittance_x = 1e-6
emittance_y = 1e-6
sigma_t = 1e-3
sigma_pt = 1e-4
[elements]
D = { type = "drift", length = 1.0 }
Q = { type = "quadrupole", length = 0.3, k1 = 2.0, slices = 5 }
B = { type = "sbend", length = 0.6, angle = 0.1 }
K = { type = "kicker", length = 0.2, hkick = 1e-4 }
M = { type = "marker" }
[lattice]
line = ["D", "M", "Q", "B", "K"]
[space_charge]
enabled = true
kicks_per_meter = 4
)";

}  // namespace

TEST_CASE("kicks sit in the middle of equal parts of each element: half map, kick, half map")
{
    DeckConfig const deck = with_space_charge_slices(read_deck_text(k_lattice_deck, "sc.toml"));
    ReferenceParticle const ref = ReferenceParticle::from_kinetic(constants::proton_mass_mev, 1.0, 100.0);
    Lattice const lattice = build_lattice(deck, ref);
    auto const kicks = space_charge_schedule(lattice, deck);
    // D: 1 m at 4/m -> 4 kicks of 0.25 m at 0.125, 0.375, ...; Q: 0.3 m -> 2 kicks of 0.15 m (its 5
    // slices become 8: the first multiple of 2 x 2 at or above 5); B: 0.6 m -> 3 kicks of 0.2 m;
    // K: a thick kicker, one kick of 0.2 m after it.
    std::vector<double> s_at, ds;
    for (auto const& k : kicks) {
        s_at.push_back(lattice.info[std::size_t(k.entry)].s_end);
        ds.push_back(k.ds);
    }
    std::vector<double> const s_expected = {0.125, 0.375, 0.625, 0.875, 1.075, 1.225, 1.4, 1.6, 1.8, 2.1};
    std::vector<double> const ds_expected = {0.25, 0.25, 0.25, 0.25, 0.15, 0.15, 0.2, 0.2, 0.2, 0.2};
    REQUIRE(kicks.size() == s_expected.size());
    for (std::size_t i = 0; i < kicks.size(); ++i) {
        CAPTURE(i);
        CHECK(s_at[i] == test::relative(s_expected[i], 1e-12));
        CHECK(ds[i] == test::relative(ds_expected[i], 1e-12));
    }
    // The kicks account for the whole length.
    double total = 0;
    for (double d : ds) total += d;
    CHECK(total == test::relative(lattice.length, 1e-12));
    int quad_slices = 0;
    for (auto const& info : lattice.info) quad_slices += info.name == "Q";
    CHECK(quad_slices == 8);

    // kicks_per_element: every element with a length gets that many.
    DeckConfig per = read_deck_text(k_lattice_deck, "sc.toml");
    per.space_charge.kicks_per_element = 3;
    per = with_space_charge_slices(per);
    CHECK(space_charge_schedule(build_lattice(per, ref), per).size() == 3 + 3 + 3 + 1);
}

TEST_CASE("the expanding sphere through a deck: rms sizes, and the per-kick table")
{
    // The ExpandingSphereTest physics, read from a particle file and a deck and run by run_beamline:
    // 40 kicks over a 1 m drift (linear model), grid 32^3. Tolerance 1 %, as there (measured 0.6 %).
    TempDir dir;
    std::size_t const n = 50000;
    double const R = 1e-3, kinetic = 2.0, K = 2.6e-9;
    BeamFrame const frame = proton_frame(kinetic, 1.0);
    double const Q = write_sphere(dir.file("sphere.h5"), n, R, kinetic, K);
    RunOptions opt;
    opt.backend = "cpu";
    opt.quiet = true;
    opt.output = dir.file("run.h5");
    DeckConfig const deck =
        read_deck_text(sphere_deck(dir.file("sphere.h5"), Q, n, "z"), dir.file("sphere.toml"));
    REQUIRE(run_beamline(deck, opt) == 0);

    Table const stats = read_table(dir.file("run.h5"), "stats");
    auto const& sx = stats.doubles("sigma_x");
    auto const& sy = stats.doubles("sigma_y");
    auto const& st = stats.doubles("sigma_t");
    auto const& s = stats.doubles("s");
    REQUIRE(s.back() == doctest::Approx(1.0));
    double const R0 =
        std::sqrt(5.0) * (sx.front() + sy.front() + std::abs(frame.rest_z()) * st.front()) / 3.0;
    double const u = envelope_ratio(1.0, R0, K);
    MESSAGE("deck run: rms/analytic x " << sx.back() / (sx.front() * u) << ", y "
                                        << sy.back() / (sy.front() * u) << ", t "
                                        << st.back() / (st.front() * u));
    CHECK(sx.back() == test::relative(sx.front() * u, 0.01));
    CHECK(sy.back() == test::relative(sy.front() * u, 0.01));
    CHECK(st.back() == test::relative(st.front() * u, 0.01));

    Table const sc = read_table(dir.file("run.h5"), "space_charge");
    REQUIRE(sc.rows() == 40);
    auto const& inside = sc.doubles("inside");
    auto const& dep = sc.doubles("deposited_charge");
    auto const& inq = sc.doubles("inside_charge");
    auto const& energy = sc.doubles("field_energy");
    for (std::size_t i = 0; i < sc.rows(); ++i) {
        CAPTURE(i);
        CHECK(inside[i] == double(n));
        CHECK(dep[i] == test::relative(inq[i], 1e-12));
        CHECK(inq[i] == test::relative(Q, 1e-12));
    }
    // The sphere's field energy 3 Q^2/(20 pi eps0 R) falls as it expands (to ~1 % at the start:
    // the grid's sphere is smoothed over a cell).
    CHECK(energy.front() == test::relative(3 * Q * Q / (20 * constants::pi * constants::eps0 * R0), 0.03));
    CHECK(energy.back() < 0.6 * energy.front());
    CHECK(sc.doubles("ds").front() == test::relative(0.025, 1e-12));
}

TEST_CASE("both solvers run through a lattice deck: one table row per kick")
{
    TempDir dir;
    for (char const* solver : {"3d", "2.5d"}) {
        CAPTURE(solver);
        std::string const text = k_lattice_deck + "solver = \"" + solver + "\"\ngrid = [16, 16, 32]\n";
        RunOptions opt;
        opt.backend = "cpu";
        opt.quiet = true;
        opt.output = dir.file(std::string("run-") + solver + ".h5");
        REQUIRE(run_beamline(read_deck_text(text, dir.file("l.toml")), opt) == 0);
        Table const sc = read_table(opt.output, "space_charge");
        REQUIRE(sc.rows() == 10);
        auto const& energy = sc.doubles("field_energy");
        auto const& dep = sc.doubles("deposited_charge");
        CHECK(dep.front() == test::relative(1e-9, 1e-12));
        // 2.5D has no defined field energy (NaN in the table); 3D's is positive.
        CHECK((std::string(solver) == "2.5d" ? std::isnan(energy.back()) : energy.back() > 0.0));
    }
}

TEST_CASE("without a GPU the GPU space-charge solver is a clear error, never a silent CPU one")
{
    if (device::count() > 0) return;  // a machine with a GPU runs tests/gpu instead
    CHECK_THROWS_WITH(make_cuda_space_charge(),
                      doctest::Contains(device::compiled_in() ? "no GPU found" : "built without CUDA"));
}

TEST_CASE("validate with space charge: two CPU backends agree bit for bit, space-charge stages timed")
{
    // Both sides kick with the CPU solver: the deterministic deposition and the same FFTW plans give
    // the same bits, so even after sorting the particles agree one by one (compared in id order).
    std::string const text = k_lattice_deck + "grid = [16, 16, 32]\n";
    DeckConfig const deck = read_deck_text(text, "sc.toml");
    auto a = make_cpu_beam_kernels();
    auto b = make_cpu_beam_kernels();
    ValidationOptions o;
    o.stages = StatsWhere::every_element;
    ValidationResult const r = validate_beamline(deck, *a, *b, o);
    CHECK(r.ok());
    for (auto const& s : r.stages)
        for (auto const& c : s.coordinate) CHECK(c.differing == 0);
    CHECK(r.reference_kernels.count("sc.deposit") == 1);
    CHECK(r.candidate_kernels.at("sc.gather").calls == 10);  // gather and kick, one pass a kick
}
