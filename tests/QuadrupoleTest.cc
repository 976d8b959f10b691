// Quadrupole: the linear map against its matrix, the chromatic map against a numerical solution of
// its Hamiltonian, and the kick-integrated map converging at fourth order.
#include <doctest/doctest.h>

#include <cmath>

#include "ElementTestSupport.hh"
#include "kernels/elements/Quadrupole.hh"

using namespace gt;
using namespace gt::test;

namespace {

//! Thick quadrupole matrix, Wiedemann (4th ed.) eq. 7.9, written out per sign of k.
Mat6 quad_matrix(double k1, double length, ReferenceParticle const& ref)
{
    Mat6 m = identity6();
    double const w = std::sqrt(std::abs(k1)), phi = w * length;
    double const cf = std::cos(phi), sf = std::sin(phi), ch = std::cosh(phi), sh = std::sinh(phi);
    // focusing plane: [cos, sin/w; -w sin, cos]; defocusing plane: [cosh, sinh/w; w sinh, cosh]
    int const f = k1 > 0 ? 0 : 2, d = k1 > 0 ? 2 : 0;
    m[f][f] = cf;
    m[f][f + 1] = sf / w;
    m[f + 1][f] = -w * sf;
    m[f + 1][f + 1] = cf;
    m[d][d] = ch;
    m[d][d + 1] = sh / w;
    m[d + 1][d] = w * sh;
    m[d + 1][d + 1] = ch;
    m[4][5] = length / (ref.beta_gamma * ref.beta_gamma);
    return m;
}

double inv_beta_of(ReferenceParticle const& ref) { return 1.0 / ref.beta; }

//! Hamilton's equations of the paraxial chromatic quadrupole,
//! H = (px^2 + py^2)/(2P) + k1 (x^2 - y^2)/2 - P - pt/beta, P = sqrt(1 - 2 pt/beta + pt^2).
Vec6 chromatic_rhs(Vec6 const& z, double k1, double ib)
{
    double const pt = z[5];
    double const pn = std::sqrt(1.0 - 2.0 * pt * ib + pt * pt);
    double const dpn = (pt - ib) / pn;  // dP/dpt
    double const perp2 = z[1] * z[1] + z[3] * z[3];
    return {z[1] / pn, -k1 * z[0], z[3] / pn, k1 * z[2], -perp2 / (2.0 * pn * pn) * dpn - dpn - ib, 0.0};
}

//! Hamilton's equations of the exact quadrupole, H = -sqrt(P^2 - px^2 - py^2) - pt/beta + k1 (x^2 - y^2)/2.
Vec6 exact_rhs(Vec6 const& z, double k1, double ib)
{
    double const pt = z[5];
    double const pz = std::sqrt(1.0 - 2.0 * pt * ib + pt * pt - z[1] * z[1] - z[3] * z[3]);
    return {z[1] / pz, -k1 * z[0], z[3] / pz, k1 * z[2], (ib - pt) / pz - ib, 0.0};
}

}  // namespace

TEST_CASE("linear quadrupole: focusing and defocusing against the thick-lens matrix")
{
    ReferenceParticle const ref = proton(250.0);
    for (double k1 : {1.2, -1.2, 35.0, -0.01}) {
        Quadrupole const q = Quadrupole::make(0.5, k1, QuadrupoleModel::linear, 1, ref);
        Mat6 const m = matrix_of_linear_map([&](Particle& p) { return q(p); });
        // Coefficients from std:: functions on both sides, applied to unit vectors: 1e-12 relative
        // (entries near zero compared absolutely, floor 1).
        CHECK(max_relative_difference(m, quad_matrix(k1, 0.5, ref)) < 1e-12);
    }
}

TEST_CASE("chromatic (exact) quadrupole: the linear map at the design momentum")
{
    ReferenceParticle const ref = proton(250.0);
    for (double k1 : {1.2, -1.2}) {
        Quadrupole const exact = Quadrupole::make(0.5, k1, QuadrupoleModel::exact, 1, ref);
        Quadrupole const linear = Quadrupole::make(0.5, k1, QuadrupoleModel::linear, 1, ref);
        // At pt = 0 the transverse map of the chromatic model is linear in (x, px, y, py) and equal
        // to the linear model; only pmath vs std:: rounding differs (a few ulp).
        Particle a{1e-3, 2e-4, -5e-4, 1e-4, 0.0, 0.0};
        Particle b = a;
        REQUIRE(exact(a));
        REQUIRE(linear(b));
        CHECK(rel_diff(a.x, b.x) <= 1e-14);
        CHECK(rel_diff(a.px, b.px) <= 1e-14);
        CHECK(rel_diff(a.y, b.y) <= 1e-14);
        CHECK(rel_diff(a.py, b.py) <= 1e-14);
        // t: the exact model adds the path-length term (1/beta) int (x'^2 + y'^2)/2 ds, second
        // order: at 1e-3 amplitude below 1e-6 * L.
        CHECK(std::abs(a.t - b.t) < 1e-6);
        CHECK(std::abs(a.t - b.t) > 0.0);
        // Jacobian at the origin equals the linear matrix (Richardson-extrapolated differences,
        // h = 1e-7: truncation negligible, rounding ~ 2 eps relative to the entries).
        Mat6 const jac = jacobian([&](Particle& p) { return exact(p); }, Vec6{}, 1e-7);
        CHECK(max_relative_difference(jac, quad_matrix(k1, 0.5, ref)) < 1e-8);
    }
}

TEST_CASE("chromatic (exact) quadrupole solves its Hamiltonian, off momentum, both signs of k1")
{
    for (double kinetic : {5.0, 250.0}) {
        ReferenceParticle const ref = proton(kinetic);
        double const ib = inv_beta_of(ref);
        for (double k1 : {2.0, -2.0}) {
            for (double pt : {-3e-3, 4e-3}) {
                Quadrupole const q = Quadrupole::make(0.6, k1, QuadrupoleModel::exact, 1, ref);
                Vec6 const z0{2e-3, -1e-3, -1.5e-3, 2e-3, 1e-3, pt};
                Particle p = to_particle(z0);
                REQUIRE(q(p));
                Vec6 const ref_z =
                    rk4([&](Vec6 const& z) { return chromatic_rhs(z, k1, ib); }, z0, 0.6, 4000);
                // RK4 with h = 1.5e-4 m: global error ~ h^4 (k^2 ...) < 1e-15; the rest is rounding.
                CHECK(max_abs_difference(to_vec(p), ref_z) < 1e-14);
            }
        }
    }
}

TEST_CASE("kick-integrated quadrupole converges at 4th order to the exact Hamiltonian flow")
{
    ReferenceParticle const ref = proton(250.0);
    double const ib = inv_beta_of(ref), k1 = 3.0, length = 0.5;
    Vec6 const z0{2e-3, 1e-3, -1e-3, 5e-4, 0.0, 2e-3};
    Vec6 const exact_z = rk4([&](Vec6 const& z) { return exact_rhs(z, k1, ib); }, z0, length, 20000);
    double previous = 0.0;
    for (int steps : {1, 2, 4, 8}) {
        Quadrupole const q = Quadrupole::make(length, k1, QuadrupoleModel::kick, steps, ref);
        Particle p = to_particle(z0);
        REQUIRE(q(p));
        double const err = max_abs_difference(to_vec(p), exact_z);
        if (steps > 1) {
            // Fourth order: halving the step divides the error by 2^4 = 16 (allow 12 to 20).
            CHECK(previous / err > 12.0);
            CHECK(previous / err < 20.0);
        }
        previous = err;
    }
    // Measured: 2.0e-4 (1 step), 1.0e-5, 6.1e-7, 3.8e-8 (8 steps) at 2e-3 amplitude, k1 L^2 = 0.75.
    CHECK(previous < 1e-7);

    // ... and approaches the chromatic model as kicks increase, down to the O(p_perp^4) difference
    // of the two Hamiltonians (sqrt expanded to second order in px, py): ~ L p_perp^3 ~ 1e-10 here.
    Quadrupole const chromatic = Quadrupole::make(length, k1, QuadrupoleModel::exact, 1, ref);
    Particle c = to_particle(z0);
    REQUIRE(chromatic(c));
    double last = 1.0;
    for (int steps : {1, 4, 16, 64}) {
        Quadrupole const q = Quadrupole::make(length, k1, QuadrupoleModel::kick, steps, ref);
        Particle p = to_particle(z0);
        REQUIRE(q(p));
        double const diff = max_abs_difference(to_vec(p), to_vec(c));
        CHECK(diff <= last);
        last = diff;
    }
    CHECK(last < 1e-9);  // measured 4.1e-10 at 64 steps
}

TEST_CASE("quadrupole models lose unphysical particles")
{
    ReferenceParticle const ref = proton(250.0);
    for (auto model : {QuadrupoleModel::exact, QuadrupoleModel::kick}) {
        Quadrupole const q = Quadrupole::make(0.5, 1.0, model, 2, ref);
        Particle p{0, 0, 0, 0, 0, 3.0 / ref.beta};  // negative total energy
        CHECK_FALSE(q(p));
    }
}
