// The GPU beamline backend against the CPU backend: the same beam, every element type, every slice.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "kernels/beam/BeamKernels.hh"
#include "tests/gpu/BackendPair.hh"

using namespace gt;

namespace {

struct Difference {
    std::size_t differing = 0;  //!< values not bitwise equal
    double max_rel = 0;         //!< largest |a - b| / max(|a|, |b|)
};

void compare(double const* a, double const* b, std::size_t n, Difference& d)
{
    for (std::size_t i = 0; i < n; ++i) {
        if (std::memcmp(&a[i], &b[i], sizeof(double)) == 0) continue;
        ++d.differing;
        double const scale = std::max(std::abs(a[i]), std::abs(b[i]));
        d.max_rel = std::max(d.max_rel, scale > 0 ? std::abs(a[i] - b[i]) / scale : 0.0);
    }
}

//! Tracks `deck_path` (with overrides) on both backends, comparing moments at every slice and every
//! particle at the end.
void check_deck(std::string const& deck_path, std::vector<std::string> const& overrides)
{
    test::BackendPair run(deck_path, overrides);
    ParticleState& cs = run.cpu_beam;
    ParticleState& gs = run.gpu_beam;
    BeamTracker& ct = run.cpu_tracker;
    BeamTracker& gt = run.gpu_tracker;
    Difference moments;
    int points = 0;
    while (ct.advance()) {
        REQUIRE(gt.advance());
        BeamMoments const a = run.cpu->moments(cs.view()), b = run.gpu->moments(gs.view());
        compare(&a.alive, &b.alive, 1, moments);
        compare(a.mean, b.mean, 6, moments);
        compare(&a.cov[0][0], &b.cov[0][0], 36, moments);
        compare(a.max_abs, b.max_abs, 4, moments);
        ++points;
    }
    CHECK_FALSE(gt.advance());
    ParticleState back(gs, MemSpace::host);
    ParticleView c = cs.view(), g = back.view();
    Difference coords;
    for (double* const* p : {&c.x, &c.px, &c.y, &c.py, &c.t, &c.pt}) {
        std::size_t const k = std::size_t(p - &c.x);
        compare(*p, *(&g.x + k), c.size, coords);
    }
    std::size_t flags = 0, lost = 0;
    for (size_type i = 0; i < c.size; ++i) {
        flags +=
            c.lost_element[i] != g.lost_element[i] || c.lost_turn[i] != g.lost_turn[i] || c.id[i] != g.id[i];
        lost += !c.alive(i);
    }
    MESSAGE(deck_path, ": ", points, " comparison points, ", c.size, " particles (", lost,
            " lost); coordinates "
            "differing: ",
            coords.differing, " (max rel ", coords.max_rel, "), moments differing: ", moments.differing,
            " (max rel ", moments.max_rel, ")");
    CHECK(points > 0);
    // The backends are built to agree bit for bit (no FMA, portable math, one reduction tree).
    CHECK(coords.differing == 0);
    CHECK(moments.differing == 0);
    CHECK(flags == 0);
}

}  // namespace

TEST_CASE("every element type: the GPU tracks every particle to the same bits as the CPU")
{
    check_deck("tests/data/every_element.toml", {"beam.macroparticles=200000"});
}

TEST_CASE("example decks: the same bits on the GPU and the CPU")
{
    check_deck("inputs/fodo.toml", {"beam.macroparticles=100000"});
    check_deck("inputs/fodo_ring.toml", {"beam.macroparticles=20000", "lattice.turns=20"});
    check_deck("inputs/chicane.toml", {"beam.macroparticles=100000"});
    check_deck("inputs/solenoid_linac.toml", {"beam.macroparticles=100000"});
}

TEST_CASE(
    "the linear FODO (linear-map switch, a misaligned quadrupole): the same bits on the GPU and the CPU")
{
    check_deck("inputs/fodo.toml",
               {"beam.macroparticles=100000", "elements.QFH.model=\"linear\"", "elements.QD.model=\"linear\"",
                "elements.D.model=\"linear\"", "elements.QD.dx=\"0.2 mm\"", "elements.QD.tilt=\"3 mrad\""});
}

TEST_CASE("on-axis field maps (profile solenoids and cavities): the same bits on the GPU and the CPU")
{
    check_deck("inputs/ion_linac.toml", {"beam.macroparticles=20000", "space_charge.enabled=false"});
    check_deck("inputs/photoinjector.toml", {"beam.macroparticles=20000", "space_charge.enabled=false"});
}

TEST_CASE("t-code (elements tracked in time): the same bits on the GPU and the CPU")
{
    // Every element that can be tracked in time, in time: hard-edge drift, quadrupole and solenoid
    // (Boris), profile solenoids (Boris) and cavities (RK4).
    check_deck("tests/data/tcode.toml", {"beam.macroparticles=100000"});
    check_deck("inputs/ion_linac.toml",
               {"beam.macroparticles=20000", "space_charge.enabled=false", "run.tracking=t"});
    check_deck("inputs/photoinjector.toml",
               {"beam.macroparticles=20000", "space_charge.enabled=false", "run.tracking=t"});
}

TEST_CASE("srotation (rolled bend and quadrupole, a misaligned roll): the same bits on the GPU and the CPU")
{
    check_deck("tests/data/srotation.toml", {"beam.macroparticles=100000"});
}

TEST_CASE("apertures with an open side and beam_shift (ELEGANT's OPEN_SIDE, MALIGN): the same bits")
{
    check_deck("tests/data/open_side.toml", {"beam.macroparticles=100000"});
}

TEST_CASE("bends with body multipoles and exact solenoids, with and without radiation: the same bits")
{
    check_deck("tests/data/bend_multipoles.toml", {"beam.macroparticles=100000"});
    check_deck("tests/data/bend_multipoles.toml", {"beam.macroparticles=50000", "beam.particle=\"electron\"",
                                                   "beam.kinetic_energy=\"5 GeV\"", "lattice.radiation=\"mean\""});
}

TEST_CASE("3D field maps (field_map elements), both layouts: the same bits on the GPU and the CPU")
{
    check_deck("inputs/fieldmap3d_linac.toml", {"beam.macroparticles=50000"});
    // The same maps tracked in time (t-code): the grid evaluator inside the time push.
    check_deck("inputs/fieldmap3d_linac.toml", {"beam.macroparticles=20000", "run.tracking=t"});
    check_deck("inputs/fieldmap3d_linac.toml", {"beam.macroparticles=50000", "elements.QF.layout=planar",
                                                "elements.QD.layout=planar", "elements.CAV.layout=planar"});
}

TEST_CASE("one-pass moments: the same bits on the GPU, centroid far off zero, losses, ragged sizes")
{
    for (size_type n : {size_type(1), size_type(2047), size_type(2049), size_type(1000003)}) {
        CAPTURE(n);
        ParticleState host(n, MemSpace::host);
        ParticleView v = host.view();
        for (size_type i = 0; i < n; ++i) {
            double const a = std::sin(0.731 * double(i)), b = std::cos(1.37 * double(i) + 0.2);
            double* z[6] = {v.x, v.px, v.y, v.py, v.t, v.pt};
            for (int k = 0; k < 6; ++k) z[k][i] = 1e-2 * (k + 1) + 1e-6 * (a + 0.3 * k * b);
            v.id[i] = i;
            v.lost_element[i] = i % 7 == 3 ? 5 : -1;
            v.lost_turn[i] = i % 7 == 3 ? 0 : -1;
        }
        ParticleState device(host, MemSpace::device);
        BeamMoments const a = make_cpu_beam_kernels()->moments(host.view());
        BeamMoments const b = make_cuda_beam_kernels()->moments(device.view());
        Difference d;
        compare(&a.alive, &b.alive, 1, d);
        compare(a.mean, b.mean, 6, d);
        compare(&a.cov[0][0], &b.cov[0][0], 36, d);
        compare(a.max_abs, b.max_abs, 4, d);
        CHECK(d.differing == 0);
    }
}

TEST_CASE(
    "classical synchrotron radiation (every magnet model radiating, fixed-reference cavities): the same "
    "bits on the GPU and the CPU")
{
    // 5 GeV electrons through every element type with [lattice] radiation = "mean": the radiating exact,
    // linear and combined-function bends, the three quadrupole models and the thick multipoles (the
    // optics_maps and all switches; a radiating linear quadrupole leaves the linear_maps switch).
    check_deck("tests/data/every_element.toml",
               {"beam.macroparticles=100000", "beam.particle=\"electron\"", "beam.kinetic_energy=\"5 GeV\"",
                "lattice.radiation=\"mean\""});
    check_deck("inputs/light_source_ring.toml", {"beam.macroparticles=20000", "lattice.turns=50"});
}

TEST_CASE(
    "quantum excitation (every radiating map drawing photons from its particle's stream): the same bits on "
    "the "
    "GPU and the CPU")
{
    // [lattice] radiation = "quantum": the Philox streams keyed by (seed, id, turn, entry) give each particle
    // the same photons on both backends (the photon kernels: TrackSegment with its clock, the switch without
    // integrators or all; the CPU's lanes).
    check_deck("tests/data/every_element.toml",
               {"beam.macroparticles=100000", "beam.particle=\"electron\"", "beam.kinetic_energy=\"5 GeV\"",
                "lattice.radiation=\"quantum\""});
    check_deck("inputs/light_source_ring.toml",
               {"beam.macroparticles=20000", "lattice.turns=50", "lattice.radiation=\"quantum\""});
}
