// Beam-level physics through the real path (deck text -> lattice -> CPU backend -> tracker):
// FODO Twiss functions from moments, ring tunes from turn-by-turn centroids, aperture losses.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "Relative.hh"
#include "beam/BeamStatistics.hh"
#include "beam/Lattice.hh"
#include "deck/DeckReader.hh"
#include "kernels/beam/BeamKernels.hh"
#include "run/BeamRun.hh"
#include "run/BeamTracker.hh"

using namespace gt;

namespace {

using M2 = std::array<double, 4>;  // row-major 2x2

M2 mul(M2 const& a, M2 const& b)
{
    return {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
            a[2] * b[1] + a[3] * b[3]};
}
M2 drift(double l) { return {1, l, 0, 1}; }
//! Thick quadrupole, k > 0 focusing in this plane (textbook, e.g. Wiedemann eq. 7.61).
M2 quad(double k, double l)
{
    if (k > 0) {
        double const r = std::sqrt(k), c = std::cos(r * l), s = std::sin(r * l);
        return {c, s / r, -r * s, c};
    }
    double const r = std::sqrt(-k), c = std::cosh(r * l), s = std::sinh(r * l);
    return {c, s / r, r * s, c};
}
//! Sector bend body, bending plane (pole faces normal to the orbit: no edge focusing).
M2 sbend(double angle, double l)
{
    double const rho = l / angle;
    return {std::cos(angle), rho * std::sin(angle), -std::sin(angle) / rho, std::cos(angle)};
}

struct Twiss {
    double beta, alpha;
};
//! The periodic solution of a one-period matrix (Courant-Snyder): cos mu = tr M / 2, beta = M12 / sin mu.
Twiss periodic(M2 const& m, double& mu)
{
    double const cos_mu = 0.5 * (m[0] + m[3]);
    REQUIRE(std::abs(cos_mu) < 1.0);
    double sin_mu = std::sqrt(1 - cos_mu * cos_mu);
    if (m[1] < 0) sin_mu = -sin_mu;
    mu = std::atan2(sin_mu, cos_mu);
    return {m[1] / sin_mu, (m[0] - m[3]) / (2 * sin_mu)};
}
//! beta after transport by m (Twiss transport with gamma = (1 + alpha^2) / beta).
Twiss transport(Twiss const& t, M2 const& m)
{
    double const g = (1 + t.alpha * t.alpha) / t.beta;
    double const beta = m[0] * m[0] * t.beta - 2 * m[0] * m[1] * t.alpha + m[1] * m[1] * g;
    double const alpha = -m[0] * m[2] * t.beta + (m[0] * m[3] + m[1] * m[2]) * t.alpha - m[1] * m[3] * g;
    return {beta, alpha};
}

struct Setup {
    DeckConfig deck;
    Lattice lattice;
    std::unique_ptr<BeamKernels> kernels = make_cpu_beam_kernels();
    ParticleState state;

    explicit Setup(std::string const& text)
        : deck(read_deck_text(text, "test.toml")), lattice(build_lattice(deck, initial_reference(deck)))
    {
        state = initial_beam(deck, *kernels);
        kernels->set_elements(lattice.elements, *lattice.field_data);
    }
};

}  // namespace

TEST_CASE("FODO: Twiss functions from tracked beam moments match the analytic periodic solution")
{
    double const k = 1.2, lq = 0.5, ld = 2.0;
    // One cell from the centre of QF: QF/2, D, QD, D, QF/2.
    M2 const half_f = quad(k, lq / 2), full_d = quad(-k, lq), dr = drift(ld);
    M2 const half_d_y = quad(-k, lq / 2), full_f_y = quad(k, lq);
    M2 const mx = mul(half_f, mul(dr, mul(full_d, mul(dr, half_f))));
    M2 const my = mul(half_d_y, mul(dr, mul(full_f_y, mul(dr, half_d_y))));
    double mux = 0, muy = 0;
    Twiss const tx = periodic(mx, mux), ty = periodic(my, muy);
    CHECK(tx.alpha == test::absolute(0, 1e-12));  // symmetric cell

    // sigma_pt = 0: no chromatic smearing, so the moments follow the linear optics exactly.
    std::string const text = fmt::format(R"(
[beam]
particle = "proton"
kinetic_energy = 250
macroparticles = 100_000
[beam.twiss]
beta_x = {:.17g}
beta_y = {:.17g}
emittance_x = 1e-6
emittance_y = 2e-6
sigma_t = 1e-3
[elements]
QFH = {{ type = "quadrupole", length = 0.25, k1 = 1.2 }}
QD = {{ type = "quadrupole", length = 0.5, k1 = -1.2 }}
D = {{ type = "drift", length = 2.0 }}
[lattice]
line = ["QFH", "D", "QD", "D", "QFH", "QFH", "D", "QD", "D", "QFH"]
[output]
stats = "every_element"
)",
                                         tx.beta, ty.beta);
    Setup s(text);
    BeamTracker tracker(s.lattice, s.deck.output, 1, *s.kernels, s.state.view());
    // Expected Twiss after each entry: transport through the entries so far.
    std::vector<std::pair<M2, M2>> steps = {
        {half_f, half_d_y}, {dr, dr}, {full_d, full_f_y}, {dr, dr}, {half_f, half_d_y}};
    Twiss ex = tx, ey = ty;
    double worst = 0;
    int points = 0;
    while (tracker.advance()) {
        OutputPoint const& p = tracker.point();
        if (!p.stats || p.entry < 0) continue;
        auto const& step = steps[std::size_t(p.entry) % steps.size()];
        ex = transport(ex, step.first);
        ey = transport(ey, step.second);
        BeamStatistics const st =
            derive_statistics(s.kernels->moments(s.state.view()), s.lattice.reference_after[0]);
        worst = std::max({worst, std::abs(st.beta[0] / ex.beta - 1), std::abs(st.beta[1] / ey.beta - 1)});
        ++points;
    }
    CHECK(points == 10);
    // After a full cell the beam is back at the periodic solution.
    CHECK(ex.beta == test::relative(tx.beta, 1e-12));
    // A sample of N Gaussian particles estimates beta with a relative standard error of about
    // 1/sqrt(N) = 0.3% (the beam is linear-transported, so the error is one draw, not a random walk
    // along the cell); the issue's 0.5% bound is met by this seed (seen: 0.34%).
    MESSAGE("worst relative beta error: ", worst);
    CHECK(worst < 5e-3);
}

TEST_CASE("ring: tunes from the turn-by-turn centroid match the analytic one-turn phase advance")
{
    // inputs/fodo_ring.toml's optics without sextupole strength, tracked for 1024 turns.
    double const k = 0.68, theta = 22.5 * M_PI / 180;
    M2 const qfh = quad(k, 0.25), qd = quad(-k, 0.5), d = drift(0.5), s = drift(0.2), b = sbend(theta, 2.0);
    M2 const qfh_y = quad(-k, 0.25), qd_y = quad(k, 0.5), b_y = drift(2.0);
    // cell = QFH SF D B D QD SD D B D QFH (first element rightmost in the product)
    auto cell = [&](M2 f, M2 dq, M2 bend) {
        M2 m = f;
        for (M2 const& e : {s, d, bend, d, dq, s, d, bend, d, f}) m = mul(e, m);
        return m;
    };
    M2 mx = cell(qfh, qd, b), my = cell(qfh_y, qd_y, b_y);
    M2 ringx = {1, 0, 0, 1}, ringy = {1, 0, 0, 1};
    for (int c = 0; c < 8; ++c) {
        ringx = mul(mx, ringx);
        ringy = mul(my, ringy);
    }
    double mux = 0, muy = 0;
    periodic(ringx, mux);
    periodic(ringy, muy);
    auto frac = [](double mu) {
        double q = mu / (2 * M_PI);
        q -= std::floor(q);
        return q > 0.5 ? 1 - q : q;  // a real signal shows the tune folded into [0, 0.5]
    };

    int const turns = 1024;
    std::string const text = fmt::format(R"(
[beam]
particle = "proton"
kinetic_energy = "1 GeV"
macroparticles = 64
[beam.twiss]
beta_x = 9.9
beta_y = 3.2
emittance_x = 1e-12
emittance_y = 1e-12
[elements]
QFH = {{ type = "quadrupole", length = "25 cm", k1 = 0.68 }}
QD  = {{ type = "quadrupole", length = "50 cm", k1 = -0.68 }}
SF  = {{ type = "sextupole", length = "20 cm", k2 = 0.0 }}
SD  = {{ type = "sextupole", length = "20 cm", k2 = 0.0 }}
B   = {{ type = "sbend", length = 2.0, angle = "22.5 deg" }}
D   = {{ type = "drift", length = "50 cm" }}
[lattice]
cell = ["QFH", "SF", "D", "B", "D", "QD", "SD", "D", "B", "D", "QFH"]
ring = ["cell*8"]
turns = {}
[output]
stats = "turn"
)",
                                         turns);
    Setup st(text);
    // Displace the whole (tiny) beam: the centroid then oscillates at the betatron tunes.
    ParticleView v = st.state.view();
    for (size_type i = 0; i < v.size; ++i) {
        v.x[i] += 1e-4;
        v.y[i] += 1e-4;
    }
    BeamTracker tracker(st.lattice, st.deck.output, turns, *st.kernels, v);
    std::vector<double> xs, ys;
    while (tracker.advance()) {
        BeamMoments const m = st.kernels->moments(v);
        xs.push_back(m.mean[0]);
        ys.push_back(m.mean[2]);
    }
    REQUIRE(xs.size() == std::size_t(turns));
    // Hann-windowed DFT amplitude, maximized by golden section around the coarse peak: the peak
    // position is accurate to ~1e-6 for a pure tone over 1024 turns.
    auto tune = [&](std::vector<double> const& z) {
        auto amp = [&](double q) {
            std::complex<double> acc = 0;
            for (int n = 0; n < turns; ++n) {
                double const w = 0.5 * (1 - std::cos(2 * M_PI * n / (turns - 1)));
                acc += w * z[std::size_t(n)] * std::polar(1.0, -2 * M_PI * q * n);
            }
            return std::abs(acc);
        };
        double best = 0, best_q = 0;
        for (int j = 1; j < turns / 2; ++j)
            if (double a = amp(double(j) / turns); a > best) best = a, best_q = double(j) / turns;
        double lo = best_q - 1.0 / turns, hi = best_q + 1.0 / turns;
        for (int it = 0; it < 60; ++it) {
            double const m1 = lo + 0.382 * (hi - lo), m2 = lo + 0.618 * (hi - lo);
            (amp(m1) > amp(m2) ? hi : lo) = amp(m1) > amp(m2) ? m2 : m1;
        }
        return 0.5 * (lo + hi);
    };
    double const qx = tune(xs), qy = tune(ys);
    MESSAGE("fractional tunes: tracked ", qx, ", ", qy, "; analytic ", frac(mux), ", ", frac(muy));
    // 1e-4: well above the ~1e-6 resolution of the interpolated DFT, far below a wrong optic
    // (a 1% error in k1 moves these tunes by ~1e-2).
    CHECK(std::abs(qx - frac(mux)) < 1e-4);
    CHECK(std::abs(qy - frac(muy)) < 1e-4);
}

TEST_CASE("aperture: the lost fraction of a Gaussian beam is the analytic one, and losses are recorded")
{
    // A round Gaussian beam (sigma = sqrt(beta eps) = 1 mm) meets an ellipse of a sigma x a sigma:
    // P(r^2/sigma^2 > a^2) = exp(-a^2/2) for a 2D Gaussian; a rectangle loses 1 - erf(a/sqrt 2)^2.
    double const a = 1.5;
    std::string const text = R"(
[beam]
particle = "electron"
kinetic_energy = 100
macroparticles = 100_000
[beam.twiss]
beta_x = 1.0
beta_y = 1.0
emittance_x = 1e-6
emittance_y = 1e-6
[elements]
E = { type = "aperture", shape = "ellipse", half_x = "1.5 mm", half_y = "1.5 mm" }
R = { type = "aperture", shape = "rectangle", half_x = "1.5 mm", half_y = "1.5 mm" }
[lattice]
line = ["E"]
[output]
stats = "every_element"
)";
    for (std::string shape : {"E", "R"}) {
        CAPTURE(shape);
        std::string t = text;
        t.replace(t.find("line = [\"E\"]"), 12, "line = [\"" + shape + "\"]");
        Setup s(t);
        BeamTracker tracker(s.lattice, s.deck.output, 1, *s.kernels, s.state.view());
        while (tracker.advance()) {
        }
        BeamMoments const m = s.kernels->moments(s.state.view());
        double const n = 100000, lost = n - m.alive;
        double const p = shape == "E" ? std::exp(-a * a / 2) : 1 - std::pow(std::erf(a / std::sqrt(2.0)), 2);
        // Binomial standard deviation sqrt(p (1 - p) / N) = 0.15%: allow 4 of them.
        CHECK(std::abs(lost / n - p) < 4 * std::sqrt(p * (1 - p) / n));
        // Every lost particle records the element; every survivor is inside.
        ParticleView v = s.state.view();
        std::size_t recorded = 0, outside = 0;
        for (size_type i = 0; i < v.size; ++i) {
            if (v.alive(i)) {
                double const rx = v.x[i] / 1.5e-3, ry = v.y[i] / 1.5e-3;
                outside += shape == "E" ? rx * rx + ry * ry > 1 : std::abs(rx) > 1 || std::abs(ry) > 1;
            } else {
                recorded += v.lost_element[i] == 0 && v.lost_turn[i] == 0;
            }
        }
        CHECK(outside == 0);
        CHECK(double(recorded) == lost);
        CHECK(m.max_abs[0] <= 1.5e-3);  // statistics see only the survivors
    }
}
