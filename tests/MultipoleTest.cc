// Thin multipole against hand-computed kicks (and as a thin bend against its thin-lens kick and MAD-X's map);
// thick sextupole and octupole against their Hamiltonian.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "ElementTestSupport.hh"
#include "Relative.hh"
#include "kernels/elements/Multipole.hh"
#include "kernels/elements/ThickMultipole.hh"

using namespace gt;
using namespace gt::test;

namespace {
Multipole make(std::vector<double> const& knl, std::vector<double> const& ksl)
{
    return Multipole::make(knl.data(), static_cast<int>(knl.size()), ksl.data(),
                           static_cast<int>(ksl.size()));
}
}  // namespace

TEST_CASE("thin multipole kicks: dipole, quadrupole, sextupole, octupole, normal and skew")
{
    double const x = 3e-3, y = -2e-3;
    auto kick = [&](Multipole const& m) {
        Particle p{x, 0.0, y, 0.0, 0.0, 0.0};
        REQUIRE(m(p));
        CHECK(p.x == x);
        CHECK(p.y == y);
        return std::pair{p.px, p.py};
    };
    // MAD-X: px -= Re sum (knl + i ksl)(x + iy)^n/n!, py += Im sum ...; by hand for each term:
    auto [px0, py0] = kick(make({1e-3}, {}));  // dipole: px -= knl0
    CHECK(rel_diff(px0, -1e-3) <= 1e-15);
    CHECK(py0 == 0.0);
    auto [px1, py1] = kick(make({0.0, 0.7}, {}));  // normal quadrupole: px -= k1L x, py += k1L y
    CHECK(rel_diff(px1, -0.7 * x) <= 1e-15);
    CHECK(rel_diff(py1, 0.7 * y) <= 1e-15);
    auto [px2, py2] = kick(make({0.0, 0.0, 40.0}, {}));  // sextupole: -k2L (x^2 - y^2)/2, +k2L x y
    CHECK(rel_diff(px2, -40.0 * (x * x - y * y) / 2.0) <= 1e-14);
    CHECK(rel_diff(py2, 40.0 * x * y) <= 1e-14);
    auto [px3, py3] =
        kick(make({0.0, 0.0, 0.0, 900.0}, {}));  // octupole: (x^3 - 3 x y^2)/6, (3 x^2 y - y^3)/6
    CHECK(rel_diff(px3, -900.0 * (x * x * x - 3 * x * y * y) / 6.0) <= 1e-14);
    CHECK(rel_diff(py3, 900.0 * (3 * x * x * y - y * y * y) / 6.0) <= 1e-14);
    auto [pxs1, pys1] = kick(make({}, {0.0, 0.5}));  // skew quadrupole: px += ksl1 y, py += ksl1 x
    CHECK(rel_diff(pxs1, 0.5 * y) <= 1e-15);
    CHECK(rel_diff(pys1, 0.5 * x) <= 1e-15);
    auto [pxs2, pys2] = kick(make({}, {0.0, 0.0, 30.0}));  // skew sextupole: px += k x y, py += k (x^2-y^2)/2
    CHECK(rel_diff(pxs2, 30.0 * x * y) <= 1e-14);
    CHECK(rel_diff(pys2, 30.0 * (x * x - y * y) / 2.0) <= 1e-14);
    // All at once: the kicks add.
    auto [pxa, pya] = kick(make({1e-3, 0.7, 40.0, 900.0}, {0.0, 0.5, 30.0}));
    CHECK(rel_diff(pxa, px0 + px1 + px2 + px3 + pxs1 + pxs2) <= 1e-14);
    CHECK(rel_diff(pya, py0 + py1 + py2 + py3 + pys1 + pys2) <= 1e-14);
}

TEST_CASE("thin multipole of order 20 and the empty multipole")
{
    std::vector<double> knl(21, 0.0);
    knl[20] = 1e30;
    Multipole const m = make(knl, {});
    CHECK(m.terms == 21);
    Particle p{0.1, 0.0, 0.0, 0.0, 0.0, 0.0};
    REQUIRE(m(p));
    CHECK(rel_diff(p.px, -1e30 * std::pow(0.1, 20) / std::tgamma(21.0)) <= 1e-13);
    CHECK(p.py == 0.0);
    Multipole const none = make({0.0, 0.0}, {});
    CHECK(none.terms == 0);
    Particle q{0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
    REQUIRE(none(q));
    CHECK(to_vec(q) == Vec6{0.1, 0.2, 0.3, 0.4, 0.5, 0.6});
}

namespace {
//! Hamilton's equations with the exact drift and a single multipole of order n (n = 2: sextupole,
//! V = k2 (x^3 - 3 x y^2)/6; n = 3: octupole, V = k3 (x^4 - 6 x^2 y^2 + y^4)/24), written out.
Vec6 thick_rhs(Vec6 const& z, int order, double k, double ib)
{
    double const x = z[0], y = z[2], pt = z[5];
    double const pz = std::sqrt(1.0 - 2.0 * pt * ib + pt * pt - z[1] * z[1] - z[3] * z[3]);
    double dvx = 0, dvy = 0;  // dV/dx, dV/dy
    if (order == 2) {
        dvx = k * (x * x - y * y) / 2.0;
        dvy = -k * x * y;
    } else {
        dvx = k * (x * x * x - 3.0 * x * y * y) / 6.0;
        dvy = k * (-3.0 * x * x * y + y * y * y) / 6.0;
    }
    return {z[1] / pz, -dvx, z[3] / pz, -dvy, (ib - pt) / pz - ib, 0.0};
}
}  // namespace

TEST_CASE("thick sextupole and octupole converge at 4th order to their exact Hamiltonian flow")
{
    ReferenceParticle const ref = proton(250.0);
    double const ib = 1.0 / ref.beta, length = 0.3;
    for (auto const& order_k : {std::pair{2, 100.0}, std::pair{3, 5e3}}) {
        int const order = order_k.first;  // plain names: a lambda below uses them (clang 14)
        double const k = order_k.second;
        Vec6 const z0{2e-2, 1e-3, -1.5e-2, -2e-3, 0.0, 1e-3};
        Vec6 const exact = rk4([&](Vec6 const& z) { return thick_rhs(z, order, k, ib); }, z0, length, 20000);
        double previous = 0.0, err = 0.0;
        for (int steps : {2, 4, 8, 16}) {
            ThickMultipole const m = ThickMultipole::make(length, order, k, 0.0, steps, ref);
            Particle p = to_particle(z0);
            REQUIRE(m(p));
            err = max_abs_difference(to_vec(p), exact);
            if (steps > 2) {
                CHECK(previous / err > 12.0);  // 4th order: 16 per halving
                CHECK(previous / err < 20.0);
            }
            previous = err;
        }
        // Measured at 16 steps: 7.2e-10 (sextupole), 1.4e-10 (octupole); kicks of ~1e-3 rad here.
        CHECK(err < 1e-8);
    }
}

TEST_CASE("thin bend (multipole with angle): the thin-lens kick of a sector-bend slice, MAD-X's TWISS map")
{
    // A 250 MeV proton (beta = 0.61: the 1/beta terms are not 1) through MAKETHIN's slice of a combined
    // bend: knl = {angle, k1 l}, lrad = 0.4 m.
    ReferenceParticle const ref = proton(250.0);
    double const angle = 0.05, k1l = 0.3, lrad = 0.4;
    Multipole const m = make({angle, k1l}, {}).bending(angle, lrad, ref);

    // The reference goes on unkicked (the field's knl_0 cancels the curvature's angle P at P = 1).
    Particle zero{0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    REQUIRE(m(zero));
    CHECK(to_vec(zero) == Vec6{0.0, 0.0, 0.0, 0.0, 0.0, 0.0});

    // Off axis and off momentum, against the kick written out from the particle's energy and momentum
    // (not from pt's polynomial as the kernel does): px += angle P - knl0 - k1l x - (knl0 angle/lrad) x,
    // py += k1l y, t += angle x / beta_particle.
    double const x = 2e-3, px = 1e-4, y = -1e-3, py = 2e-4, t = 0.1, pt = -3e-3;
    double const energy = ref.total_energy_mev() - pt * ref.pc_mev;  // E = E0 - pt p0 c [MeV]
    double const pc = std::sqrt((energy - ref.mass_mev) * (energy + ref.mass_mev));
    double const big_p = pc / ref.pc_mev, beta_particle = pc / energy;
    Particle p{x, px, y, py, t, pt};
    REQUIRE(m(p));
    CHECK(p.x == x);
    CHECK(p.y == y);
    // Round-off: a few operations on O(1e-4) kicks of O(0.05) terms: 1e-12 of the result.
    CHECK(p.px == test::relative(px + angle * big_p - angle - k1l * x - angle * angle / lrad * x, 1e-12));
    CHECK(p.py == test::relative(py + k1l * y, 1e-14));
    CHECK(p.t == test::relative(t + angle * x / beta_particle, 1e-14));
    CHECK(p.pt == pt);

    // Its linear map equals MAD-X's TWISS of `multipole, knl={0.01}, lrad=0.5` at 250 MeV (cpymad 1.20, MAD-X
    // 5.09, TWISS's rmatrix at the multipole, printed with repr): R21 = -0.0002, R26 = 0.016297038331742637
    // (= knl0/beta), R51 = -R26 in MAD-X's (T, PT) = (-t, -pt); every other entry of the identity. The
    // differences (h = 1e-4, Richardson) are exact to ~1e-14 here (the map is linear in x; the pt column's
    // h^4 terms ~1e-17): bound 1e-10 relative.
    Multipole const madx = make({0.01}, {}).bending(0.01, 0.5, ref);
    Mat6 const r = jacobian([&](Particle& q) { return madx(q); }, Vec6{}, 1e-4);
    CHECK(r[1][0] == test::relative(-0.0002, 1e-10));
    CHECK(-r[1][5] == test::relative(0.016297038331742637, 1e-10));
    CHECK(r[4][0] == test::relative(0.016297038331742637, 1e-10));
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j)
            if (!((i == 1 && (j == 0 || j == 5)) || (i == 4 && j == 0)))
                CHECK(std::abs(r[i][j] - (i == j ? 1.0 : 0.0)) < 1e-10);

    // Symplectic off axis (a kick derived from one potential V(x, pt)): M^T J M = J to round-off of
    // the differences.
    CHECK(symplectic_error(jacobian([&](Particle& q) { return m(q); }, Vec6{x, px, y, py, t, pt}, 1e-6)) <
          1e-10);

    // No physical momentum: lost, coordinates kept.
    Particle lost{x, px, y, py, t, 2.0 / ref.beta};
    CHECK_FALSE(m(lost));
    CHECK(lost.px == px);
}
