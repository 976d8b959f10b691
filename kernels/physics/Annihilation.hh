// Two-photon annihilation of positrons, in flight and at rest.
//
// Cross section per atomic electron (Heitler, The Quantum Theory of Radiation, 3rd ed. 1954):
//   sigma = pi r_e^2 / (gamma + 1) [ (gamma^2 + 4 gamma + 1)/(gamma^2 - 1) ln(gamma + sqrt(gamma^2 - 1))
//                                   - (gamma + 3)/sqrt(gamma^2 - 1) ].
// In flight the energy fraction eps of one photon is sampled from Heitler's distribution as in the
// Geant4 Physics Reference Manual (1/eps with rejection), its angle from the kinematics, the second
// photon takes the rest of the energy and momentum. At rest: two photons of m_e c^2, back to back,
// isotropic (no three-photon decay, no positronium).
#pragma once

#include "kernels/core/RandomStream.hh"
#include "kernels/physics/DirectionRotation.hh"
#include "kernels/physics/EmConstants.hh"

namespace gt {

//! Heitler's cross section per electron for a positron of kinetic energy T [MeV] [m^2].
GT_HOST_DEVICE inline double annihilation_per_electron(double T)
{
    if (T <= 0) return 0.0;
    double const gamma = T / em::k_me + 1.0;
    double const g2m1 = gamma * gamma - 1.0;
    double const s = pmath::sqrt(g2m1);
    return em::k_pi * em::k_re * em::k_re / (gamma + 1.0) *
           ((gamma * gamma + 4.0 * gamma + 1.0) / g2m1 * pmath::log(gamma + s) - (gamma + 3.0) / s);
}

struct AnnihilationResult {
    double energy[2];  //!< [MeV]
    Vec3 dir[2];
};

//! Annihilation in flight of a positron of kinetic energy T [MeV] along dir.
GT_HOST_DEVICE inline AnnihilationResult sample_annihilation_in_flight(double T, Vec3 dir, RandomStream& rng)
{
    double const tau = T / em::k_me;
    double const gamma = tau + 1.0;
    double const tau2 = tau + 2.0;
    double const half_rate = 0.5 * pmath::sqrt(tau / tau2);
    double const eps_min = 0.5 - half_rate, eps_max = 0.5 + half_rate;
    double const log_ratio = pmath::log(eps_max / eps_min);
    double eps = 0.5;
    for (;;) {
        eps = eps_min * pmath::exp(log_ratio * rng.uniform());
        double const g = 1.0 - eps + (2.0 * gamma * eps - 1.0) / (eps * tau2 * tau2);
        if (g >= rng.uniform()) break;
    }
    double const total = T + 2.0 * em::k_me;
    double cos_theta = (eps * tau2 - 1.0) / (eps * pmath::sqrt(tau * tau2));
    cos_theta = cos_theta > 1.0 ? 1.0 : (cos_theta < -1.0 ? -1.0 : cos_theta);
    AnnihilationResult r;
    r.energy[0] = eps * total;
    r.energy[1] = total - r.energy[0];
    r.dir[0] = rotated(dir, cos_theta, em::k_two_pi * rng.uniform());
    Vec3 const p2 = axpy(-r.energy[0], r.dir[0], pmath::sqrt(T * (T + 2.0 * em::k_me)) * dir);
    double const n = norm(p2);
    r.dir[1] = n > 0 ? (1.0 / n) * p2 : -1.0 * r.dir[0];
    return r;
}

//! Annihilation at rest: two photons of m_e c^2, back to back, isotropic.
GT_HOST_DEVICE inline AnnihilationResult sample_annihilation_at_rest(RandomStream& rng)
{
    double const cos_theta = 2.0 * rng.uniform() - 1.0;
    double const s = pmath::sqrt(1.0 - cos_theta * cos_theta);
    double sp = 0, cp = 0;
    pmath::sincos(em::k_two_pi * rng.uniform(), sp, cp);
    AnnihilationResult r;
    r.energy[0] = r.energy[1] = em::k_me;
    r.dir[0] = Vec3{s * cp, s * sp, cos_theta};
    r.dir[1] = -1.0 * r.dir[0];
    return r;
}

}  // namespace gt
