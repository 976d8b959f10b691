// beam_shift (kernels/elements/BeamShift.hh): ELEGANT's MALIGN, against hand-computed shifts and against
// ELEGANT's offset_beam (src/do_tracking.c) written out here in ELEGANT's own coordinates.
#include <doctest/doctest.h>

#include "Relative.hh"

#include <cmath>

#include "ElementTestSupport.hh"
#include "beam/Lattice.hh"
#include "kernels/elements/Element.hh"

using namespace gt;
using namespace gt::test;

namespace {

//! ELEGANT's coordinates of a particle: x, x' = dx/ds, y, y', c t (delay), delta.
struct Elegant {
    double x, xp, y, yp, ct, delta;
};

Elegant to_elegant(Particle const& p, ReferenceParticle const& ref)
{
    double const mom = std::sqrt(1.0 - 2.0 * p.pt / ref.beta + p.pt * p.pt);
    double const pz = std::sqrt(mom * mom - p.px * p.px - p.py * p.py);
    return Elegant{p.x, p.px / pz, p.y, p.py / pz, p.t, mom - 1.0};
}

//! ELEGANT's offset_beam, its statements in its order: the path grows by dz sqrt(1 + x'^2 + y'^2) with the
//! slopes before the shift, the delay by that path over the particle's beta; delta changes at fixed time.
Elegant elegant_malign(Elegant e, ReferenceParticle const& ref, double dx, double dxp, double dy, double dyp,
                       double dz, double dp)
{
    double const ds = dz * std::sqrt(1 + e.xp * e.xp + e.yp * e.yp);
    double const mom = 1 + e.delta, mass = 1.0 / ref.beta_gamma;  // in units of p_ref
    double const beta = mom / std::sqrt(mom * mom + mass * mass);
    e.x += dx + dz * e.xp;
    e.xp += dxp;
    e.y += dy + dz * e.yp;
    e.yp += dyp;
    e.ct += ds / beta;
    e.delta += dp;
    return e;
}

}  // namespace

TEST_CASE("beam_shift: DX, DY move x, y and nothing else, bit for bit")
{
    ReferenceParticle const ref = proton(800.0);
    BeamShift const s = BeamShift::make(1e-3, 0.0, -2e-3, 0.0, 0.0, 0.0, ref);
    Particle p{1e-4, 2e-4, -3e-4, 1e-4, 5e-3, 1e-3};
    Particle const in = p;
    REQUIRE(s(p));
    CHECK(p.x == in.x + 1e-3);
    CHECK(p.y == in.y + -2e-3);
    CHECK(p.px == in.px);
    CHECK(p.py == in.py);
    CHECK(p.t == in.t);
    CHECK(p.pt == in.pt);
}

TEST_CASE("beam_shift: the hand-computed slope, path and momentum shifts of an on-axis particle")
{
    ReferenceParticle const ref = proton(800.0);
    Particle const on_axis{0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    {
        // DXP on the reference: the direction turns by atan(DXP), |p| kept: px = sin(atan(DXP)).
        Particle p = on_axis;
        REQUIRE(BeamShift::make(0.0, 2e-3, 0.0, -1e-3, 0.0, 0.0, ref)(p));
        double const n = std::sqrt(1.0 + 2e-3 * 2e-3 + 1e-3 * 1e-3);
        CHECK(p.px == test::relative(2e-3 / n, 1e-15));
        CHECK(p.py == test::relative(-1e-3 / n, 1e-15));
        CHECK(p.x == 0.0);
        CHECK(p.t == 0.0);
        CHECK(p.pt == 0.0);
    }
    {
        // DZ with a slope x' = 0.01: x moves DZ x', the path DZ sqrt(1 + x'^2) at the reference's speed, so
        // the delay grows by that path over beta (the reference does not move).
        double const xp = 0.01, dz = 0.25;
        Particle p{0.0, xp / std::sqrt(1.0 + xp * xp), 0.0, 0.0, 0.0, 0.0};
        REQUIRE(BeamShift::make(0.0, 0.0, 0.0, 0.0, dz, 0.0, ref)(p));
        CHECK(p.x == test::relative(dz * xp, 1e-14));
        CHECK(p.t == test::relative(dz * std::sqrt(1.0 + xp * xp) / ref.beta, 1e-14));
    }
    {
        // DP: delta = DP; pt = -(E - E_ref)/(p_ref c) = 1/beta - sqrt((1 + DP)^2 + 1/(beta gamma)^2).
        double const dp = 1e-3;
        Particle p = on_axis;
        REQUIRE(BeamShift::make(0.0, 0.0, 0.0, 0.0, 0.0, dp, ref)(p));
        double const e = std::sqrt((1 + dp) * (1 + dp) + 1.0 / (ref.beta_gamma * ref.beta_gamma));
        CHECK(p.pt == test::relative(1.0 / ref.beta - e, 1e-12));
        CHECK(p.px == 0.0);
        CHECK(p.t == 0.0);  // at fixed time
    }
}

TEST_CASE("beam_shift: ELEGANT's offset_beam in its own coordinates, every shift at once")
{
    // Both compute the same quantities in other orders: 1e-14 relative (a few roundings of each term); delta
    // is read back from pt through 1 - 2 pt/beta + pt^2, which cancels by 1/beta^2 (100 at 5 MeV): 1e-10.
    for (double kinetic : {800.0, 5.0}) {
        ReferenceParticle const ref = proton(kinetic);
        double const dx = 1e-3, dxp = -2e-4, dy = 3e-4, dyp = 5e-4, dz = 0.1, dp = -2e-3;
        Particle p{2e-3, 1e-3, -1e-3, -3e-4, 4e-3, 2e-3};
        Elegant const want = elegant_malign(to_elegant(p, ref), ref, dx, dxp, dy, dyp, dz, dp);
        REQUIRE(BeamShift::make(dx, dxp, dy, dyp, dz, dp, ref)(p));
        Elegant const got = to_elegant(p, ref);
        CHECK(got.x == test::relative(want.x, 1e-14));
        CHECK(got.xp == test::relative(want.xp, 1e-13));
        CHECK(got.y == test::relative(want.y, 1e-14));
        CHECK(got.yp == test::relative(want.yp, 1e-13));
        CHECK(got.ct == test::relative(want.ct, 1e-14));
        CHECK(got.delta == test::relative(want.delta, 1e-10));
    }
}

TEST_CASE("beam_shift: a particle moving backwards or with a NaN is lost")
{
    ReferenceParticle const ref = proton(800.0);
    BeamShift const s = BeamShift::make(1e-3, 0.0, 0.0, 0.0, 0.0, 0.0, ref);
    Particle back{0.0, 1.5, 0.0, 0.0, 0.0, 0.0};  // |px| > p: no forward momentum
    CHECK_FALSE(s(back));
    Particle nan{0.0, NAN, 0.0, 0.0, 0.0, 0.0};
    CHECK_FALSE(s(nan));
}

TEST_CASE(
    "beam_shift: ELEGANT's DT and DE (offset_beam: t += DT, gamma += DE gamma at fixed time and slopes)")
{
    // ELEGANT's statements in its coordinates: the arrival time t = s/(beta c) + DT, then gamma *= 1 + DE, pc
    // = sqrt(gamma^2 - 1) (units of m c), delta = (pc - P0)/P0, s = t beta c with the new beta: the time is
    // kept. gtrack's t is c (t - t_ref): + c DT. Tolerances as in the case above (delta read back from pt:
    // 1e-10).
    for (double kinetic : {800.0, 5.0}) {
        ReferenceParticle const ref = proton(kinetic);
        double const dt = 2e-12, de = -1.5e-3;
        Particle p{2e-3, 1e-3, -1e-3, -3e-4, 4e-3, 2e-3};
        Elegant const in = to_elegant(p, ref);
        double const p0 = ref.beta_gamma;  // P0 in units of m c
        double const gamma = std::sqrt(std::pow(p0 * (1 + in.delta), 2) + 1) * (1 + de);
        double const delta = (std::sqrt(gamma * gamma - 1) - p0) / p0;
        REQUIRE(BeamShift::make(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, ref, constants::c_light * dt, de)(p));
        Elegant const got = to_elegant(p, ref);
        CHECK(got.x == in.x);
        CHECK(got.y == in.y);
        CHECK(got.xp == test::relative(in.xp, 1e-14));  // the slopes kept
        CHECK(got.yp == test::relative(in.yp, 1e-14));
        CHECK(got.ct == test::relative(in.ct + constants::c_light * dt, 1e-15));
        CHECK(got.delta == test::relative(delta, 1e-10));
        // The total energy E/(p_ref c) = 1/beta - pt scaled by 1 + DE exactly (one rounding of each).
        double const e_in = 1.0 / ref.beta - Particle{2e-3, 1e-3, -1e-3, -3e-4, 4e-3, 2e-3}.pt;
        CHECK(1.0 / ref.beta - p.pt == test::relative(e_in * (1 + de), 1e-15));
    }
    // DT alone: t moves, nothing else (the momenta's bits kept).
    ReferenceParticle const ref = proton(800.0);
    Particle p{1e-4, 2e-4, -3e-4, 1e-4, 5e-3, 1e-3};
    Particle const in = p;
    REQUIRE(BeamShift::make(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, ref, 0.3, 0.0)(p));
    CHECK(p.t == in.t + 0.3);
    CHECK(p.px == in.px);
    CHECK(p.pt == in.pt);
}
