// Collimator: an aperture at the entrance and at the exit of an exact drift.
#pragma once

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/elements/Aperture.hh"
#include "kernels/elements/Drift.hh"
#include "kernels/core/ReferenceParticle.hh"

namespace gt {

//! A particle is lost at the entrance if outside the aperture there, otherwise after the drift if
//! outside at the exit. Between the two faces the path is straight, so for a convex aperture
//! (rectangle, ellipse) a particle inside at both faces is inside all along: the check is exact.
struct Collimator {
    Aperture aperture;
    double length;           //!< [m]
    double inv_beta;         //!< [1]
    double inv_beta_gamma2;  //!< [1]

    static Collimator make(ApertureShape shape, double half_x, double half_y, double length,
                           ReferenceParticle const& ref)
    {
        return Collimator{Aperture::make(shape, half_x, half_y), length, 1.0 / ref.beta,
                          1.0 / (ref.beta_gamma * ref.beta_gamma)};
    }

    GT_HOST_DEVICE bool operator()(Particle& p) const
    {
        if (!aperture(p)) return false;
        if (length > 0.0 && !drift_exact(p, length, inv_beta, inv_beta_gamma2)) return false;
        return aperture(p);
    }
};

}  // namespace gt
