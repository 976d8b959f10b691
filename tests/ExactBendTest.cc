// The exact sector-bend body (kernels/elements/ExactBend.hh): the closed-form polar map against an
// independent construction of the helix in Cartesian coordinates, the linear limit against the
// first-order SectorBend, the combined-function split steps, and the second-order edge's e = 0 terms.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "ElementTestSupport.hh"
#include "Relative.hh"
#include "kernels/elements/DipoleEdge.hh"
#include "kernels/elements/ExactBend.hh"
#include "kernels/elements/Misalignment.hh"
#include "kernels/elements/Quadrupole.hh"
#include "kernels/elements/SectorBend.hh"
#include "kernels/elements/ThickMultipole.hh"

using namespace gt;
using namespace gt::test;

namespace {

//! The particle's circle in the plane of the bend, built in Cartesian coordinates with the centre of
//! curvature of the reference at the origin and the entrance face on the +X axis (reference at
//! (rho, 0) moving along +Z, turning counter-clockwise): the particle's horizontal momentum q, radius
//! R = q rho, centre r0 + R n (n the unit vector 90 deg counter-clockwise from its direction), intersected
//! with the exit face, the ray at angle theta. No invariant and no formula of ExactBend.hh is used.
Vec6 helix(Vec6 z, double length, double angle, ReferenceParticle const& ref)
{
    if (angle < 0.0) {
        // A bend to the other side is the mirror image in x.
        z[0] = -z[0];
        z[1] = -z[1];
        Vec6 out = helix(z, length, -angle, ref);
        out[0] = -out[0];
        out[1] = -out[1];
        return out;
    }
    double const rho = length / angle, ib = 1.0 / ref.beta;
    double const pt = z[5], energy = ib - pt;
    double const p2 = 1.0 - 2.0 * pt * ib + pt * pt;
    double const pz = std::sqrt(p2 - z[1] * z[1] - z[3] * z[3]);
    double const q = std::sqrt(z[1] * z[1] + pz * pz), big_r = q * rho;
    double const r0x = rho + z[0], r0z = 0.0;
    double const ux = z[1] / q, uz = pz / q;  // direction along (e_r, e_t) = (X, Z) at the entrance
    double const cx = r0x - big_r * uz, cz = r0z + big_r * ux;
    double const ex = std::cos(angle), ez = std::sin(angle);
    double const b = ex * cx + ez * cz;
    double const lambda = b + std::sqrt(b * b - (cx * cx + cz * cz) + big_r * big_r);
    double const fx = lambda * ex, fz = lambda * ez;
    double const vx = -(fz - cz) / big_r, vz = (fx - cx) / big_r;  // counter-clockwise about the centre
    double const ax = r0x - cx, az = r0z - cz, bx = fx - cx, bz = fz - cz;
    double const swept = std::atan2(ax * bz - az * bx, ax * bx + az * bz);
    double const path = big_r * swept * std::sqrt(p2) / q;
    Vec6 out = z;
    out[0] = lambda - rho;
    out[1] = q * (vx * ex + vz * ez);
    out[2] = z[2] + z[3] / q * big_r * swept;
    out[4] = z[4] + path * energy / std::sqrt(p2) - length * ib;
    return out;
}

//! One second-order coefficient of MAD-X's SECTORMAP (T_ijk, symmetric in j, k: x_i += sum_jk T_ijk z_j z_k),
//! converted to gtrack's (t, pt) = -(MAD-X's T, PT) by the sign s_i s_j s_k.
struct TEntry {
    int i, j, k;
    double t;
};

// MAD-X 5.09.03 through cpymad: BEAM, PARTICLE = PROTON, PC = 2 (GeV); TWISS, SECTORMAP over one element.
// The edges are bends of 1e-7 m with the other face's fringe killed (their body adds ~1e-8).
// sbend, l=2, angle=0.3, k1=0.2, k2=0.7, kill_ent_fringe=true, kill_exi_fringe=true beta 0.9053245770160863
constexpr TEntry k_madx_body[] = {
    {0, 0, 0, -6.573490616717e-01}, {0, 0, 1, -3.279170378861e-01}, {0, 0, 5, -1.934243034781e-01},
    {0, 1, 1, -3.546163315076e-01}, {0, 1, 5, 8.180164544856e-01},  {0, 2, 2, 7.784300540048e-01},
    {0, 2, 3, 5.253159100283e-01},  {0, 3, 3, 3.657541236340e-01},  {0, 5, 5, -3.452842940582e-01},
    {1, 0, 0, -4.726294613677e-01}, {1, 0, 1, -5.111113677809e-01}, {1, 0, 5, 8.693628802212e-02},
    {1, 1, 1, -9.356804673715e-01}, {1, 1, 5, -8.452721632569e-02}, {1, 2, 2, 8.365607824278e-01},
    {1, 2, 3, 8.515808787316e-01},  {1, 3, 3, 9.219124190122e-01},  {1, 5, 5, 1.583296645177e-03},
    {2, 0, 2, 7.955980930585e-01},  {2, 0, 3, 6.235817280952e-01},  {2, 1, 2, 5.832258003090e-01},
    {2, 1, 3, 6.743543008251e-01},  {2, 2, 5, 1.995447537971e-01},  {2, 3, 5, 1.346062146126e+00},
    {3, 0, 2, 8.061951495412e-01},  {3, 0, 3, 6.897632747971e-01},  {3, 1, 2, 8.718362676503e-01},
    {3, 1, 3, 1.023074996465e+00},  {3, 2, 5, -6.848607630715e-02}, {3, 3, 5, 1.207339963150e-01},
    {4, 0, 0, -1.875691620265e-02}, {4, 0, 1, -1.988260541936e-01}, {4, 0, 5, 4.918702663802e-02},
    {4, 1, 1, 8.121748884761e-01},  {4, 1, 5, 5.319187760595e-02},  {4, 2, 2, 1.527514771426e-01},
    {4, 2, 3, 3.283139556471e-01},  {4, 3, 3, 1.466882075954e+00},  {4, 5, 5, 7.157928706778e-01},
};

// sbend, l=1e-7, angle=0.15e-7, e1=0.2, k1=3, fint=0.5, hgap=0.04, kill_exi_fringe=true beta
// 0.9053245770160863
constexpr TEntry k_madx_entrance[] = {
    {0, 0, 0, -3.081790618091e-03}, {0, 2, 2, 7.808179132097e-02},  {1, 0, 0, 6.081300624506e-01},
    {1, 0, 1, 3.081851659143e-03},  {1, 2, 2, -6.056622030416e-01}, {1, 2, 3, -3.081851666590e-03},
    {2, 0, 2, 3.081790853581e-03},  {3, 0, 2, -6.081300831015e-01}, {3, 0, 3, -3.081851887192e-03},
    {3, 1, 2, -7.808185188719e-02},
};

// sbend, l=1e-7, angle=0.15e-7, e2=0.2, k1=3, kill_ent_fringe=true beta 0.9053245770160863
constexpr TEntry k_madx_exit[] = {
    {0, 0, 0, 3.081851887190e-03},  {0, 2, 2, -7.808185188720e-02}, {1, 0, 0, 6.080363550432e-01},
    {1, 0, 1, -3.081790855508e-03}, {1, 2, 2, -6.082237905227e-01}, {1, 2, 3, 3.081791064813e-03},
    {2, 0, 2, -3.081851887192e-03}, {3, 0, 2, -6.057559104564e-01}, {3, 0, 3, 3.081791083555e-03},
    {3, 1, 2, 7.808179131160e-02},
};

//! T_ijk = (1/2) d^2 f_i / dz_j dz_k at the origin by central differences of step d (error ~d^2 times the
//! fourth derivative, ~1e-8 at d = 1e-4; rounding ~1e-16 |f| / d^2 < 1e-11).
template <class Map>
double second_derivative(Map const& map, int i, int j, int k, double d)
{
    double sum = 0.0;
    for (int a : {1, -1})
        for (int b : {1, -1}) {
            Vec6 z{};
            z[j] += a * d;
            z[k] += b * d;
            Particle p = to_particle(z);
            map(p);
            sum += a * b * to_vec(p)[i];
        }
    return 0.5 * sum / (4.0 * d * d);
}

template <class Map, std::size_t N>
void check_against_madx(Map const& map, TEntry const (&table)[N], double bound)
{
    double worst = 0.0;
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j)
            for (int k = j; k < 6; ++k) {
                double want = 0.0;
                for (TEntry const& e : table)
                    if (e.i == i && e.j == j && e.k == k) want = e.t;
                double const got = second_derivative(map, i, j, k, 1e-4);
                CAPTURE(i);
                CAPTURE(j);
                CAPTURE(k);
                CHECK(std::abs(got - want) < bound);
                worst = std::max(worst, std::abs(got - want));
            }
    MESSAGE("largest difference from MAD-X's T: " << worst);
}

ReferenceParticle proton_pc(double pc_mev)
{
    double const m = constants::proton_mass_mev;
    return proton(std::sqrt(pc_mev * pc_mev + m * m) - m);
}

Vec6 track(ExactBend const& b, Vec6 const& z)
{
    Particle p = to_particle(z);
    REQUIRE(b(p));
    return to_vec(p);
}

}  // namespace

// Both sides are double arithmetic of different formulas; the Cartesian one subtracts lambda - rho at
// rho = 8.6 m (and 2 m), losing ~1e-16 rho: 1e-13 absolute bounds both (measured below 1e-14).
TEST_CASE("exact dipole map equals the helix intersected with the exit face")
{
    for (double kinetic : {5.0, 250.0, 2e4}) {
        ReferenceParticle const ref = proton(kinetic);
        for (double angle : {0.35, -0.2, 1.2, 2.0}) {
            double const length = angle == 2.0 || angle == 1.2 ? 2.0 * std::abs(angle) : 3.0;
            ExactBend const b = ExactBend::make(length, angle, 0.0, 0.0, 0, ref);
            CHECK_FALSE(b.kicked);
            for (Vec6 z :
                 {Vec6{0, 0, 0, 0, 0, 0}, Vec6{3e-3, -2e-3, 1e-3, 4e-3, 1e-3, 2e-3},
                  Vec6{-2e-2, 5e-2, -1e-2, -3e-2, 0.0, -1e-2}, Vec6{1e-1, 1e-1, 0.0, 0.0, 0.0, -5e-3}}) {
                CAPTURE(kinetic);
                CAPTURE(angle);
                CAPTURE(z[0]);
                Vec6 const got = track(b, z), want = helix(z, length, angle, ref);
                for (int i = 0; i < 6; ++i) CHECK(std::abs(got[i] - want[i]) < 1e-13);
            }
        }
    }
}

// The first-order SectorBend is the linearization of the same Hamiltonian: the Jacobian of the exact map
// at the origin (centred differences at h = 1e-5 and h/2, Richardson-extrapolated: error ~1e-12) equals
// its matrix, for the combined-function bend too (its splitting leaves the linear part exact).
// 1e-10 bounds both. And the difference at amplitude a is quadratic: halving a divides it by 4 (+-10%).
TEST_CASE("exact bend: linear limit equals the first-order map, the rest is O(z^2)")
{
    ReferenceParticle const ref = proton(250.0);
    for (double k1 : {0.0, 0.8, -8.44}) {
        double const length = k1 == -8.44 ? 0.15 : 1.6, angle = k1 == -8.44 ? 4.5e-3 : 0.3;
        ExactBend const b = ExactBend::make(length, angle, k1, 0.0, 0, ref);
        SectorBend const lin = SectorBend::make(length, angle, k1, ref);
        CAPTURE(k1);
        Mat6 const m = jacobian([&](Particle& p) { return b(p); }, Vec6{}, 1e-5);
        Mat6 const r = matrix_of_linear_map([&](Particle& p) { return lin(p); });
        for (int i = 0; i < 6; ++i)
            for (int j = 0; j < 6; ++j) CHECK(std::abs(m[i][j] - r[i][j]) < 1e-10);
        Vec6 const dir{1.0, -0.5, 0.7, 0.3, 0.2, 0.6};
        double diff[2] = {0, 0};
        for (int k = 0; k < 2; ++k) {
            double const a = k == 0 ? 2e-4 : 1e-4;
            Vec6 z{};
            for (int i = 0; i < 6; ++i) z[i] = a * dir[i];
            Particle p = to_particle(z);
            lin(p);
            Vec6 const got = track(b, z), want = to_vec(p);
            for (int i = 0; i < 6; ++i) diff[k] = std::max(diff[k], std::abs(got[i] - want[i]));
        }
        CHECK(diff[0] / diff[1] == test::relative(4.0, 0.1));
    }
}

// The split steps converge to the exact flow as steps^-4 (the triple jump); with k1 = k2 = 0 the split is
// not used, and a straight magnet of angle 0 without k1, k2 is the exact drift.
TEST_CASE("exact bend: combined function converges at fourth order; zero angle is drift and kicks")
{
    ReferenceParticle const ref = proton(250.0);
    Vec6 const z{2e-3, -1e-3, 1e-3, 5e-4, 0.0, 1e-3};
    Vec6 const reference = track(ExactBend::make(1.6, 0.3, 0.8, 20.0, 256, ref), z);
    double err[2] = {0, 0};
    for (int k = 0; k < 2; ++k) {
        Vec6 const got = track(ExactBend::make(1.6, 0.3, 0.8, 20.0, k == 0 ? 4 : 8, ref), z);
        for (int i = 0; i < 6; ++i) err[k] = std::max(err[k], std::abs(got[i] - reference[i]));
    }
    CHECK(err[0] / err[1] == test::relative(16.0, 0.15));
    // angle 0, no kick: the exact drift, bit for bit.
    Particle p = to_particle(z), q = to_particle(z);
    REQUIRE(ExactBend::make(1.6, 0.0, 0.0, 0.0, 0, ref)(p));
    REQUIRE(Drift::make(1.6, DriftModel::exact, ref)(q));
    CHECK(p.x == q.x);
    CHECK(p.t == q.t);
}

// The combined-function body (k1, k2, curvature) against MAD-X's second-order map: 16 steps leave ~4e-7
// of the splitting error in the T terms (fourth order; 3e-2 at one step); the finite differences ~1e-8.
// Bound 2e-6 against terms up to 1.5.
TEST_CASE("exact combined-function bend: MAD-X's second-order map (T matrix)")
{
    ReferenceParticle const ref = proton_pc(2000.0);
    CHECK(ref.beta == test::relative(0.9053245770160863, 1e-9));
    ExactBend const b = ExactBend::make(2.0, 0.3, 0.2, 0.7, 16, ref);
    check_against_madx([&](Particle& p) { return b(p); }, k_madx_body, 2e-6);
}

// The edges' second-order terms are MAD-X's (its bend of 1e-7 m adds up to ~6e-8 to them): bound 1e-7.
TEST_CASE("second-order dipole edges: MAD-X's T matrix at the entrance and the exit")
{
    double const h = 0.15;
    DipoleEdge const in = DipoleEdge::make_second_order(h, 0.2, 0.5, 0.04, 3.0, false);
    DipoleEdge const out = DipoleEdge::make_second_order(h, 0.2, 0.0, 0.0, 3.0, true);
    check_against_madx([&](Particle& p) { return in(p); }, k_madx_entrance, 1e-7);
    check_against_madx([&](Particle& p) { return out(p); }, k_madx_exit, 1e-7);
}

// MAD-X's edge at e = 0 is the kinematic fringe x += g h y^2/2, py -= g h y px (g = +1 entrance,
// -1 exit): the exit undoes the entrance exactly when no body lies between.
TEST_CASE("second-order edge: the e = 0 terms, entrance and exit inverse to each other")
{
    double const h = 0.2;
    DipoleEdge const in = DipoleEdge::make_second_order(h, 0.0, 0.0, 0.0, 0.0, false);
    DipoleEdge const out = DipoleEdge::make_second_order(h, 0.0, 0.0, 0.0, 0.0, true);
    Particle p{3e-3, 2e-3, -4e-3, 1e-3, 0.0, 0.0};
    in(p);
    CHECK(p.x == test::relative(3e-3 + 0.5 * h * 16e-6, 1e-14));
    CHECK(p.py == test::relative(1e-3 - h * (-4e-3) * 2e-3, 1e-14));
    out(p);
    CHECK(std::abs(p.x - 3e-3) < 1e-18);
    CHECK(std::abs(p.py - 1e-3) < 1e-18);
}

// The body's other multipole components (BodyMultipoleKick) in a straight magnet (angle 0) are the magnet
// they describe: a skew gradient k1s is the quadrupole k1 = k1s rolled by -pi/4 (MAD-X's K1S; the exact
// quadrupole is the exact flow of its paraxial Hamiltonian, the split steps converge to it as steps^-4:
// 256 steps leave ~1e-15; the exact drift of the split against the paraxial one, ~theta^3 L ~ 1e-12 at
// 1e-4 rad: bound 1e-11).
TEST_CASE("exact bend: a straight body with a skew gradient is the rolled quadrupole")
{
    ReferenceParticle const ref = proton(250.0);
    double const k1s = 0.9, length = 1.2;
    double const kn[] = {0.0}, ksn[] = {0.0, k1s};
    ExactBend const b =
        ExactBend::make(length, 0.0, 0.0, 0.0, BodyMultipoleKick::make(kn, 1, ksn, 2), 256, ref);
    Quadrupole const q = Quadrupole::make(length, k1s, QuadrupoleModel::exact, 1, ref);
    Misalignment const roll = Misalignment::make(0.0, 0.0, -0.25 * 3.14159265358979323846);
    for (double pt : {0.0, 2e-3, -5e-3}) {
        CAPTURE(pt);
        Vec6 const z{1e-4, -5e-5, 3e-5, 8e-5, 0.0, pt};
        Particle p = to_particle(z), r = to_particle(z);
        REQUIRE(b(p));
        roll.enter(r);
        REQUIRE(q(r));
        roll.leave(r);
        CHECK(max_abs_difference(to_vec(p), to_vec(r)) < 1e-11);
        CHECK(std::abs(p.py - z[3]) > 1e-6);  // the skew gradient turned x into a vertical kick
    }
}

// Classical radiation acts in the body's kicks as in a thick multipole's (RadiatingKick): a straight body
// with a skew sextupole against the thick skew sextupole, both radiating at their kicks. Their step
// schedules differ (the bend's kicks sit between linear flows), both integrate the loss to third order in
// the step: 64 steps leave ~1e-9 of the loss (bound 1e-6 relative); without radiation pt does not change.
TEST_CASE("exact bend: the body's kicks radiate their field, as a thick multipole's")
{
    ReferenceParticle const ref = proton(250.0);
    double const k2s = 30.0, length = 0.4, c_rad = 1e-2;
    double const kn[] = {0.0}, ksn[] = {0.0, 0.0, k2s};
    ExactBend b = ExactBend::make(length, 0.0, 0.0, 0.0, BodyMultipoleKick::make(kn, 1, ksn, 3), 64, ref);
    ThickMultipole m = ThickMultipole::make(length, 2, 0.0, k2s, 64, ref);
    Vec6 const z{1e-2, 1e-3, -8e-3, 5e-4, 0.0, 1e-3};
    Particle quiet = to_particle(z);
    REQUIRE(b(quiet));
    CHECK(quiet.pt == z[5]);
    b.c_rad = c_rad;
    m.c_rad = c_rad;
    Particle p = to_particle(z), r = to_particle(z);
    REQUIRE(b(p));
    REQUIRE(m(r));
    double const loss = p.pt - z[5];
    CHECK(loss > 1e-9);  // pt grows as energy is lost
    CHECK(std::abs(loss / (r.pt - z[5]) - 1.0) < 1e-6);
}
