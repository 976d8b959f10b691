// Solenoid: the hard-edge map against the Larmor-frame matrix product and the canonical equations.
#include <doctest/doctest.h>

#include <cmath>

#include "ElementTestSupport.hh"
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
