// Field-free drift: the paraxial (linear) map and the exact map of the full square root.
#pragma once

#include <cstdint>

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/PortableMath.hh"
#include "kernels/elements/MapSupport.hh"
#include "kernels/core/ReferenceParticle.hh"

namespace gt {

//! Exact drift of length L (either sign) from H = -sqrt(1 - 2 pt/beta + pt^2 - px^2 - py^2) - pt/beta
//! (ImpactX ExactDrift; Wolski, Beam Dynamics in High Energy Particle Accelerators, eq. 3.13 in
//! these variables): x += L px/pz, y += L py/pz, t += L [(1/beta - pt)/pz - 1/beta].
//! The t increment is rewritten without cancellation, using
//! (1/beta - pt)^2 - pz^2/beta^2 = (2 pt/beta - pt^2)/(beta gamma)^2 + (px^2 + py^2)/beta^2.
//! Lost (false) when pz^2 <= 0 (the particle turns back) or the energy is not positive.
GT_HOST_DEVICE GT_HOST_FORCEINLINE bool drift_exact(Particle& p, double length, double inv_beta,
                                                    double inv_beta_gamma2)
{
    double const pt = p.pt;
    double const energy = inv_beta - pt;  // E / (p_ref c) > 0 for any physical particle
    double const transverse2 = p.px * p.px + p.py * p.py;
    double const pz2 = momentum_squared(pt, inv_beta) - transverse2;
    if (!(pz2 > 0.0) || !(energy > 0.0)) return false;  // also false for NaN
    double const pz = pmath::sqrt(pz2);
    double const inv_pz = 1.0 / pz;
    p.x += length * p.px * inv_pz;
    p.y += length * p.py * inv_pz;
    double const num =
        (2.0 * pt * inv_beta - pt * pt) * inv_beta_gamma2 + transverse2 * (inv_beta * inv_beta);
    p.t += length * num / (pz * (energy + pz * inv_beta));
    return true;
}

//! Paraxial drift (ImpactX Drift; MAD-X first order): x += L px, y += L py, t += L pt/(beta gamma)^2.
GT_HOST_DEVICE GT_FORCEINLINE void drift_linear(Particle& p, double length, double inv_beta_gamma2)
{
    p.x += length * p.px;
    p.y += length * p.py;
    p.t += length * inv_beta_gamma2 * p.pt;
}

enum class DriftModel : std::int32_t { linear, exact };

struct Drift {
    double length;           //!< [m]
    double inv_beta;         //!< [1] 1 / beta of the reference
    double inv_beta_gamma2;  //!< [1] 1 / (beta gamma)^2 of the reference
    DriftModel model;

    static Drift make(double length, DriftModel model, ReferenceParticle const& ref)
    {
        Drift d;
        d.length = length;
        d.inv_beta = 1.0 / ref.beta;
        d.inv_beta_gamma2 = 1.0 / (ref.beta_gamma * ref.beta_gamma);
        d.model = model;
        return d;
    }

    GT_HOST_DEVICE bool operator()(Particle& p) const
    {
        if (model == DriftModel::exact) return drift_exact(p, length, inv_beta, inv_beta_gamma2);
        drift_linear(p, length, inv_beta_gamma2);
        return true;
    }
};

//! Exact drift as a callable for SplitSteps::integrate.
struct ExactDriftStep {
    double inv_beta;
    double inv_beta_gamma2;
    GT_HOST_DEVICE GT_FORCEINLINE bool operator()(Particle& p, double length) const
    {
        return drift_exact(p, length, inv_beta, inv_beta_gamma2);
    }
};

}  // namespace gt
