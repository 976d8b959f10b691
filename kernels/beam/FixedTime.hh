// The s <-> t conversion of the t-code: a particle at a plane of fixed s (the deck's coordinates) to
// its position at a common time, and back to a plane, each by an exact straight-line drift.
#pragma once

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/PortableMath.hh"
#include "kernels/elements/MapSupport.hh"

namespace gt {

//! One particle at a common time sigma = c (t - t_ref,entry) [m] inside a t-code region:
//!   x, y [m];  z [m] from the region's entrance plane;  px, py, pz = kinetic P / p0
//! (p0: the reference momentum at the entrance). The energy follows from the momentum,
//! w = E / (p0 c) = sqrt(P^2 + mu2), mu2 = (m c / p0)^2 = 1 / (beta0 gamma0)^2, so that a static
//! magnetic field cannot change it.
struct TimeState {
    double x, y, z;
    double px, py, pz;
};

//! w = E / (p0 c) of a state.
GT_HOST_DEVICE GT_FORCEINLINE double time_state_energy(TimeState const& s, double mu2)
{
    return pmath::sqrt(((s.px * s.px + s.py * s.py) + s.pz * s.pz) + mu2);
}

//! The ImpactX energy coordinate pt = -(E - E0) / (p0 c) = 1/beta0 - w of a state, written as
//! (1 - P^2) / (1/beta0 + w) (1/beta0^2 = 1 + mu2), with 1 - pz^2 = (1 - pz)(1 + pz): no
//! cancellation for a particle near the reference energy, so a small pt survives the round trip.
GT_HOST_DEVICE GT_FORCEINLINE double time_state_pt(TimeState const& s, double inv_beta0, double w)
{
    double const one_minus_p2 = (1.0 - s.pz) * (1.0 + s.pz) - (s.px * s.px + s.py * s.py);
    return one_minus_p2 / (inv_beta0 + w);
}

//! Drifts p, at the plane z = 0 at its time p.t = c (t - t_ref) [m] (t_ref: the reference at the
//! plane), in a straight line to the time `sigma` <= p.t: z = -(p.t - sigma) beta_z, x -= (p.t -
//! sigma) beta_x, ... (the space before the plane is taken as field-free). False (the particle never
//! reaches the plane moving forward) when pz^2 <= 0 or E <= 0. px, py must be kinetic (the deck's
//! canonical momenta outside any vector potential).
GT_HOST_DEVICE GT_FORCEINLINE bool to_fixed_time(Particle const& p, double sigma, double inv_beta0, TimeState& s)
{
    double const w = inv_beta0 - p.pt;
    double const pz2 = momentum_squared(p.pt, inv_beta0) - (p.px * p.px + p.py * p.py);
    if (!(pz2 > 0.0) || !(w > 0.0)) return false;
    double const pz = pmath::sqrt(pz2);
    double const back = (p.t - sigma) / w;  // beta_u (p.t - sigma) = P_u (p.t - sigma) / w
    s = TimeState{p.x - back * p.px, p.y - back * p.py, -back * pz, p.px, p.py, pz};
    return true;
}

//! Drifts s, at time sigma [m], in a straight line to the plane z = z_plane and returns the
//! deck's coordinates there, the time relative to sigma = 0: t = sigma + (z_plane - z) w / pz.
//! The caller guarantees pz > 0. pt is relative to the entrance reference (see time_state_pt).
GT_HOST_DEVICE GT_FORCEINLINE Particle to_fixed_s(TimeState const& s, double sigma, double z_plane,
                                                  double inv_beta0, double mu2)
{
    double const w = time_state_energy(s, mu2);
    double const ahead = z_plane - s.z;  // [m] to go (negative: past the plane, drifted back)
    double const per_z = 1.0 / s.pz;
    return Particle{s.x + ahead * s.px * per_z, s.px, s.y + ahead * s.py * per_z, s.py,
                    sigma + ahead * w * per_z, time_state_pt(s, inv_beta0, w)};
}

}  // namespace gt
