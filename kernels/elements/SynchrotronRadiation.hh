// Classical (mean) synchrotron-radiation energy loss: a deterministic energy kick that the magnets' maps
// apply per step when `[lattice] radiation = "mean"` (no quantum excitation: docs/physics.md).
#pragma once

#include <cmath>
#include <cstdint>

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/PortableMath.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "kernels/elements/Drift.hh"
#include "kernels/elements/MapSupport.hh"

namespace gt {

//! The radiation constant of an element, c_rad = (2/3) r_c (beta0 gamma0)^3 [m], with r_c = q^2 / (4 pi eps0
//! m c^2) the classical radius of the reference's species (0 for a neutral one). The power radiated by a
//! charge on a curve of radius rho is P = (2/3) r_c m c^3 beta^4 gamma^4 / rho^2 (Jackson, Classical
//! Electrodynamics, 3rd ed., eq. 14.31; Sands, SLAC-121, eq. 4.5), so per unit path length
//! dE/dl = (2/3) r_c m c^2 beta^3 gamma^4 / rho^2. With 1/rho = b (p0/p), b = |B_perp| / (B rho)_0 the field
//! normalized to the reference rigidity, P = p/p0, beta gamma = P beta0 gamma0 and
//! gamma = (1/beta0 - pt) beta0 gamma0, in the energy coordinate pt = -(E - E0)/(p0 c):
//!   d pt = c_rad (1/beta0 - pt) P b^2 dl.
//! Ultra-relativistic (pt = -delta): d delta / dl = -(C_gamma / 2 pi) E0^3 (1 + delta)^2 b^2 with C_gamma =
//! 4 pi r_c / (3 (m c^2)^3) = 8.846e-5 m / GeV^3 for electrons (Sands eq. 4.7; the MAD-X physics guide,
//! "Synchrotron radiation"). Host: computed once per element from the reference at its entrance.
inline double radiation_constant(ReferenceParticle const& ref)
{
    // e^2 / (4 pi eps0) = 1.439964548e-15 MeV m (alpha hbar c, CODATA 2018).
    double const e2_mev_m = 1.439964548e-15;
    double const r_c = ref.charge_e * ref.charge_e * e2_mev_m / ref.mass_mev;
    double const bg = ref.beta_gamma;
    return (2.0 / 3.0) * r_c * bg * bg * bg;
}

//! The particle radiates over a step of length l of the reference orbit where the magnet's field
//! normalized to the reference rigidity is (bx, by) [1/m] and the reference orbit's curvature h [1/m].
//! The path length of the particle is dl = (1 + h x) (P / pz) l (paraxial: (1 + h x)(1 + (x'^2 + y'^2)/2) l),
//! and the field it radiates in is the part perpendicular to its velocity v = (px, py, pz)/P:
//! b_perp^2 = bx^2 + by^2 - ((bx px + by py)/P)^2 (the longitudinal field of the curved frame is not
//! included). The photons leave along the velocity, so the momentum keeps its direction: px and py scale
//! with P_new / P (Sands sec. 4.1; the origin of vertical damping, J_y = 1); x, y and t do not change (a thin
//! kick). A particle whose momentum is not physical is left alone (the map around it loses it).
//! Every transcendental from pmath, so the CPU and GPU give the same bits.
GT_HOST_DEVICE GT_FORCEINLINE void radiate(Particle& p, double c_rad, double inv_beta, double bx, double by,
                                           double h, double l)
{
    double const pt = p.pt;
    double const energy = inv_beta - pt;
    double const p2 = momentum_squared(pt, inv_beta);
    double const pz2 = p2 - (p.px * p.px + p.py * p.py);
    if (!(pz2 > 0.0) || !(energy > 0.0)) return;
    double const pn = pmath::sqrt(p2);
    double const pz = pmath::sqrt(pz2);
    double const bv = (bx * p.px + by * p.py) / pn;
    double const b2 = (bx * bx + by * by) - bv * bv;
    double const dl = (1.0 + h * p.x) * (pn / pz) * l;
    double const pt1 = pt + c_rad * energy * pn * b2 * dl;
    double const p21 = momentum_squared(pt1, inv_beta);
    if (!(p21 > 0.0)) return;
    double const ratio = pmath::sqrt(p21) / pn;
    p.pt = pt1;
    p.px *= ratio;
    p.py *= ratio;
}

//! The field of a multipole of order n with a = kn/n!, b = ksn/n! (MultipoleKick's normalization):
//! by + i bx = (a + i b)(x + i y)^n, the field whose kick is px -= l by, py += l bx.
GT_HOST_DEVICE GT_FORCEINLINE void multipole_field(double a, double b, std::int32_t order, double x, double y,
                                                   double& bx, double& by)
{
    double zr = order > 0 ? x : 1.0;
    double zi = order > 0 ? y : 0.0;
    for (std::int32_t i = 1; i < order; ++i) {
        double const r = zr * x - zi * y;
        zi = zr * y + zi * x;
        zr = r;
    }
    by = a * zr - b * zi;
    bx = a * zi + b * zr;
}

//! An exact drift at the particle's own pt, for the split-step integrations with radiation (the kicks
//! change pt there, so the drifts cannot share one ExactDriftStep as they do without it). One particle
//! only (radiation is tracked per particle, also in the CPU's lanes: SegmentLanes.hh); `live` is
//! SplitSteps::integrate's mask, always true here since it returns at the first loss.
struct ExactDriftAtEachStep {
    double inv_beta, two_inv_beta, inv_beta2, inv_beta_gamma2;
    GT_HOST_DEVICE GT_FORCEINLINE bool operator()(Particle& p, double l, bool live = true) const
    {
        ExactDriftStep const step =
            ExactDriftStep::at(p.pt, inv_beta, two_inv_beta, inv_beta2, inv_beta_gamma2);
        return live && step.physical() && step(p, l);
    }
};

//! A thin kick of a split-step integration followed by the radiation of its field over the kick's length
//! (SplitSteps' kicks sit at 0.676, 0.5 and 0.324 of a step with weights w1, w0, w1: a quadrature exact
//! for polynomials of second degree in s, so the loss of a step is integrated to third order).
//! `Kick` is QuadrupoleKick or MultipoleKick; the field is by + i bx = (a + i b)(x + i y)^n.
template <class Kick>
struct RadiatingKick {
    Kick kick;
    double a, b;  //!< the field's coefficients (MultipoleKick's normalization)
    std::int32_t order;
    double c_rad, inv_beta;
    GT_HOST_DEVICE GT_FORCEINLINE void operator()(Particle& p, double l, bool live = true) const
    {
        if (!live) return;
        kick(p, l);
        double bx = 0.0, by = 0.0;
        multipole_field(a, b, order, p.x, p.y, bx, by);
        radiate(p, c_rad, inv_beta, bx, by, 0.0, l);
    }
};

}  // namespace gt
