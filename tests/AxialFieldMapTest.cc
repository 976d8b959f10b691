// Solenoids and RF cavities from on-axis profiles, tracked through the paraxial field: Larmor
// angle and focal length of a finite solenoid, pillbox energy gain with its transit-time factor,
// and the transverse matrix of a standing-wave cavity (Rosenzweig-Serafini).
#include <doctest/doctest.h>

#include <cmath>
#include <functional>

#include "beam/AxialFieldMapBuilder.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "kernels/field/DormandPrince.hh"
#include "kernels/field/SolenoidField.hh"

using namespace gt;

namespace {

struct Built {
    std::vector<double> data;
    AxialMapSlices map;
};

//! A profile sampled from f at n points from z0 with spacing dz, built for `entry`.
Built build(std::function<double(double)> const& f, double z0, double dz, int n, bool rf, double frequency,
            double phase, ReferenceParticle const& entry, int slices = 1)
{
    AxialMapRequest r;
    r.profile.quantity = rf ? ProfileQuantity::electric : ProfileQuantity::magnetic;
    r.profile.z_first = z0;
    r.profile.dz = dz;
    for (int i = 0; i < n; ++i) r.profile.values.push_back(f(z0 + i * dz));
    r.rf = rf;
    r.frequency = frequency;
    r.phase = phase;
    r.slices = slices;
    Built b;
    b.map = build_axial_field_map(r, entry, b.data);
    return b;
}

Particle track(Built const& b, Particle p)
{
    for (AxialFieldMap const& s : b.map.slices) REQUIRE(s(p));
    return p;
}

double const deg = constants::pi / 180.0;

}  // namespace

TEST_CASE("finite solenoid from its on-axis map: Larmor angle and focal length against the exact field")
{
    // Solenoid of radius a, half length b, B0 = 0.5 T; a 50 MeV proton (B rho = 1.03 T m).
    double const b0 = 0.5, a = 0.05, b = 0.1, zmax = 0.6, dz = 1e-3;
    int const n = 1201;
    auto on_axis = [&](double z) {
        auto g = [&](double u) { return u / std::sqrt(u * u + a * a); };
        return 0.5 * b0 * (g(z + b) - g(z - b));
    };
    ReferenceParticle const proton = ReferenceParticle::from_kinetic(constants::proton_mass_mev, 1.0, 50.0);
    Built const one = build(on_axis, -zmax, dz, n, false, 0.0, 0.0, proton);
    double const r0 = 1e-3;
    Particle const out = track(one, Particle{r0, 0.0, 0.0, 0.0, 0.0, 0.0});

    // Larmor angle: the particle starts with zero canonical angular momentum, so it stays in a
    // meridional plane turning by -int K ds, K = B / (2 B rho) (paraxial theory, exact in it).
    double const integral =
        b0 * (std::sqrt((zmax + b) * (zmax + b) + a * a) - std::sqrt((zmax - b) * (zmax - b) + a * a));
    double const larmor = -integral / (2.0 * proton.rigidity);
    double const angle = std::atan2(out.y, out.x);
    CHECK(std::abs(angle / larmor - 1.0) <= 1e-3);

    // Reference: the exact 3D field (elliptic integrals) integrated by Dormand-Prince in 0.5 mm
    // steps, starting with the kinetic momentum that zero canonical momentum means at z = -zmax.
    SolenoidField exact;
    exact.b0 = b0;
    exact.radius = a;
    exact.half_length = b;
    double const p = proton.pc_mev;
    DormandPrince<SolenoidField> dp{exact, 1.0, p};
    double const kick = -p * 0.5 * on_axis(-zmax) / proton.rigidity * r0;  // P_y = -q A_theta
    OdeState y{Vec3{r0, 0.0, -zmax}, Vec3{0.0, kick, std::sqrt(p * p - kick * kick)}};
    OdeState err;
    double const h = 5e-4;
    while (y.pos.z + h * y.mom.z / p < zmax) y = dp.step(y, h, err);
    y = dp.step(y, (zmax - y.pos.z) * p / y.mom.z, err);
    double const r_exact = std::hypot(y.pos.x, y.pos.y);
    double const focal_exact = -r_exact / ((y.pos.x * y.mom.x + y.pos.y * y.mom.y) / (r_exact * y.mom.z));
    double const r_map = std::hypot(out.x, out.y);
    // Radial canonical momentum = radial kinetic momentum (A is azimuthal).
    double const pr_map = (out.x * out.px + out.y * out.py) / r_map;
    double const pz_map = std::sqrt(1.0 - out.px * out.px - out.py * out.py);
    double const focal_map = -r_map / (pr_map / pz_map);
    // 1e-3 (the bound): the map's errors are the spline (h^4 ~ 1e-12 of the field scale)
    // and RK4 in 1 mm steps; the third-order expansion adds (r/a)^2 ~ 4e-4 at most to Br.
    CHECK(std::abs(focal_map / focal_exact - 1.0) <= 1e-3);
    CHECK(std::abs(std::atan2(y.pos.y, y.pos.x) / angle - 1.0) <= 1e-3);
    // Thin-lens estimate 1/f = int K^2 ds, to see the focal length is the solenoid's (~86 m).
    CHECK(focal_map > 50.0);
    CHECK(focal_map < 150.0);

    // Four slices (canonical momenta across the interior boundaries) give the one-slice result.
    // Not to round-off: the spline's third derivative is piecewise constant, and an RK4 stage on a
    // knot takes it from either side depending on rounding; that term is (r/a)^2/16 ~ 2.5e-5 of
    // Br here, so the results agree to ~1e-6 of the transverse momentum.
    Built const four = build(on_axis, -zmax, dz, n, false, 0.0, 0.0, proton, 4);
    Particle const q = track(four, Particle{r0, 0.0, 0.0, 0.0, 0.0, 0.0});
    double const p_transverse = std::hypot(out.px, out.py);
    double const turned = r0 * std::abs(larmor);  // the displacement the rotation makes
    CHECK(std::abs(q.x - out.x) <= 1e-5 * turned);
    CHECK(std::abs(q.y - out.y) <= 1e-5 * turned);
    CHECK(std::abs(q.px - out.px) <= 1e-4 * p_transverse);
    CHECK(std::abs(q.py - out.py) <= 1e-4 * p_transverse);
    // Canonical angular momentum x py - y px stays zero (axial symmetry; the expanded field is
    // exactly the curl of the expanded A), up to RK4 through the same third-derivative jumps.
    CHECK(std::abs(out.x * out.py - out.y * out.px) <= 1e-4 * r0 * p_transverse);
    // The reference leaves as it came: same energy, exactly on time, on axis.
    CHECK(one.map.reference_after.back().kinetic_mev == 50.0);
    Particle const ref = track(four, Particle{0.0, 0.0, 0.0, 0.0, 0.0, 0.0});
    CHECK(ref.t == 0.0);
    CHECK(ref.pt == 0.0);
    CHECK(ref.x == 0.0);
}

TEST_CASE("pillbox TM010 from its on-axis field: energy gain V0 T cos(phase) with the transit-time factor")
{
    // Ez = E0 inside the gap |z| < g/2, 0 outside (the TM010 pillbox on axis); grid points at
    // half-spacing offsets so the edges fall between samples. A 1 GeV electron: its velocity
    // changes by ~1e-10 over the gap, so the constant-velocity transit-time factor
    // T = sin(pi g / (beta lambda)) / (pi g / (beta lambda)) applies (Wangler, RF Linear
    // Accelerators, eq. 2.43).
    double const e0 = 1e7, gap = 0.1, freq = 1.3e9, dz = 1e-4;
    int const n = 1400;
    double const z0 = -0.07 + 0.5 * dz;
    auto pillbox = [&](double z) { return std::abs(z) < 0.5 * gap ? e0 : 0.0; };
    ReferenceParticle const electron =
        ReferenceParticle::from_kinetic(constants::electron_mass_mev, -1.0, 1000.0);
    double const x = constants::pi * gap * freq / (electron.beta * constants::c_light);
    double const v0_t = e0 * gap * std::sin(x) / x * 1e-6;  // [MV]
    for (double phase : {0.0, -40.0 * deg, 25.0 * deg}) {
        Built const c = build(pillbox, z0, dz, n, true, freq, phase, electron);
        double const gain = c.map.reference_after.back().kinetic_mev - 1000.0;
        // 1e-4 (the bound on a fine map): the spline integrates the step like the
        // trapezoid rule with edges between samples, error O((k dz)^2) ~ 1e-5; RK4 in steps of
        // dz adds O((k dz)^4).
        CHECK(std::abs(gain / (v0_t * std::cos(phase)) - 1.0) <= 1e-4);
    }
}

TEST_CASE("standing-wave cavity: transverse matrix against Rosenzweig-Serafini for a relativistic electron")
{
    // Pi-mode standing wave Ez = E0 cos(k z) over 10 cells (L = 5 lambda), its ends smoothed over
    // 1 mm (w << lambda: the edge kick is the hard edge's). A 20 MeV electron gains ~11.5 MeV on
    // crest. Rosenzweig & Serafini, Phys. Rev. E 49 (1994) 1599, eq. 13 (its corrected form,
    // consistent with eq. 14), eta = 1:
    //   alpha = ln(gf/gi) / (sqrt(8) cos phi),  g' = (gf - gi) / L
    //   M11 = cos a - sqrt2 cos phi sin a           M12 = sqrt8 (gi/g') cos phi sin a
    //   M21 = -(g'/gf)(cos phi/sqrt2 + 1/(sqrt8 cos phi)) sin a   M22 = (gi/gf)(cos a + sqrt2 cos phi sin a)
    double const e0 = 2e7, freq = 1.3e9, w = 1e-3, pad = 0.01, dz = 5e-5;
    double const k = constants::two_pi * freq / constants::c_light;
    double const length = 10 * constants::pi / k;
    int const n = static_cast<int>(std::lround((length + 2 * pad) / dz)) + 1;
    auto standing = [&](double z) {
        return e0 * std::cos(k * z) * 0.25 * (1 + std::tanh(z / w)) * (1 + std::tanh((length - z) / w));
    };
    ReferenceParticle const electron = ReferenceParticle::from_kinetic(constants::electron_mass_mev, -1.0,
                                                                       39.0 * constants::electron_mass_mev);
    // On crest: with eta = 1 (a pure pi mode) the R-S matrix is exact only there (off crest eta
    // depends on the phase through the backward space harmonic).
    for (double phi : {0.0}) {
        Built const c = build(standing, -pad, dz, n, true, freq, phi, electron);
        ReferenceParticle const& after = c.map.reference_after.back();
        double const gi = electron.gamma, gf = after.gamma, gp = (gf - gi) / length;
        double const cp = std::cos(phi), s2 = std::sqrt(2.0), s8 = std::sqrt(8.0);
        double const al = std::log(gf / gi) / (s8 * cp);
        double const c11 = std::cos(al) - s2 * cp * std::sin(al), c12 = s8 * (gi / gp) * cp * std::sin(al);
        double const c21 = -(gp / gf) * (cp / s2 + 1.0 / (s8 * cp)) * std::sin(al);
        double const c22 = (gi / gf) * (std::cos(al) + s2 * cp * std::sin(al));
        // The map also holds the field-free pads before and after the cavity: drift . RS . drift.
        double const rs[2][2] = {{c11 + pad * c21, c11 * pad + c12 + pad * (c21 * pad + c22)},
                                 {c21, c21 * pad + c22}};
        double const dx = 1e-6, dpx = 1e-7;
        Particle const a = track(c, Particle{dx, 0.0, 0.0, 0.0, 0.0, 0.0});
        Particle const b = track(c, Particle{0.0, dpx, 0.0, 0.0, 0.0, 0.0});
        double const m[2][2] = {{a.x / dx, b.x / dpx}, {a.px / dx, b.px / dpx}};
        // 1% (the bound): R-S average over the RF period; the neglected oscillating terms
        // are of order 1/(k L) and the particle's slip against the wave (1/beta - 1) k L ~ 1e-2 rad.
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j) CHECK(std::abs(m[i][j] / rs[i][j] - 1.0) <= 1e-2);
    }
}
