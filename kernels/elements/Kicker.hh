// Corrector / kicker: a thin angle kick, in the middle of an optional exact drift.
#pragma once

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/elements/Drift.hh"
#include "kernels/core/ReferenceParticle.hh"

namespace gt {

//! px += hkick, py += vkick (MAD-X HKICKER/VKICKER/KICKER: a positive kick increases px, py).
//! With a length, the kick sits between two exact drifts of L/2 (MAD-X thick kicker, thin model).
struct Kicker {
    double hkick;            //!< [rad] change of px
    double vkick;            //!< [rad] change of py
    double length;           //!< [m]
    double inv_beta;         //!< [1]
    double inv_beta_gamma2;  //!< [1]

    static Kicker make(double hkick, double vkick, double length, ReferenceParticle const& ref)
    {
        return Kicker{hkick, vkick, length, 1.0 / ref.beta, 1.0 / (ref.beta_gamma * ref.beta_gamma)};
    }

    GT_HOST_DEVICE bool operator()(Particle& p) const
    {
        double const half = 0.5 * length;
        if (half > 0.0 && !drift_exact(p, half, inv_beta, inv_beta_gamma2)) return false;
        p.px += hkick;
        p.py += vkick;
        if (half > 0.0 && !drift_exact(p, half, inv_beta, inv_beta_gamma2)) return false;
        return true;
    }
};

}  // namespace gt
