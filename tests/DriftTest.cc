// Drift: the linear map against its matrix, the exact map against the relativistic time of flight.
#include <doctest/doctest.h>

#include <cmath>

#include "ElementTestSupport.hh"
#include "kernels/elements/Drift.hh"

using namespace gt;
using namespace gt::test;

TEST_CASE("linear drift is the textbook matrix (R12 = R34 = L, R56 = L/(beta gamma)^2)")
{
    ReferenceParticle const ref = proton(800.0);
    double const length = 2.3;
    Drift const d = Drift::make(length, DriftModel::linear, ref);
    Mat6 expected = identity6();
    expected[0][1] = length;
    expected[2][3] = length;
    expected[4][5] = length / (ref.beta_gamma * ref.beta_gamma);  // Wolski eq. 3.21 in ImpactX t, pt
    Mat6 const m = matrix_of_linear_map([&](Particle& p) { return d(p); });
    // A linear map applied to unit vectors: only rounding of a product and a sum (< 1e-15).
    CHECK(max_relative_difference(m, expected) < 1e-14);
}

TEST_CASE("exact drift matches the time of flight computed from energies and velocities")
{
    for (double kinetic : {5.0, 800.0, 7000e3}) {
        ReferenceParticle const ref = proton(kinetic);
        double const length = 1.7;
        Drift const d = Drift::make(length, DriftModel::exact, ref);
        Vec6 const z0{1e-3, 0.01, -2e-3, -0.02, 3e-3, 0.05 * ref.beta};
        Particle p = to_particle(z0);
        REQUIRE(d(p));
        // Independent reference: total energy and momentum in MeV from pt = -(E - E0)/(p0 c).
        double const e0 = ref.total_energy_mev();
        double const p0c = ref.pc_mev;
        double const energy = e0 - z0[5] * p0c;
        double const pc = std::sqrt(energy * energy - ref.mass_mev * ref.mass_mev);
        double const pxc = z0[1] * p0c, pyc = z0[3] * p0c;
        double const pzc = std::sqrt(pc * pc - pxc * pxc - pyc * pyc);
        double const v_over_c = pc / energy, v0_over_c = p0c / e0;
        double const vz_over_c = v_over_c * pzc / pc;
        // Straight line: dx/ds = P_x / P_z; c dt = L / (v_z/c), reference: L / (v0/c).
        CHECK(rel_diff(p.x, z0[0] + length * pxc / pzc) <= 1e-13);
        CHECK(rel_diff(p.y, z0[2] + length * pyc / pzc) <= 1e-13);
        CHECK(p.px == z0[1]);
        CHECK(p.py == z0[3]);
        CHECK(p.pt == z0[5]);
        double const dt = length / vz_over_c - length / v0_over_c;
        // The reference value itself is a difference of two numbers ~L/beta: it carries
        // ~1e-16 L/beta / |dt| relative rounding (1e-13 here), hence 1e-11.
        CHECK(rel_diff(p.t - z0[4], dt) <= 1e-11);
    }
}

TEST_CASE("exact drift agrees with the linear drift to first order")
{
    ReferenceParticle const ref = proton(50.0);
    Drift const exact = Drift::make(3.0, DriftModel::exact, ref);
    Drift const linear = Drift::make(3.0, DriftModel::linear, ref);
    Mat6 const ml = matrix_of_linear_map([&](Particle& p) { return linear(p); });
    // Jacobian at the origin by Richardson-extrapolated central differences (h = 1e-6): truncation
    // ~h^4 |f^(5)| is negligible; rounding ~ 2 eps |f| / h with |f| ~ h L / (beta gamma)^2: ~1e-14.
    Mat6 const me = jacobian([&](Particle& p) { return exact(p); }, Vec6{}, 1e-6);
    CHECK(max_relative_difference(me, ml) < 1e-8);
    // At 1e-4 amplitude the second-order difference is visible but small: x differs by L px p^2/2.
    Particle a = to_particle({0, 1e-4, 0, 0, 0, 1e-4});
    Particle b = a;
    REQUIRE(exact(a));
    REQUIRE(linear(b));
    CHECK(std::abs(a.x - b.x) < 3.0 * 1e-4 * 1e-4 * 10.0);
    CHECK(std::abs(a.x - b.x) > 0.0);
}

TEST_CASE("exact drift loses particles that cannot move forward")
{
    ReferenceParticle const ref = proton(800.0);
    Drift const d = Drift::make(1.0, DriftModel::exact, ref);
    Particle p{0, 1.2, 0, 0, 0, 0};  // |P_x| > |P|: pz^2 < 0
    CHECK_FALSE(d(p));
    Particle q{0, 0, 0, 0, 0, 2.0 / ref.beta};  // E < 0
    CHECK_FALSE(d(q));
    Particle n{0, NAN, 0, 0, 0, 0};
    CHECK_FALSE(d(n));
    Particle ok{0, 0.5, 0, 0.5, 0, 0};
    CHECK(d(ok));
}
