// A KV beam matched with space charge in a FODO channel: the tracked rms envelope against the KV
// envelope equations, integrated independently here (Reiser, Theory and Design of Charged Particle
// Beams, 2nd ed., eq. 4.87), through the real run (deck -> 2.5D space-charge kicks -> statistics).
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "IoTestSupport.hh"
#include "deck/DeckReader.hh"
#include "io/TableWriter.hh"
#include "kernels/core/Types.hh"
#include "run/BeamRun.hh"

using namespace gt;
using namespace gt::test;

namespace {

using Envelope = std::array<double, 4>;  // X, X', Y, Y' with X = 2 sigma_x (the KV edge)

struct Channel {
    double k1, lq, ld;  //!< quadrupole gradient [1/m^2], full quadrupole and drift lengths [m]
    double perveance;   //!< generalized perveance K = q lambda / (2 pi eps0 m c^2 beta^2 gamma^3)
    double emittance;   //!< edge emittance 4 eps_rms [m rad], both planes

    //! Focusing kappa_x at s (kappa_y = -kappa_x): the cell is QF/2, D, QD, D, QF/2.
    double kappa(double s) const
    {
        double const cell = 2 * lq + 2 * ld;
        double u = std::fmod(s, cell);
        if (u < lq / 2) return k1;
        if (u < lq / 2 + ld) return 0;
        if (u < 3 * lq / 2 + ld) return -k1;
        if (u < 3 * lq / 2 + 2 * ld) return 0;
        return k1;
    }
    //! The edges where kappa jumps, so that no integration step straddles one.
    double next_edge(double s) const
    {
        double const cell = 2 * lq + 2 * ld;
        double const base = std::floor(s / cell) * cell;
        for (double e : {lq / 2, lq / 2 + ld, 3 * lq / 2 + ld, 3 * lq / 2 + 2 * ld, cell})
            if (base + e > s + 1e-12) return base + e;
        return base + cell;
    }
    Envelope rhs(Envelope const& y, double k) const
    {
        double const sc = 2 * perveance / (y[0] + y[2]);
        double const e2 = emittance * emittance;
        return {y[1], -k * y[0] + sc + e2 / (y[0] * y[0] * y[0]), y[3],
                k * y[2] + sc + e2 / (y[2] * y[2] * y[2])};
    }
    //! RK4 from s0 to s1 in steps of at most 0.5 mm that never cross an edge.
    Envelope advance(Envelope y, double s0, double s1) const
    {
        double s = s0;
        while (s < s1 - 1e-13) {
            double const end = std::min(s1, next_edge(s));
            int const n = std::max(1, int(std::ceil((end - s) / 5e-4)));
            double const h = (end - s) / n;
            double const k = kappa(0.5 * (s + end));
            for (int i = 0; i < n; ++i) {
                auto add = [](Envelope a, Envelope const& b, double f) {
                    for (int j = 0; j < 4; ++j) a[j] += f * b[j];
                    return a;
                };
                Envelope const a = rhs(y, k), b = rhs(add(y, a, h / 2), k), c = rhs(add(y, b, h / 2), k),
                               d = rhs(add(y, c, h), k);
                for (int j = 0; j < 4; ++j) y[j] += h / 6 * (a[j] + 2 * b[j] + 2 * c[j] + d[j]);
            }
            s = end;
        }
        return y;
    }
};

}  // namespace

TEST_CASE("KV beam matched with space charge in a FODO channel: the rms envelope follows the KV equations")
{
    // 10 MeV protons, 1 nC spread uniformly over c dt in [-sqrt3, sqrt3] x 0.5 m: a long bunch whose
    // line density lambda = Q / (2 sqrt3 beta sigma_t) is what the KV equations call a coasting beam.
    double const mp = constants::proton_mass_mev, kin = 10.0;
    double const gamma = 1 + kin / mp, beta_gamma = std::sqrt(kin * (kin + 2 * mp)) / mp;
    double const beta = beta_gamma / gamma;
    double const charge = 1e-9, sigma_t = 0.5;
    double const lambda = charge / (2 * std::sqrt(3.0) * beta * sigma_t);  // [C/m]
    double const mc2 = mp * 1e6 * constants::e_charge;                     // [J]
    Channel ch{12.0, 0.2, 0.4, 0, 4e-6};
    ch.perveance = constants::e_charge * lambda /
                   (2 * constants::pi * constants::eps0 * mc2 * beta * beta * gamma * gamma * gamma);

    // The matched envelope at the centre of QF (X' = Y' = 0 by symmetry): Newton on X, Y such that
    // one cell maps them onto themselves.
    double const cell = 2 * ch.lq + 2 * ch.ld;
    Envelope y0{3e-3, 0, 1.7e-3, 0};
    for (int it = 0; it < 20; ++it) {
        auto residual = [&](Envelope const& y) {
            Envelope const e = ch.advance(y, 0, cell);
            return std::array<double, 2>{e[0] - y[0], e[2] - y[2]};
        };
        auto const f = residual(y0);
        double j[2][2];
        for (int c = 0; c < 2; ++c) {
            Envelope d = y0;
            d[2 * c] += 1e-9;
            auto const fd = residual(d);
            j[0][c] = (fd[0] - f[0]) / 1e-9;
            j[1][c] = (fd[1] - f[1]) / 1e-9;
        }
        double const det = j[0][0] * j[1][1] - j[0][1] * j[1][0];
        y0[0] -= (j[1][1] * f[0] - j[0][1] * f[1]) / det;
        y0[2] -= (-j[1][0] * f[0] + j[0][0] * f[1]) / det;
    }
    Envelope const back = ch.advance(y0, 0, cell);
    REQUIRE(std::abs(back[0] / y0[0] - 1) < 1e-9);
    REQUIRE(std::abs(back[1]) < 1e-9);

    // Space charge is strong here: the zero-current phase advance of 79 deg per cell is depressed to
    // about 54 deg (tune depression 0.68), so a solver error of a few percent in the force shows.
    double const eps_rms = ch.emittance / 4;
    std::string const deck = fmt::format(R"(
[run]
seed = 11
[beam]
particle = "proton"
kinetic_energy = {}
bunch_charge = "1 nC"
macroparticles = 100_000
distribution = "kv"
[beam.twiss]
beta_x = {:.17g}
beta_y = {:.17g}
emittance_x = {:.17g}
emittance_y = {:.17g}
sigma_t = {}
[elements]
QFH = {{ type = "quadrupole", length = 0.1, k1 = 12.0 }}
QD = {{ type = "quadrupole", length = 0.2, k1 = -12.0 }}
D = {{ type = "drift", length = 0.4 }}
[lattice]
cell = ["QFH", "D", "QD", "D", "QFH"]
line = ["cell*4"]
[space_charge]
enabled = true
solver = "2.5d"
grid = [64, 64, 128]
kicks_per_meter = 50
[output]
stats = "every_slice"
phase_space = []
)",
                                         kin, y0[0] * y0[0] / ch.emittance, y0[2] * y0[2] / ch.emittance,
                                         eps_rms, eps_rms, sigma_t);
    TempDir dir;
    RunOptions opt;
    opt.backend = "cpu";
    opt.quiet = true;
    opt.output = dir.file("kv.h5");
    REQUIRE(run_beamline(read_deck_text(deck, "kv.toml"), opt) == 0);
    Table const stats = read_table(dir.file("kv.h5"), "stats");
    auto const& s = stats.doubles("s");
    auto const& sx = stats.doubles("sigma_x");
    auto const& sy = stats.doubles("sigma_y");
    REQUIRE(s.size() > 100);

    Envelope y = y0;
    double at = 0, worst = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        y = ch.advance(y, at, s[i]);
        at = s[i];
        worst = std::max({worst, std::abs(sx[i] / (y[0] / 2) - 1), std::abs(sy[i] / (y[2] / 2) - 1)});
    }
    MESSAGE("KV envelope, 4 cells, ", s.size(), " points: worst relative deviation of sigma_x, sigma_y ",
            worst);
    // 1%: the issue's bound; seen 0.35%. The deviation is a slow beating set by the bunch ends: the
    // particles within one line-density plane of each end see less charge, so the beam as a whole
    // is slightly under-focused; it scales with 1 / grid[2] (0.96% with 32 planes, 0.35% with 128),
    // while 4x more particles or a 128 x 128 transverse grid change it by < 0.1%.
    CHECK(worst < 0.01);
    // Without space charge the same beam is far from matched: the test can tell the difference.
    Channel bare = ch;
    bare.perveance = 0;
    Envelope z = y0;
    double at0 = 0, mismatch = 0;
    for (double si : s) {
        z = bare.advance(z, at0, si);
        at0 = si;
    }
    mismatch = std::abs(z[0] / y[0] - 1);
    CHECK(mismatch > 0.05);
}
