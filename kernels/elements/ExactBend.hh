// Sector bend body, exact model: the exact map of a uniform dipole field in the curved frame
// (closed form), and for a combined-function bend (k1, k2) a symplectic splitting whose linear part is
// exact at every momentum. The first-order model stays in SectorBend.hh.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "kernels/core/FusedMultiplyAdd.hh"
#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/PortableMath.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "kernels/elements/Drift.hh"
#include "kernels/elements/MapSupport.hh"
#include "kernels/elements/Multipole.hh"
#include "kernels/elements/SynchrotronRadiation.hh"

namespace gt {

//! atan(u) from + - * / and sqrt only (so the CPU and GPU round alike, like PortableMath.hh): three
//! half-angle steps atan(u) = 2 atan(u / (1 + sqrt(1 + u^2))) take |u| <= 1 below tan(pi/16) / 2 < 0.1,
//! where the alternating series to u^19 leaves < 0.1^21 / 21, below half an ulp. |u| > 1 goes through
//! atan(u) = sign(u) pi/2 - atan(1/u). Accuracy: a few ulp.
template <class T>
GT_HOST_DEVICE inline T bend_atan(T u)
{
    double const half_pi = 1.5707963267948966192;
    auto const inverted = u > 1.0 || u < -1.0;
    T v = select(inverted, 1.0 / u, u);
    for (int i = 0; i < 3; ++i) v = v / (1.0 + sqrt_rn(1.0 + v * v));
    T const v2 = v * v;
    T sum = 1.0 / 19.0;
    for (int n = 17; n >= 1; n -= 2) sum = 1.0 / n - v2 * sum;
    T const a = 8.0 * v * sum;
    return select(inverted, select(u > 0.0, T(half_pi), T(-half_pi)) - a, a);
}

//! One arc of the reference orbit through a uniform field: length l, angle theta = h l (either
//! sign of l: the split steps have negative ones), and what the map needs of it, on the host.
struct BendArc {
    double length;   //!< [m] l
    double sin_a;    //!< sin(theta)
    double cos_a;    //!< cos(theta)
    double h_sin_a;  //!< [1/m] h sin(theta)
    double sin_a_h;  //!< [m] sin(theta) / h
    double omc_h;    //!< [m] (1 - cos theta) / h

    static BendArc make(double length, double h)
    {
        double const theta = h * length;
        double const half = std::sin(0.5 * theta);
        BendArc a;
        a.length = length;
        a.sin_a = std::sin(theta);
        a.cos_a = std::cos(theta);
        a.h_sin_a = h * a.sin_a;
        a.sin_a_h = theta != 0.0 ? length * (a.sin_a / theta) : length;
        a.omc_h = theta != 0.0 ? length * (2.0 * half * half / theta) : 0.0;
        return a;
    }
};

//! Exact map of H = -(1 + h x) sqrt(P^2 - px^2 - py^2) + h x + h^2 x^2 / 2 - pt/beta over one arc, with
//! P^2 = 1 - 2 pt/beta + pt^2: the particle runs on a helix through the uniform field of the bend
//! (Forest, Beam Dynamics: A New Attitude, ch. 12, the sector bend in polar coordinates; the Bmad manual,
//! "sbend" exact tracking). Derivation: the horizontal momentum p = (px, pz) minus h J r (r the position
//! from the centre of curvature, J the rotation by +90 deg) is constant, so in the exit frame, turned by
//! theta,  px' = px cos(theta) + (pz - 1 - h x) sin(theta),  pz' = sqrt(P^2 - py^2 - px'^2),
//!   x' = x cos(theta) - (1 - cos theta)/h + (sin(theta)/h + x sin(theta)) (2A - B) / (pz' + pz cos(theta) -
//!   px sin(theta))
//! with A = px cos(theta) + pz sin(theta), B = (1 + h x) sin(theta): the form of (pz' - 1 - ...)/h without
//! the cancellation of small bends (pz'^2 - (pz cos - px sin)^2 = B (2A - B)). The momentum turns by theta +
//! dphi, dphi = atan2(px pz' - px' pz, pz pz' + px px'); the path is P (theta + dphi)/h, so
//!   y' = y + py (L + dphi/h),   t' = t + (1/beta - pt) dphi/h - pt L.
//! Lost (false) when pz or pz' is not real (the particle turns back or cannot reach the exit face).
//! Checked against MAD-X's second-order map (R and T of SBEND without fringe fields) to 1e-9 and
//! against the first-order model to O(z^2) in tests/ExactBendTest.cc.
template <class P, class M = bool>
GT_HOST_DEVICE inline auto bend_arc(P& p, BendArc const& a, double h, double inv_h, double inv_beta,
                                    M live = true)
{
    using T = coordinate_t<P>;
    T const pt = p.pt;
    T const energy = inv_beta - pt;
    T const p2 = momentum_squared(pt, inv_beta);
    T const pxy2 = p2 - p.py * p.py;
    T const pz2 = pxy2 - p.px * p.px;
    auto ok = live && pz2 > 0.0 && energy > 0.0;
    if (none_left(ok)) return ok;
    T const x = p.x, px = p.px;
    T const pz = sqrt_rn(pz2);
    T const big_a = px * a.cos_a + pz * a.sin_a;
    T const big_b = a.sin_a + x * a.h_sin_a;
    T const pxf = big_a - big_b;
    T const pzf2 = pxy2 - pxf * pxf;
    ok = ok && pzf2 > 0.0;
    if (none_left(ok)) return ok;
    T const pzf = sqrt_rn(pzf2);
    T xf = 0.0;
    if (a.cos_a > 0.0) {
        T const den = pzf + pz * a.cos_a - px * a.sin_a;
        xf = x * a.cos_a - a.omc_h + (a.sin_a_h + x * a.sin_a) * (2.0 * big_a - big_b) / den;
    } else {
        // Beyond 90 degrees the denominator above can vanish; here the direct form has no cancellation to
        // fear.
        xf = (pzf - 1.0 + px * a.sin_a - (pz - 1.0 - h * x) * a.cos_a) * inv_h;
    }
    T const num = px * pzf - pxf * pz;
    T const den = pz * pzf + px * pxf;
    double const pi = 3.14159265358979323846;
    T dphi = bend_atan(num / den);
    // turned by more than 90 degrees
    dphi = select(!(den > 0.0), dphi + select(num >= 0.0, T(pi), T(-pi)), dphi);
    T const dphi_h = dphi * inv_h;
    where(ok, p.x, xf);
    where(ok, p.px, pxf);
    where(ok, p.y, p.y + p.py * (a.length + dphi_h));
    where(ok, p.t, p.t + (energy * dphi_h - pt * a.length));
    return ok;
}

//! Exact flow over a length l (either sign) of the transverse expansion of the bend's Hamiltonian to
//! second order at each particle's own momentum P (exact in pt):
//!   H2 = (px^2 + py^2)/(2P) - h x (P - 1) + (h^2 + k1) x^2/2 - k1 y^2/2 - P - pt/beta.
//! With x' = px/P: x'' = -K x + f, K = (h^2 + k1)/P, f = h (P - 1)/P, solved by the principal
//! trajectories C, S of K and D = int S = (1 - C)/K, F = int D = (l - S)/K (series where K l^2 is
//! small); y'' = (k1/P) y. The path term dt/ds = (E/P)(1 + h x + (x'^2 + y'^2)/2) - 1/beta (E = 1/beta - pt)
//! integrates with int x ds = S x0 + D x0' + F f and int x'^2 ds = ([x x'] + e_x l + f int x ds)/2, where
//! e_x = x'^2 + K x^2 - 2 f x is conserved (from d(x x')/ds = 2 x'^2 - e_x - f x); the same for y with f = 0
//! (the chromatic quadrupole's integrals, Quadrupole.hh, with the bend's dispersion added).
GT_HOST_DEVICE inline bool bend_linear_flow(Particle& p, double l, double h, double k1, double inv_beta,
                                            double inv_beta_gamma2)
{
    double const pt = p.pt;
    double const energy = inv_beta - pt;
    double const p2 = momentum_squared(pt, inv_beta);
    if (!(p2 > 0.0) || !(energy > 0.0)) return false;
    double const pn = pmath::sqrt(p2);
    double const inv_pn = 1.0 / pn;
    double const kx = (h * h + k1) * inv_pn;
    double const ky = -k1 * inv_pn;
    // f = h (P - 1)/P with P - 1 = (P^2 - 1)/(P + 1) free of cancellation.
    double const f = h * ((pt * pt - 2.0 * pt * inv_beta) / (pn + 1.0)) * inv_pn;
    Focusing const gx = focusing(kx, l);
    Focusing const gy = focusing(ky, l);
    double d = 0.0, ff = 0.0;
    double const u = -kx * l * l;
    if (u < 0.1 && u > -0.1) {
        // sum_n u^n / (2n+2)! and u^n / (2n+3)!, as SectorBend::make: (1 - C)/K and (l - S)/K cancel here.
        double const l2 = l * l;
        d = l2 * (1.0 / 2 +
                  u * (1.0 / 24 +
                       u * (1.0 / 720 + u * (1.0 / 40320 + u * (1.0 / 3628800 + u * (1.0 / 479001600))))));
        ff = l2 * l *
             (1.0 / 6 +
              u * (1.0 / 120 +
                   u * (1.0 / 5040 + u * (1.0 / 362880 + u * (1.0 / 39916800 + u * (1.0 / 6227020800.0))))));
    } else {
        d = (1.0 - gx.c) / kx;
        ff = (l - gx.s) / kx;
    }
    double const x0 = p.x, xp0 = p.px * inv_pn, y0 = p.y, yp0 = p.py * inv_pn;
    double const x1 = gx.c * x0 + gx.s * xp0 + d * f;
    double const xp1 = gx.c_prime * x0 + gx.c * xp0 + gx.s * f;
    double const y1 = gy.c * y0 + gy.s * yp0;
    double const yp1 = gy.c_prime * y0 + gy.c * yp0;
    double const int_x = gx.s * x0 + d * xp0 + ff * f;
    double const ex = xp0 * xp0 + kx * x0 * x0 - 2.0 * f * x0;
    double const ey = yp0 * yp0 + ky * y0 * y0;
    double const ixx = 0.5 * ((x1 * xp1 - x0 * xp0) + ex * l + f * int_x);
    double const iyy = 0.5 * ((y1 * yp1 - y0 * yp0) + ey * l);
    // (1/beta - pt)/P - 1/beta without cancellation (see drift_exact).
    double const dt_ds = (2.0 * pt * inv_beta - pt * pt) * inv_beta_gamma2 / (pn * (energy + pn * inv_beta));
    p.x = x1;
    p.px = pn * xp1;
    p.y = y1;
    p.py = pn * yp1;
    p.t += l * dt_ds + energy * inv_pn * (h * int_x + 0.5 * (ixx + iyy));
    return true;
}

//! The third-order field terms of a combined-function bend as a thin kick over a length l. The field of
//! the curved magnet comes from the potential (1 + h x) A_s / (B rho) =
//!   h x + (h^2 + k1) x^2/2 - k1 y^2/2 + (k2 + 2 h k1) x^3/6 - (k2 + h k1) x y^2/2 + O(4),
//! whose midplane field is B rho (h + k1 x + k2 x^2/2) and which satisfies Maxwell's equations in the
//! curved frame to this order (the Laplacian with the metric 1 + h x). The terms up to x^2 are in
//! bend_arc and bend_linear_flow; the cubic ones are this kick. They are MAD-X's SBEND second-order
//! terms (checked against its T matrix, tests/python/optics_madx_test.py).
struct CurvedMultipoleKick {
    double c3x;  //!< [1/m^3] (k2 + 2 h k1) / 2
    double c3y;  //!< [1/m^3] (k2 + h k1) / 2

    GT_HOST_DEVICE GT_FORCEINLINE void operator()(Particle& p, double l) const
    {
        double const x = p.x, y = p.y;
        p.px -= l * (c3x * x * x - c3y * y * y);
        p.py += l * (2.0 * c3y * x * y);
    }
};

//! The multipole components of the body beyond the curved field of k1 and k2 (skew components, orders
//! above the sextupole, a dipole kick): the straight multipole field per unit length of the reference orbit,
//!   by + i bx = sum_n (a_n + i b_n)(x + i y)^n,  a_n = kn / n!,  b_n = ksn / n!,
//! the field of MAD-X's MULTIPOLE (Multipole.hh) spread over the body: the kick over a length l is
//! px -= l by, py += l bx (the convention of MAD-X-PTC's bend multipoles, which sum KNL / L and K1, K1S, K2S,
//! K3, K3S into one body field: madx_ptc_module.f90, SBEND). No curvature correction to these components
//! (their potential is not made to satisfy Maxwell's equations in the curved frame beyond the k1, k2 terms):
//! such a correction is of the order h x relative to the component itself, a term of one order higher;
//! MAD-X's MAKETHIN slices of a bend kick the same straight field. The one exception is the normal dipole
//! component a_0, a uniform vertical field, whose exact kick in the curved frame is px -= l a_0 (1 + h x)
//! (the potential a_0 (x + h x^2/2), as the bend's own field h: ExactBend); with it the closed orbit of a
//! dipole error in the body is PTC's (tests/python/bend_multipoles_madx_test.py). Evaluated by the complex
//! Horner scheme of Multipole.hh (the same operations).
struct BodyMultipoleKick {
    double normal[k_multipole_terms];  //!< [1/m^(n+1)] a_n = kn / n! (per unit length)
    double skew[k_multipole_terms];    //!< [1/m^(n+1)] b_n = ksn / n!
    double h_a0;                       //!< [1/m^2] h a_0: the dipole component's curvature term
    std::int32_t terms;                //!< highest order with a non-zero coefficient + 1 (0: none)

    //! Host: from the strengths per unit length kn, ksn (kn[n] of order n, n! not divided out) in a body of
    //! curvature h [1/m].
    static BodyMultipoleKick make(double const* kn, int n_kn, double const* ksn, int n_ksn, double h = 0.0)
    {
        // Multipole's coefficients (kn / n!, ksn / n!, the highest order), per unit length here.
        Multipole const field = Multipole::make(kn, n_kn, ksn, n_ksn);
        BodyMultipoleKick m;
        for (int n = 0; n < k_multipole_terms; ++n) {
            m.normal[n] = field.normal[n];
            m.skew[n] = field.skew[n];
        }
        m.terms = field.terms;
        m.h_a0 = h * m.normal[0];
        return m;
    }

    //! by (re) and bx (im) at (x, y); terms > 0.
    GT_HOST_DEVICE GT_FORCEINLINE void field(double x, double y, double& re, double& im) const
    {
        re = normal[terms - 1];
        im = skew[terms - 1];
        for (int n = terms - 2; n >= 0; --n) {
            double const r = fma_rn(re, x, fma_rn(-im, y, normal[n]));
            im = fma_rn(re, y, fma_rn(im, x, skew[n]));
            re = r;
        }
    }

    //! The kick integrated over a length l (any sign: the split steps' middle one is negative).
    GT_HOST_DEVICE GT_FORCEINLINE void operator()(Particle& p, double l) const
    {
        if (terms == 0) return;
        double re = 0.0, im = 0.0;
        field(p.x, p.y, re, im);
        p.px = fma_rn(-l, fma_rn(h_a0, p.x, re), p.px);
        p.py = fma_rn(l, im, p.py);
    }
};

//! The exact sector-bend body. Without gradient and sextupole: one arc over the whole length, the exact
//! map (bend_arc), no splitting. With k1 or k2 the Hamiltonian H = E + k1 (x^2 - y^2)/2 + V3 (E the dipole's,
//! V3 the cubic field) is split as H = A + (E - Q) + V3 with A = Q + k1 (x^2 - y^2)/2 and Q the
//! second-order expansion of E at the particle's momentum (A and Q: bend_linear_flow with k1 and with 0).
//! E - Q starts at third order, and its flow is taken as Q(-l/2) E(l) Q(-l/2), whose linear part is the
//! identity: so the linear map of every step is A's, exact at every momentum (tunes, beta and the
//! chromatic terms T_ij6 carry no splitting error), and the splitting error is in the geometric
//! second-order terms only. One step: A(l/2) V3(l/2) [Q(-l/2) E(l) Q(-l/2)] V3(l/2) A(l/2), second
//! order and symmetric, composed as Yoshida's triple jump (w1, w0, w1) l for fourth order: symplectic,
//! the error of the second-order terms falling as steps^-4 (measured against MAD-X's T matrix: 5e-6
//! of its largest term for BESSY III's gradient bends with one step). A straight magnet (angle 0) uses
//! the exact drift for E. The body's other multipole components (BodyMultipoleKick: skew quadrupole and
//! sextupole, octupole, any order of a MAD-X KNL, KSL) are kicked with V3, so a skew gradient's linear
//! part is split too (its error falls as steps^-4 like the second-order terms').
struct ExactBend {
    double length;           //!< [m]
    double angle;            //!< [rad]
    double h;                //!< [1/m] angle / length
    double inv_h;            //!< [m] length / angle (0 for a straight magnet)
    double k1;               //!< [1/m^2]
    double k2;               //!< [1/m^3]
    double inv_beta;         //!< [1]
    double inv_beta_gamma2;  //!< [1]
    BendArc whole;           //!< the whole length (no gradient or sextupole)
    BendArc half_arc;        //!< half of it (radiation: Simpson's points)
    BendArc arc_outer;       //!< w1 l
    BendArc arc_middle;      //!< w0 l
    double step_outer;       //!< [m] w1 l
    double step_middle;      //!< [m] w0 l (negative)
    CurvedMultipoleKick kick;
    BodyMultipoleKick body;  //!< the other multipole components of the body (terms 0: none)
    std::int32_t steps;
    bool kicked;                //!< k1, k2 or a body multipole non-zero: the split steps
    double c_rad;               //!< [m] radiation constant (SynchrotronRadiation.hh); 0: no radiation
    QuantumExcitation quantum;  //!< its fluctuation (`radiation = "quantum"`); c_q = 0: none

    //! Steps for a combined-function bend when the deck gives none: one per 0.25 of sqrt|k1| L,
    //! cbrt|k2| L and the angle (the triple jump's error in the second-order terms is then below ~1e-5 of
    //! their size; tests/python/optics_madx_test.py), and of |kn|^(1/(n+1)) L for the body's other
    //! components of order n (|k0| L for a dipole kick).
    static std::int32_t default_steps(double length, double angle, double k1, double k2,
                                      BodyMultipoleKick const* body = nullptr)
    {
        double scale =
            std::max({std::sqrt(std::abs(k1)) * length, std::cbrt(std::abs(k2)) * length, std::abs(angle)});
        if (body != nullptr) {
            double factorial = 1.0;
            for (int n = 0; n < body->terms; ++n) {
                if (n > 0) factorial *= static_cast<double>(n);
                double const k = std::hypot(body->normal[n], body->skew[n]) * factorial;
                scale = std::max(scale, std::pow(k, 1.0 / (n + 1)) * length);
            }
        }
        return static_cast<std::int32_t>(std::clamp(std::ceil(scale / 0.25), 1.0, 1000.0));
    }

    static ExactBend make(double length, double angle, double k1, double k2, std::int32_t steps,
                          ReferenceParticle const& ref)
    {
        return make(length, angle, k1, k2, BodyMultipoleKick::make(nullptr, 0, nullptr, 0), steps, ref);
    }

    //! With the body's other multipole components (BodyMultipoleKick).
    static ExactBend make(double length, double angle, double k1, double k2, BodyMultipoleKick const& body,
                          std::int32_t steps, ReferenceParticle const& ref)
    {
        ExactBend b;
        b.length = length;
        b.angle = angle;
        b.h = angle / length;
        b.inv_h = angle != 0.0 ? length / angle : 0.0;
        b.k1 = k1;
        b.k2 = k2;
        b.inv_beta = 1.0 / ref.beta;
        b.inv_beta_gamma2 = 1.0 / (ref.beta_gamma * ref.beta_gamma);
        b.body = body;
        b.kicked = k1 != 0.0 || k2 != 0.0 || body.terms > 0;
        b.c_rad = 0.0;
        b.quantum = QuantumExcitation::none();
        b.steps = b.kicked ? (steps > 0 ? steps : default_steps(length, angle, k1, k2, &body)) : 1;
        // Yoshida's triple jump: w1 = 1 / (2 - 2^(1/3)), w0 = 1 - 2 w1 (MapSupport.hh, SplitSteps).
        double const cbrt2 = 1.2599210498948731647672106;
        double const w1 = 1.0 / (2.0 - cbrt2), w0 = 1.0 - 2.0 * w1;
        double const l = length / static_cast<double>(b.steps);
        b.step_outer = w1 * l;
        b.step_middle = w0 * l;
        b.whole = BendArc::make(length, b.h);
        b.half_arc = BendArc::make(0.5 * length, b.h);
        b.arc_outer = BendArc::make(b.step_outer, b.h);
        b.arc_middle = BendArc::make(b.step_middle, b.h);
        b.kick = CurvedMultipoleKick{0.5 * (k2 + 2.0 * b.h * k1), 0.5 * (k2 + b.h * k1)};
        return b;
    }

    //! The dipole's exact map over one arc (an exact drift when the magnet is straight).
    //! One particle or the particles of `live` in a block of lanes (LaneMask.hh).
    template <class P, class M = bool>
    GT_HOST_DEVICE GT_FORCEINLINE auto arc(P& p, BendArc const& a, M live = true) const
    {
        if (inv_h == 0.0) return drift_exact(p, a.length, inv_beta, inv_beta_gamma2, live);
        return bend_arc(p, a, h, inv_h, inv_beta, live);
    }

    //! One symmetric second-order step of length l (see above). `photons`: NoPhotons, or the particle's
    //! PhotonStream with quantum excitation (radiate()); every radiating call of the maps below passes it on.
    template <class Photons>
    GT_HOST_DEVICE bool step(Particle& p, double l, BendArc const& a, Photons& photons) const
    {
        double const half = 0.5 * l;
        if (!bend_linear_flow(p, half, h, k1, inv_beta, inv_beta_gamma2)) return false;
        kick(p, half);
        body(p, half);
        if (c_rad != 0.0) radiate_at_kick(p, half, photons);
        if (!bend_linear_flow(p, -half, h, 0.0, inv_beta, inv_beta_gamma2)) return false;
        if (!arc(p, a)) return false;
        if (!bend_linear_flow(p, -half, h, 0.0, inv_beta, inv_beta_gamma2)) return false;
        kick(p, half);
        body(p, half);
        if (c_rad != 0.0) radiate_at_kick(p, half, photons);
        return bend_linear_flow(p, half, h, k1, inv_beta, inv_beta_gamma2);
    }

    //! Classical radiation in a combined-function step: the midplane field of the curved magnet, by = h + k1
    //! x + k2 (x^2 - y^2)/2, bx = k1 y + k2 x y (CurvedMultipoleKick's potential to second order), over the
    //! kick's length. The two kicks of a step sit at its middle (the flows between them are the identity
    //! to first order), so the steps of the triple jump radiate at 0.676, 0.5 and 0.324 of each step with
    //! weights w1, w0, w1: a quadrature exact to second degree in s, as RadiatingKick's. The body's other
    //! components (BodyMultipoleKick) add their field, as a thick multipole's kick radiates its own. The
    //! photons are drawn at the whole steps' boundaries instead (emit_photons); a caller that passes a
    //! PhotonStream here draws them over |l| k_split_step_emission (positive weights,
    //! SynchrotronRadiation.hh).
    template <class Photons>
    GT_HOST_DEVICE GT_FORCEINLINE void radiate_at_kick(Particle& p, double l, Photons& photons) const
    {
        double bx = 0.0, by = 0.0;
        field(p.x, p.y, bx, by);
        if constexpr (Photons::emits)
            radiate(p, c_rad, inv_beta, bx, by, h, l, photons, (l < 0.0 ? -l : l) * k_split_step_emission);
        else
            radiate(p, c_rad, inv_beta, bx, by, h, l);
    }

    //! The body's midplane field where the particle is: by = h + k1 x + k2 (x^2 - y^2)/2, bx = k1 y + k2 x y
    //! (CurvedMultipoleKick's potential to second order) plus the other components' (BodyMultipoleKick).
    GT_HOST_DEVICE GT_FORCEINLINE void field(double x, double y, double& bx, double& by) const
    {
        by = h + k1 * x + 0.5 * k2 * (x * x - y * y);
        bx = k1 * y + k2 * x * y;
        if (body.terms > 0) {
            double re = 0.0, im = 0.0;
            body.field(x, y, re, im);
            by += re;
            bx += im;
        }
    }

    //! The bend without gradient, sextupole or body multipole (not kicked): one arc, or with radiation two
    //! half arcs. The optics_maps switch calls this alone, without the split steps of the kicked case
    //! (Element.hh).
    GT_HOST_DEVICE GT_FORCEINLINE bool uniform(Particle& p) const
    {
        NoPhotons none;
        return uniform(p, none);
    }

    template <class Photons>
    GT_HOST_DEVICE GT_FORCEINLINE bool uniform(Particle& p, Photons& photons) const
    {
        if (c_rad != 0.0 && inv_h != 0.0) {
            // A uniform field: the loss where the particle is, at the entrance, the middle and the exit with
            // Simpson's weights L/6, 4L/6, L/6 (exact for a path factor (1 + h x) cubic in s). A loss
            // computed from the whole arc's path and applied at one end would not be local: its dependence on
            // the entrance's delta through the arc's own dispersion breaks Robinson's sum (J_x + J_e off
            // by 2.6% on tests/SynchrotronRadiationTest.cc's ring).
            double const sixth = length / 6.0;
            radiate(p, c_rad, inv_beta, 0.0, h, h, sixth, photons);
            if (!arc(p, half_arc)) return false;
            radiate(p, c_rad, inv_beta, 0.0, h, h, 4.0 * sixth, photons);
            if (!arc(p, half_arc)) return false;
            radiate(p, c_rad, inv_beta, 0.0, h, h, sixth, photons);
            return true;
        }
        return arc(p, whole);
    }

    GT_HOST_DEVICE bool operator()(Particle& p) const
    {
        NoPhotons none;
        return (*this)(p, none);
    }

    template <class Photons>
    GT_HOST_DEVICE bool operator()(Particle& p, Photons& photons) const
    {
        if (!kicked) return uniform(p, photons);
        // The triple jump (outer, middle, outer) of every step as one loop over 3 steps sub-steps: the
        // same calls in the same order as three written out, with one inlined copy of step() instead of
        // three (a third of the code in the GPU kernels that hold this case). The mean loss is taken inside
        // the sub-steps (radiate_at_kick); the photons at the boundaries of the whole steps (emit_photons).
        NoPhotons none;
        for (std::int32_t i = 0; i < 3 * steps; ++i) {
            bool const middle = i % 3 == 1;
            if constexpr (Photons::emits)
                if (i % 3 == 0) emit_photons(p, photons);
            if (!step(p, middle ? step_middle : step_outer, middle ? arc_middle : arc_outer, none))
                return false;
            if constexpr (Photons::emits)
                if (i % 3 == 2) emit_photons(p, photons);
        }
        return true;
    }

    //! The photons of a combined-function bend: half a step's emission (trapezoidal rule) at each boundary of
    //! the triple jump's whole steps, in the field where the particle is (radiate_at_kick's), with no mean
    //! loss (c_rad 0 there: radiate_at_kick takes it). Not at the sub-steps' kicks: the middle sub-step has a
    //! negative length, and an energy kick there would be followed by an arc run backwards at the new energy.
    //! Open question (docs/physics.md): with gradient bends the tracked betatron excitation is ~20% above the
    //! 6D linear theory's on inputs/light_source_ring.toml, with or without this choice (5% without
    //! gradient).
    template <class Photons>
    GT_HOST_DEVICE GT_FORCEINLINE void emit_photons(Particle& p, Photons& photons) const
    {
        double bx = 0.0, by = 0.0;
        field(p.x, p.y, bx, by);
        double const half_step = 0.5 * (2.0 * step_outer + step_middle);
        radiate(p, 0.0, inv_beta, bx, by, h, 0.0, photons, half_step);
    }
};

}  // namespace gt
