// gtrack optics against textbook results: a thin-lens FODO ring (tunes, beta, natural chromaticity),
// a drift line from [beam.twiss], and the errors of an unstable ring.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "Relative.hh"
#include "beam/Lattice.hh"
#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"
#include "optics/Optics.hh"
#include "optics/PeriodicTwiss.hh"
#include "run/BeamRun.hh"

namespace gt {
namespace {

//! N cells of QF (thin, knl1 = 1/f), drift L, QD (thin, -1/f), drift L; 2 GeV/c protons.
std::string fodo_deck(double f, double l, int cells, std::string const& twiss = "beta_x = 1.0\nbeta_y = 1.0")
{
    return fmt::format(R"([run]
name = "fodo"
[beam]
particle = "proton"
momentum = "2 GeV"
macroparticles = 10
[beam.twiss]
{}
emittance_x = 1e-9
emittance_y = 1e-9
[elements]
qf = {{ type = "multipole", knl = [0.0, {}] }}
qd = {{ type = "multipole", knl = [0.0, {}] }}
d = {{ type = "drift", length = {} }}
[lattice]
cell = ["qf", "d", "qd", "d"]
line = ["cell*{}"]
)",
                       twiss, 1.0 / f, -1.0 / f, l, cells);
}

optics::OpticsResult optics_of(std::string const& text, bool periodic)
{
    DeckConfig const deck = read_deck_text(text, "fodo.toml");
    Lattice const lattice = build_lattice(deck, initial_reference(deck));
    optics::OpticsOptions o;
    o.periodic = periodic;
    return optics::compute_optics(deck, lattice, o);
}

TEST_CASE("thin-lens FODO ring: tunes, beta and chromaticity from the textbook formulas")
{
    // Thin-lens FODO (Wiedemann, Particle Accelerator Physics, sec. 10.1; Wolski sec. 6.3): with
    // sin(mu/2) = L / (2 f), cell length Lc = 2 L: beta_max,min = Lc (1 +- sin(mu/2)) / sin(mu) at the
    // focusing and defocusing lens, and the natural chromaticity of a cell is -tan(mu/2) / pi.
    double const f = 2.5, l = 2.0;
    int const cells = 10;
    double const mu = 2.0 * std::asin(l / (2.0 * f));
    double const lc = 2.0 * l;
    double const beta_max = lc * (1.0 + std::sin(mu / 2)) / std::sin(mu);
    double const beta_min = lc * (1.0 - std::sin(mu / 2)) / std::sin(mu);
    auto const r = optics_of(fodo_deck(f, l, cells), true);
    // The maps are linear about the axis up to the exact drift's third order: the centred differences
    // (step 1e-6) leave ~1e-12; 1e-9 bounds it with room.
    CHECK(r.tune_x == test::relative(cells * mu / (2 * constants::pi), 1e-9));
    CHECK(r.tune_y == test::relative(cells * mu / (2 * constants::pi), 1e-9));
    CHECK(r.tune_x > 1.0);  // the integer part comes from the phase advance
    REQUIRE(r.rows.size() == 1 + 4 * cells);
    CHECK(r.rows[0].beta_x == test::relative(beta_max, 1e-9));
    CHECK(r.rows[0].beta_y == test::relative(beta_min, 1e-9));
    CHECK(r.rows[2].beta_x == test::relative(beta_min, 1e-9));  // exit of qd
    CHECK(r.rows[2].beta_y == test::relative(beta_max, 1e-9));
    CHECK(r.rows[4 * cells].beta_x == test::relative(beta_max, 1e-9));  // periodic
    CHECK(r.rows[4 * cells].mu_x == test::relative(r.tune_x, 1e-12));
    CHECK(r.rows[0].d_x == 0.0);  // no bend, no dispersion
    CHECK_FALSE(r.coupled);
    // Chromaticity: thin kicks on the canonical px with exact drifts x' = px / (1 + delta) are thin lenses
    // of strength 1 / (f (1 + delta)); five-point stencil in delta (step 1e-4): ~1e-8 relative.
    double const xi = -cells * std::tan(mu / 2) / constants::pi;
    CHECK(r.chroma_x == test::relative(xi, 1e-6));
    CHECK(r.chroma_y == test::relative(xi, 1e-6));
    // No bends: the path length depends on the momentum only through the speed, eta = -1/gamma^2
    // (alpha_c = 0 up to the second-order path lengthening of the betatron motion, absent at the axis).
    CHECK(r.momentum_compaction == test::absolute(0.0, 1e-12));
    CHECK(r.slip_factor == test::relative(-1.0 / (r.gamma * r.gamma), 1e-8));
}

TEST_CASE("a line takes its start from [beam.twiss]: beta(s) = beta0 - 2 alpha0 s + gamma0 s^2 in a drift")
{
    double const b0 = 3.0, a0 = 0.5, l = 2.0;
    std::string const text = fodo_deck(1e9, l, 1, "beta_x = 3.0\nalpha_x = 0.5\nbeta_y = 3.0\nalpha_y = 0.5");
    auto const r = optics_of(text, false);
    double const g0 = (1 + a0 * a0) / b0;
    // Row 2 is the exit of the first drift (the lenses of 1e-9 1/m change beta by ~1e-8 relative).
    double const s = l;
    CHECK(r.rows[2].beta_x == test::relative(b0 - 2 * a0 * s + g0 * s * s, 1e-7));
    CHECK(r.rows[2].alpha_x == test::relative(a0 - g0 * s, 1e-7));
    CHECK(r.rows[2].mu_x == test::relative(std::atan2(s, b0 - a0 * s) / (2 * constants::pi), 1e-7));
}

TEST_CASE("synchrotron tune of a ring with a thin cavity at the zero crossing")
{
    // Linear one-turn map of (t, pt): the ring t += b pt with b = L / (beta gamma)^2 (drifts and thin
    // lenses on the axis), then the cavity at phase -90 deg pt -= a t with a = |q| V / (p c) 2 pi f / c
    // (RfCavity.hh): cos(2 pi Qs) = 1 - a b / 2 (stable below transition, eta = -1/gamma^2 < 0).
    double const f_lens = 2.5, l = 2.0, volts = 2e5;
    int const cells = 10;
    std::string text = fodo_deck(f_lens, l, cells);
    double const length = 2 * l * cells;
    ReferenceParticle const ref = initial_reference(read_deck_text(text, "fodo.toml"));
    double const frequency = 8 * ref.beta * constants::c_light / length;  // harmonic 8
    text.replace(
        text.find("[lattice]"), 9,
        fmt::format("rf = {{ type = \"rfcavity\", voltage = {}, frequency = {}, phase = -90.0 }}\n[lattice]",
                    volts, frequency));
    text.replace(text.find("line = [\"cell*10\"]"), 18, "line = [\"cell*10\", \"rf\"]");
    auto const r = optics_of(text, true);
    double const a = volts * 1e-6 / ref.pc_mev * constants::two_pi * frequency / constants::c_light;
    double const b = length / (ref.beta_gamma * ref.beta_gamma);
    REQUIRE(r.synchrotron_tune.has_value());
    // Differences of a map linear in (t, pt) up to the cavity's cosine: ~1e-10 relative to Qs ~ 1e-3.
    CHECK(*r.synchrotron_tune == test::relative(std::acos(1 - a * b / 2) / constants::two_pi, 1e-7));
    CHECK(r.rf_on);
    double const mu = 2.0 * std::asin(l / (2.0 * f_lens));
    CHECK(r.tune_x == test::relative(cells * mu / (2 * constants::pi), 1e-9));
}

TEST_CASE("[beam.twiss] periodic = true takes beta and alpha from the ring")
{
    double const f = 2.5, l = 2.0;
    std::string const text = fodo_deck(f, l, 10, "periodic = true");
    // The reader records it; the beam is made from the ring's periodic solution
    // (optics::with_periodic_twiss).
    DeckConfig const deck = read_deck_text(text, "fodo.toml");
    CHECK(deck.beam.periodic);
    BeamConfig const beam = optics::with_periodic_twiss(deck);
    CHECK_FALSE(beam.periodic);
    double const mu = 2.0 * std::asin(l / (2.0 * f));
    CHECK(beam.x.beta == test::relative(2 * l * (1 + std::sin(mu / 2)) / std::sin(mu), 1e-9));
    CHECK(beam.y.beta == test::relative(2 * l * (1 - std::sin(mu / 2)) / std::sin(mu), 1e-9));
    CHECK_FALSE(beam.sigma_matrix.has_value());  // no dispersion at the start
    // Any other beam comes back as it is.
    DeckConfig const given = read_deck_text(fodo_deck(f, l, 10), "fodo.toml");
    CHECK(optics::with_periodic_twiss(given).x.beta == 1.0);
    // beta given as well: refused by the reader, naming the key.
    std::string message;
    try {
        read_deck_text(fodo_deck(f, l, 10, "periodic = true\nbeta_x = 2.0"), "fodo.toml");
    } catch (DeckError const& e) {
        message = e.what();
    }
    CHECK(message.find("beta_x") != std::string::npos);
    // An unstable ring: a deck error at beam.twiss.periodic where the beam is made.
    message.clear();
    DeckConfig const unstable = read_deck_text(fodo_deck(0.9, l, 4, "periodic = true"), "fodo.toml");
    try {
        optics::with_periodic_twiss(unstable);
    } catch (DeckError const& e) {
        message = e.what();
    }
    CHECK(message.find("beam.twiss.periodic") != std::string::npos);
    CHECK(message.find("no periodic solution in the x plane") != std::string::npos);
}

TEST_CASE("periodic = true: the run's initial beam is the beam of the ring's beta and alpha, bit for bit")
{
    double const f = 2.5, l = 2.0;
    DeckConfig const periodic = read_deck_text(fodo_deck(f, l, 10, "periodic = true"), "fodo.toml");
    BeamConfig const b = optics::with_periodic_twiss(periodic);
    DeckConfig const explicit_twiss = read_deck_text(
        fodo_deck(f, l, 10,
                  fmt::format("beta_x = {:.17g}\nalpha_x = {:.17g}\nbeta_y = {:.17g}\nalpha_y = {:.17g}",
                              b.x.beta, b.x.alpha, b.y.beta, b.y.alpha)),
        "fodo.toml");
    auto kernels = make_cpu_beam_kernels();
    ParticleState a = initial_beam(periodic, *kernels);
    ParticleState c = initial_beam(explicit_twiss, *kernels);
    REQUIRE(a.size() == 10);
    ParticleView const va = a.view(), vc = c.view();
    for (size_type i = 0; i < va.size; ++i) {
        CHECK(va.x[i] == vc.x[i]);
        CHECK(va.px[i] == vc.px[i]);
        CHECK(va.y[i] == vc.y[i]);
        CHECK(va.py[i] == vc.py[i]);
    }
    CHECK(va.x[0] != 0.0);
}

TEST_CASE("periodic = true with dispersion at the start: x correlated with pt as D says")
{
    // The FODO ring with a sector bend after each drift: dispersion everywhere. The beam's <x pt> / <pt pt>
    // must be dx/dpt = D / (-beta) of the ring's periodic solution at the start (PeriodicTwiss.cc).
    std::string text = fodo_deck(2.5, 2.0, 10, "periodic = true\nsigma_pt = 1e-3\nsigma_t = 0.01");
    text.replace(text.find("[lattice]"), 9,
                 "b = { type = \"sbend\", length = 1.0, angle = 0.3141592653589793 }\n[lattice]");
    text.replace(text.find("cell = [\"qf\", \"d\", \"qd\", \"d\"]"), 29,
                 "cell = [\"qf\", \"d\", \"b\", \"qd\", \"d\", \"b\"]");
    BeamConfig const beam = optics::with_periodic_twiss(read_deck_text(text, "fodo.toml"));
    REQUIRE(beam.sigma_matrix.has_value());
    auto const& m = *beam.sigma_matrix;
    auto const r = optics_of(text, true);
    double const d_pt = r.rows[0].d_x / -r.beta;
    CHECK(std::abs(r.rows[0].d_x) > 0.1);
    CHECK(m[5] / m[35] == test::relative(d_pt, 1e-12));  // <x pt> / <pt pt>
    CHECK(beam.x.beta == test::relative(r.rows[0].beta_x, 1e-12));
    // <x x> = eps beta + D^2 sigma_pt^2 (dispersion adds to the betatron size)
    CHECK(m[0] == test::relative(1e-9 * r.rows[0].beta_x + d_pt * d_pt * m[35], 1e-12));
}

TEST_CASE("an unstable ring is refused, naming the plane")
{
    // f < L / 2: |cos mu| = |1 - L^2 / (2 f^2)| > 1 in both planes; x is found first.
    std::string message;
    try {
        optics_of(fodo_deck(0.9, 2.0, 4), true);
    } catch (std::exception const& e) {
        message = e.what();
    }
    CHECK(message.find("no periodic solution in the x plane") != std::string::npos);
}

}  // namespace
}  // namespace gt
