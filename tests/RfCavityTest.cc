// RF cavity: energy gain q V cos(phase + k t), reference-energy update, bunching sign, thick cavity.
#include <doctest/doctest.h>

#include <cmath>

#include "ElementTestSupport.hh"
#include "kernels/elements/RfCavity.hh"

using namespace gt;
using namespace gt::test;

namespace {
double const deg = constants::pi / 180.0;

struct Cavity {
    ReferenceParticle before, after;
    RfCavity rf;
};

//! The reference after the kick, from the analytic gain q V cos(phase) (independent of RfCavity).
Cavity make_cavity(double kinetic, double length, double volts, double freq, double phase)
{
    Cavity c;
    c.before = proton(kinetic);
    c.after = proton(kinetic + volts * 1e-6 * std::cos(phase));
    c.rf = RfCavity::make(length, volts, freq, phase, c.before, c.after);
    return c;
}

double total_energy(ReferenceParticle const& ref, double pt)
{
    return ref.total_energy_mev() - pt * ref.pc_mev;
}
}  // namespace

TEST_CASE("reference energy gain is |q| V cos(phase)")
{
    ReferenceParticle const ref = proton(100.0);
    CHECK(rel_diff(RfCavity::reference_gain_mev(2e6, -30 * deg, ref), 2.0 * std::cos(30 * deg)) <= 1e-15);
    CHECK(rel_diff(RfCavity::reference_gain_mev(2e6, 0.0, ref), 2.0) <= 1e-15);
    // At the zero crossing (phase = -90 deg, rounded in radians) the reference is left exactly alone.
    CHECK(RfCavity::reference_gain_mev(2e6, -90 * deg, ref) == 0.0);
    // The sign of the charge does not change the crest: V is as the beam sees it.
    ReferenceParticle const antiproton =
        ReferenceParticle::from_kinetic(constants::proton_mass_mev, -1.0, 100.0);
    CHECK(rel_diff(RfCavity::reference_gain_mev(2e6, 0.0, antiproton), 2.0) <= 1e-15);
}

TEST_CASE(
    "thin cavity: every particle gains q V cos(phase + 2 pi f t / c), re-expressed in the new reference")
{
    double const volts = 2e6, freq = 352.2e6, phase = -30 * deg;
    Cavity const c = make_cavity(100.0, 0.0, volts, freq, phase);
    double const k = 2.0 * constants::pi * freq / constants::c_light;
    for (double t : {-0.05, -0.01, 0.0, 0.003, 0.2}) {
        for (double pt : {-2e-3, 0.0, 5e-3}) {
            Particle p{1e-3, 2e-3, -1e-3, -4e-4, t, pt};
            REQUIRE(c.rf(p));
            double const gain = total_energy(c.after, p.pt) - total_energy(c.before, pt);
            // Energies of ~1 GeV differenced to ~MeV: rounding ~1e-16 * 1e3 MeV = 1e-13 MeV.
            CHECK(rel_diff(gain, volts * 1e-6 * std::cos(phase + k * t)) <= 1e-11);
            CHECK(p.t == t);  // a thin kick moves nobody in time
            CHECK(p.x == 1e-3);
            // P_x unchanged: px scales by p0/p1 (adiabatic damping).
            CHECK(rel_diff(p.px, 2e-3 * c.before.pc_mev / c.after.pc_mev) <= 1e-15);
            CHECK(rel_diff(p.py, -4e-4 * c.before.pc_mev / c.after.pc_mev) <= 1e-15);
        }
    }
    // The reference particle stays the reference.
    Particle r{0, 0, 0, 0, 0, 0};
    REQUIRE(c.rf(r));
    CHECK(r.pt == 0.0);
}

TEST_CASE("negative phase bunches: a late particle gains more than the reference")
{
    Cavity const c = make_cavity(100.0, 0.0, 2e6, 352.2e6, -30 * deg);
    Particle late{0, 0, 0, 0, 0.01, 0}, early{0, 0, 0, 0, -0.01, 0};
    REQUIRE(c.rf(late));
    REQUIRE(c.rf(early));
    CHECK(late.pt < 0.0);   // more energy than the reference (pt = -dE/(p c)): catches up below transition
    CHECK(early.pt > 0.0);  // less energy: falls back
    // Linearized: d pt / d t = |q| V k sin(phase) / (p1 c) at t = 0. At t = 1e-4 m the second-order
    // term changes the ratio by (k t / 2) cot(phase) = 6.4e-4.
    double const k = 2.0 * constants::pi * 352.2e6 / constants::c_light;
    double const slope = 2.0 * k * std::sin(-30 * deg) / c.after.pc_mev;
    Particle near{0, 0, 0, 0, 1e-4, 0};
    REQUIRE(c.rf(near));
    CHECK(rel_diff(near.pt / 1e-4, slope) <= 1e-3);
    Cavity const d = make_cavity(100.0, 0.0, 2e6, 352.2e6, +30 * deg);
    Particle late2{0, 0, 0, 0, 0.01, 0};
    REQUIRE(d.rf(late2));
    CHECK(late2.pt > 0.0);  // positive phase debunches
}

TEST_CASE("thick cavity = exact drift L/2 (old reference), kick, exact drift L/2 (new reference)")
{
    double const volts = 1.5e6, freq = 352.2e6, phase = -20 * deg, length = 0.5;
    Cavity const c = make_cavity(20.0, length, volts, freq, phase);  // beta ~ 0.2: velocities change a lot
    Cavity const thin = make_cavity(20.0, 0.0, volts, freq, phase);
    auto drift = [](Vec6& z, double l, ReferenceParticle const& ref) {
        double const ib = 1.0 / ref.beta;
        double const pz = std::sqrt(1.0 - 2.0 * z[5] * ib + z[5] * z[5] - z[1] * z[1] - z[3] * z[3]);
        z[0] += l * z[1] / pz;
        z[2] += l * z[3] / pz;
        z[4] += l * ((ib - z[5]) / pz - ib);
    };
    Vec6 z{1e-3, 1e-3, -2e-3, 5e-4, 0.02, 3e-3};
    Particle p = to_particle(z);
    REQUIRE(c.rf(p));
    drift(z, 0.5 * length, c.before);
    Particle mid = to_particle(z);
    REQUIRE(thin.rf(mid));
    z = to_vec(mid);
    drift(z, 0.5 * length, c.after);
    // The test's drift has the 1/pz - 1/beta cancellation (~1e-16 / 1e-3 relative in t).
    CHECK(max_abs_difference(to_vec(p), z) < 1e-15);
}

TEST_CASE("a particle decelerated below its rest energy is lost")
{
    double const k = 2.0 * constants::pi * 100e6 / constants::c_light;
    Cavity const c = make_cavity(5.0, 0.0, 4e6, 100e6, 0.0);
    // A 1 MeV particle (pt from E - E0 = -4 MeV) at the RF trough loses 4 MeV: unphysical.
    double const pt = 4.0 / c.before.pc_mev;
    Particle p{0, 0, 0, 0, constants::pi / k, pt};
    CHECK_FALSE(c.rf(p));
    Particle q{0, 0, 0, 0, 0.0, pt};  // on crest it gains 4 MeV instead
    CHECK(c.rf(q));
}
