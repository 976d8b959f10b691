// Multiple Coulomb scattering of the accurate model (physics.msc_model = "moliere", the default):
// Molière's theory for the width of the central part, the screened-Rutherford single-scattering
// tail beyond it for e+-, and a Gaussian of Molière's central width for heavier particles (Lynch &
// Dahl's width, below, stays for comparison and tests).
//
// Sources (formulas only):
//  - G. Molière, Z. Naturforsch. 3a (1948) 78; H. A. Bethe, Phys. Rev. 89 (1953) 1256 (B.), eqs.
//    (22)-(27): chi_c^2 = 4 pi N t e^4 Z(Z+1) z^2 / (p v)^2 (the probability of one scattering beyond
//    chi_c is 1), the screening angle chi_a^2 = chi_0^2 (1.13 + 3.76 alpha'^2), chi_0 = hbar / (p a_TF),
//    a_TF = 0.885 a_0 Z^-1/3, alpha' = z Z alpha / beta; Omega = chi_c^2 / (1.167 chi_a^2), B from
//    B - ln B = ln Omega; the angular distribution f(theta) = f0 + f1 / B + ... in
//    vartheta = theta / (chi_c sqrt(B)), f0 = 2 exp(-vartheta^2).
//  - Compounds: ln chi_a^2 averaged with the weights Z(Z+1)/A of chi_c^2 (Lynch & Dahl, below, eq. 7).
//  - V. L. Highland, NIM 129 (1975) 497; G. R. Lynch and O. I. Dahl, NIM B58 (1991) 6, eq. (8):
//    theta_0^2 = chi_c^2 / (1 + F^2) [(1 + nu) / nu ln(1 + nu) - 1], nu = Omega / (2 (1 - F)), with
//    F = 0.98 the central fraction fitted: the plane width to 2% over 1e-3 .. 100 X0, every z and beta.
//  - The transport mean free path of the screened Rutherford cross section (Wentzel's form, e.g.
//    J. M. Fernández-Varea et al., NIM B73 (1993) 447, eq. 20 with A = chi_a^2 / 4):
//    t / lambda_1 = (chi_c^2(t) / 2) [ln(1 + 1/A) - 1 / (1 + A)].
//
// The 1/e width of Molière's distribution per solid angle (what Hanson et al. measured, Phys. Rev.
// 84 (1951) 634): f0 + f1/B falls to 1/e of its value at 0 at vartheta_e^2 = 1 - delta(B)/B, with
// f1 from its integral (Bethe eq. 25) evaluated numerically: delta = 0.942, 1.008, 1.041, 1.075,
// 1.102 at B = 4, 6, 8, 12, 20, which delta(B) = 1.142 - 0.8 / B reproduces to 0.003 (an error of
// 0.04% in the width at B = 6). So theta_1/e^2 = chi_c^2 (B - 1.142 + 0.8 / B).
#pragma once

#include <cstdint>

#include "kernels/core/PortableMath.hh"
#include "kernels/physics/MaterialParams.hh"
#include "kernels/physics/ParticleType.hh"

namespace gt {

//! k_msc_moliere_all: Molière's model for shower e+- too, with the transport mean free path of their
//! path-length correction and step limit (Highland's, msc_lambda1 in kernels/detector/StepActions.hh).
enum MscModel : std::int32_t { k_msc_highland = 0, k_msc_moliere = 1, k_msc_moliere_all = 2 };

//! Molière's two angles for a thickness of 1 m of a material: chi_c^2 [rad^2 / m] (proportional to
//! the thickness) and ln chi_a^2 (independent of it).
struct MoliereAngles {
    double chic2_per_m = 0;
    double ln_chia2 = 0;
};

GT_HOST_DEVICE inline MoliereAngles moliere_angles(MaterialParams const& m, ParticleType const& pt, double T)
{
    double const E = T + pt.mass;
    double const p2 = T * (T + 2.0 * pt.mass);
    double const beta2 = p2 / (E * E);
    double const pbeta = p2 / E;  // p v / c [MeV]
    double const z2 = pt.charge * pt.charge;
    // 4 pi N_A (r_e m_e c^2)^2 = 0.156914 MeV^2 cm^2 / g; t [g/cm^2] = 0.1 rho [kg/m^3] x [m]
    MoliereAngles a;
    a.chic2_per_m = 0.0156914 * m.density * m.msc_zz1_over_a * z2 / (pbeta * pbeta);
    // (hbar c / (0.88534 a_0))^2 = 1.77398e-5 MeV^2; alpha^2 = 5.32514e-5
    a.ln_chia2 = pmath::log(1.77398e-5 / p2) + m.msc_ln_z23 +
                 pmath::log(1.13 + 3.76 * 5.32514e-5 * z2 * m.msc_z2 / beta2);
    return a;
}

//! B of B - ln B = b (Newton's method from b + ln b, five fixed iterations; b >= 2).
GT_HOST_DEVICE inline double moliere_b(double b)
{
    double B = b + pmath::log(b);
    for (int it = 0; it < 5; ++it) B -= (B - pmath::log(B) - b) / (1.0 - 1.0 / B);
    return B;
}

//! Below Omega = e^2 (a few collisions) Molière's expansion does not hold; the width there is
//! proportional to the thickness with B's value at Omega = e^2, continuous with the theory above.
inline constexpr double k_moliere_b_min = 2.0;

//! The tail of e+- starts at least beyond the central width of a layer of this many lambda_1.
inline constexpr double k_moliere_tail_depth = 0.03;

//! theta_1/e^2 of Molière's distribution per solid angle for chi_c^2 (the thickness) [rad^2].
GT_HOST_DEVICE inline double moliere_core_sq(double chic2, double ln_chia2)
{
    if (chic2 <= 0) return 0.0;
    double b = pmath::log(chic2 / 1.167) - ln_chia2;
    b = b > k_moliere_b_min ? b : k_moliere_b_min;
    double const B = moliere_b(b);
    return chic2 * (B - 1.142 + 0.8 / B);
}

//! Lynch & Dahl's plane width theta_0^2 for chi_c^2 [rad^2] (F = 0.98).
GT_HOST_DEVICE inline double lynch_dahl_theta0_sq(double chic2, double ln_chia2)
{
    if (chic2 <= 0) return 0.0;
    double const F = 0.98;
    double const omega = chic2 / 1.167 * pmath::exp(-ln_chia2);
    double const nu = 0.5 * omega / (1.0 - F);
    double const g = nu < 1.0e-6 ? 0.5 * nu : (1.0 + nu) / nu * pmath::log(1.0 + nu) - 1.0;
    return chic2 / (1.0 + F * F) * g;
}

//! The transport mean free path lambda_1 [m] of the screened Rutherford cross section.
GT_HOST_DEVICE inline double moliere_lambda1(MoliereAngles const& a)
{
    double const A = 0.25 * pmath::exp(a.ln_chia2);
    double const per_m = 0.5 * a.chic2_per_m * (pmath::log(1.0 + 1.0 / A) - 1.0 / (1.0 + A));
    return per_m > 0 ? 1.0 / per_m : HUGE_VAL;
}

//! The inverse of the Langevin function L(a) = coth(a) - 1/a, the mean of cos(theta) under the
//! density exp(a cos theta) on [-1, 1]: a with L(a) = m, 0 < m < 1. Above a = 20, coth(a) = 1 to
//! 1e-17, so a = 1/(1 - m); below, Newton's method from the approximation m (3 - m^2) / (1 - m^2)
//! (Cohen 1991), a fixed six iterations (the same operations on every backend).
GT_HOST_DEVICE inline double inverse_langevin(double m)
{
    if (m <= 0) return 0.0;
    if (1.0 - m < 0.05) return 1.0 / (1.0 - m);
    double a = m * (3.0 - m * m) / (1.0 - m * m);
    for (int it = 0; it < 6; ++it) {
        if (a < 1.0e-4) {  // L(a) = a/3 - a^3/45 there
            a = 3.0 * m;
            break;
        }
        double sh, ch;
        pmath::sinhcosh(a, sh, ch);
        double const g = ch / sh - 1.0 / a - m;
        double const dg = 1.0 / (a * a) - 1.0 / (sh * sh);
        a -= g / dg;
        if (a < 1.0e-4) a = 1.0e-4;
    }
    return a;
}

//! 1 - <cos theta> of exp(-a (1 - cos theta)) on [-1, 1]: 1 - L(a), L the Langevin function.
GT_HOST_DEVICE inline double one_minus_langevin(double a)
{
    if (a > 20.0) return 1.0 / a;  // coth(a) = 1 to 1e-17
    if (a < 1.0e-4) return 1.0 - a / 3.0;
    double sh, ch;
    pmath::sinhcosh(a, sh, ch);
    return 1.0 - ch / sh + 1.0 / a;
}

//! The polar angle of an e+- after a step: a central part exp(-a (1 - cos theta)) of 1/e width
//! theta_c (a = 2 / theta_c^2), and with probability w the single-scattering tail beyond it,
//! density 1/(1 - cos theta + d)^2 (d = chi_a^2 / 2, the screened Rutherford form) for
//! 1 - cos theta >= theta_c^2 (beyond sqrt(2) theta_c, where the central part has fallen to e^-2),
//! w such that <1 - cos theta> = 1 - exp(-t / lambda_1), the transport mean free path's (the
//! structure of Urban's model, Geant4 Physics Reference Manual, "Multiple scattering": a central
//! part and a tail whose weights give the moment of Goudsmit-Saunderson / Lewis theory). Where the
//! central part alone is wider than the mean allows (thick steps), it takes a with 1 - L(a) = that
//! mean (inverse_langevin) and no tail. Returns cos theta; u_mix, u_cos: uniform numbers.
GT_HOST_DEVICE inline double moliere_sample_cos(double core_sq, double layer_sq, double tau, double chia2,
                                                double u_mix, double u_cos)
{
    double const M = tau < 1.0e-6 ? tau * (1.0 - 0.5 * tau) : 1.0 - pmath::exp(-(tau < 30.0 ? tau : 30.0));
    double a = core_sq > 0 ? 2.0 / core_sq : 1.0e30;
    double const m1 = one_minus_langevin(a);
    double w = 0;
    double const wm = layer_sq > core_sq ? layer_sq : core_sq;
    if (M < m1) {
        a = inverse_langevin(1.0 - M);
    } else if (wm < 1.0) {
        double const d = 0.5 * chia2;
        double const a1 = 1.0 / (wm + d), a2 = 1.0 / (2.0 + d);
        double const m3 = (pmath::log((2.0 + d) / (wm + d)) + d * (a2 - a1)) / (a1 - a2);
        w = m3 > m1 ? (M - m1) / (m3 - m1) : 0.0;
        w = w < 1.0 ? w : 1.0;
        if (u_mix < w) {
            // inversion of the tail's distribution on [wm, 2] in 1 - cos theta
            double const v = 1.0 / (a1 - (u_mix / w) * (a1 - a2)) - d;
            double const c = 1.0 - v;
            return c < -1.0 ? -1.0 : (c > 1.0 ? 1.0 : c);
        }
    }
    double const c = a < 1.0e-6 ? 2.0 * u_cos - 1.0
                                : 1.0 + pmath::log(u_cos + (1.0 - u_cos) * pmath::exp(-2.0 * a)) / a;
    return c < -1.0 ? -1.0 : (c > 1.0 ? 1.0 : c);
}

}  // namespace gt
