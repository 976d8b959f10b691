// Solenoid: the hard-edge map against the Larmor-frame matrix product and the canonical equations.
#include <doctest/doctest.h>

#include <cmath>

#include "ElementTestSupport.hh"
#include "Relative.hh"
#include "kernels/elements/Solenoid.hh"

using namespace gt;
using namespace gt::test;

TEST_CASE("solenoid equals rotation by K L times focusing in the Larmor frame")
{
    ReferenceParticle const ref = proton(250.0);
    for (double ks : {0.8, -1.7, 1e-9}) {
        double const length = 0.5, k = ks / 2.0, th = k * length;
        Solenoid const sol = Solenoid::make(length, ks, ref);
        // Wolski, Beam Dynamics eq. 3.176 / Wiedemann sec. 6.6: M = R(K L) F, with F the focusing of
        // strength K^2 in both planes and R the rotation of (x, px) into (y, py) by K L.
        Mat6 rot = identity6(), foc = identity6();
        for (int plane = 0; plane < 2; ++plane) {
            int const i = 2 * plane;
            foc[i][i] = std::cos(th);
            foc[i][i + 1] = k != 0.0 ? std::sin(th) / k : length;
            foc[i + 1][i] = -k * std::sin(th);
            foc[i + 1][i + 1] = std::cos(th);
        }
        for (int i = 0; i < 2; ++i) {
            rot[i][i] = std::cos(th);
            rot[i + 2][i + 2] = std::cos(th);
            rot[i][i + 2] = std::sin(th);
            rot[i + 2][i] = -std::sin(th);
        }
        Mat6 expected = multiply(rot, foc);
        expected[4][5] = length / (ref.beta_gamma * ref.beta_gamma);
        Mat6 const m = matrix_of_linear_map([&](Particle& p) { return sol(p); });
        CHECK(max_relative_difference(m, expected) < 1e-12);
    }
}

TEST_CASE("solenoid solves the canonical equations of motion (edge focusing included)")
{
    ReferenceParticle const ref = proton(50.0);
    double const ks = 2.4, k = ks / 2.0, length = 0.7, ibg2 = 1.0 / (ref.beta_gamma * ref.beta_gamma);
    Solenoid const sol = Solenoid::make(length, ks, ref);
    // H = ((px + K y)^2 + (py - K x)^2)/2 + pt^2/(2 (beta gamma)^2): canonical momenta are continuous
    // at a hard edge, so integrating the body equations from canonical momenta gives the edges too.
    auto rhs = [&](Vec6 const& z) -> Vec6 {
        double const ux = z[1] + k * z[2], uy = z[3] - k * z[0];
        return {ux, k * uy, uy, -k * ux, ibg2 * z[5], 0.0};
    };
    for (int j = 0; j < 6; ++j) {
        Vec6 e{};
        e[j] = 1.0;
        Particle p = to_particle(e);
        sol(p);
        CHECK(max_abs_difference(to_vec(p), rk4(rhs, e, length, 2000)) < 1e-12);
    }
    // A particle entering parallel, off axis, leaves (field-free: canonical = kinetic momenta)
    // moving towards the axis: a solenoid focuses in both planes (weak-solenoid focal length
    // 1/(K^2 L), Wiedemann sec. 6.6).
    Particle p{1e-3, 0, 0, 0, 0, 0};
    sol(p);
    double const r = std::hypot(p.x, p.y);
    double const radial_angle = (p.x * p.px + p.y * p.py) / r;
    CHECK(radial_angle < 0.0);
    // ... from the matrix: r_out = 1e-3 cos(KL), radial angle = -K sin(KL) 1e-3.
    CHECK(rel_diff(r, 1e-3 * std::cos(k * length)) <= 1e-13);
    CHECK(rel_diff(radial_angle, -k * std::sin(k * length) * 1e-3) <= 1e-12);
}

//! The helix of a particle in the uniform field of a hard-edge solenoid, written from the geometry (not
//! from the map): the kinetic transverse momentum pi = (px + K y, py - K x) turns at the rate w = 2 K / pz
//! (pz = sqrt(P^2 - pi^2), constant), the position follows pi / pz; the time coordinate changes by
//! L ((1/beta - pt) / pz - 1/beta).
Vec6 helix(Vec6 const& z, double ks, double length, ReferenceParticle const& ref)
{
    double const k = ks / 2.0, inv_beta = 1.0 / ref.beta;
    double const pt = z[5];
    double const p2 = 1.0 - 2.0 * pt * inv_beta + pt * pt;
    double const pix = z[1] + k * z[2], piy = z[3] - k * z[0];
    double const pz = std::sqrt(p2 - pix * pix - piy * piy);
    double const w = 2.0 * k / pz, phi = w * length;
    double const pix1 = pix * std::cos(phi) + piy * std::sin(phi);
    double const piy1 = -pix * std::sin(phi) + piy * std::cos(phi);
    double const x1 = z[0] + (pix * std::sin(phi) + piy * (1.0 - std::cos(phi))) / (2.0 * k);
    double const y1 = z[2] + (pix * (std::cos(phi) - 1.0) + piy * std::sin(phi)) / (2.0 * k);
    double const t1 = z[4] + length * ((inv_beta - pt) / pz - inv_beta);
    return {x1, pix1 - k * y1, y1, piy1 + k * x1, t1, pt};
}

TEST_CASE("exact solenoid: each particle's helix, at any momentum and amplitude")
{
    // The closed form above against the map (k = K/pz in the Larmor-frame matrix, the drift's t): the same
    // motion written two ways; they agree to round-off (a few 1e-16 of the coordinates' scale), also far from
    // the design momentum (pt = -0.2: 25% more momentum for a 250 MeV proton) and at angles of 0.1 rad.
    ReferenceParticle const ref = proton(250.0);
    for (double ks : {0.8, -1.7, 3.0})
        for (double pt : {0.0, 1e-3, -0.2, 0.15})
            for (double amplitude : {1e-4, 1e-2, 0.1}) {
                CAPTURE(ks);
                CAPTURE(pt);
                CAPTURE(amplitude);
                Solenoid const sol = Solenoid::make(0.6, ks, ref, true);
                Vec6 const z{amplitude, -0.5 * amplitude, -0.3 * amplitude, 0.7 * amplitude, 1e-3, pt};
                Particle p = to_particle(z);
                REQUIRE(sol(p));
                Vec6 const want = helix(z, ks, 0.6, ref);
                Vec6 const got = to_vec(p);
                for (int i = 0; i < 6; ++i)
                    CHECK(std::abs(got[i] - want[i]) < 1e-15 * (1.0 + std::abs(want[i]) * 10));
            }
}

TEST_CASE("exact solenoid: the linear model at the design momentum, chromatic away from it")
{
    ReferenceParticle const ref = proton(250.0);
    Solenoid const exact = Solenoid::make(0.6, 1.3, ref, true), linear = Solenoid::make(0.6, 1.3, ref);
    // At pt = 0 the exact map's linear part is the linear model's matrix (its transverse nonlinearity starts
    // at third order: 1e-6 amplitude leaves ~1e-18).
    auto const exact_map = [&](Particle& p) { return exact(p); };
    Mat6 const m_exact = jacobian(exact_map, Vec6{}, 1e-6);
    // Symplectic anywhere (the exact flow of a Hamiltonian): M^T J M = J at an off-momentum, off-axis point,
    // to the Richardson differences' accuracy (~1e-10).
    CHECK(symplectic_error(jacobian(exact_map, Vec6{2e-3, -1e-3, 1e-3, 2e-3, 0.0, -0.05}, 1e-5)) < 1e-9);
    Mat6 const m_linear = matrix_of_linear_map([&](Particle& p) { return linear(p); });
    CHECK(max_relative_difference(m_exact, m_linear) < 1e-9);
    // Off momentum the focusing is that of k = K/P (paraxial): the rotation angle K L / P (Wolski sec. 3.5;
    // MAD-X's tmsol, sk = ks / 2 / (1 + delta)). For a particle entering at x0, parallel, x = x0 cos^2(k L):
    // its chromatic derivative at delta = 0 against centred differences of the map (step 1e-5: truncation
    // ~1e-10 relative).
    double const x0 = 1e-6, length = 0.6, k = 0.65;
    auto x_out = [&](double delta) {
        double const p = 1.0 + delta;
        // pt for this delta: E/p0 c = sqrt(P^2 + 1/(beta gamma)^2), pt = 1/beta - E.
        double const e = std::sqrt(p * p + 1.0 / (ref.beta_gamma * ref.beta_gamma));
        Particle q = to_particle(Vec6{x0, 0.0, 0.0, 0.0, 0.0, 1.0 / ref.beta - e});
        exact(q);
        return q.x;
    };
    double const d = 1e-5;
    double const numeric = (x_out(d) - x_out(-d)) / (2.0 * d);
    // x = x0 cos^2(k L / P) for an on-axis-parallel start: d/d delta = x0 2 cos sin k L at delta = 0.
    double const analytic = x0 * 2.0 * std::cos(k * length) * std::sin(k * length) * k * length;
    CHECK(numeric == test::relative(analytic, 1e-8));
    Particle q = to_particle(Vec6{x0, 0.0, 0.0, 0.0, 0.0, 0.0});
    linear(q);
    Particle r = to_particle(Vec6{x0, 0.0, 0.0, 0.0, 0.0, 1e-3});
    Particle s = r;
    linear(r);
    exact(s);
    CHECK(r.x == q.x);  // the linear model has no chromatic term
    CHECK(s.x != r.x);  // the exact one has
}
