// Thick sextupole or octupole (any single order): 4th-order symplectic integration, exact drifts.
#pragma once

#include <cstdint>

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/elements/Drift.hh"
#include "kernels/elements/MapSupport.hh"
#include "kernels/core/ReferenceParticle.hh"

namespace gt {

//! Thin kick of order n integrated over a length l: px -= l Re[(a + i b)(x + i y)^n],
//! py += l Im[...], with a = kn/n!, b = ksn/n! (the MAD-X multipole kick per unit length; for a
//! sextupole px -= k2 l (x^2 - y^2)/2, py += k2 l x y).
struct MultipoleKick {
    double a;            //!< [1/m^(n+1)] kn / n!
    double b;            //!< [1/m^(n+1)] ksn / n!
    std::int32_t order;  //!< n

    GT_HOST_DEVICE GT_FORCEINLINE void operator()(Particle& p, double l) const
    {
        double zr = 1.0, zi = 0.0;
        for (std::int32_t i = 0; i < order; ++i) {
            double const r = zr * p.x - zi * p.y;
            zi = zr * p.y + zi * p.x;
            zr = r;
        }
        p.px -= (a * zr - b * zi) * l;
        p.py += (a * zi + b * zr) * l;
    }
};

//! H = H_drift,exact + Re[(kn + i ksn)(x + i y)^(n+1)] / (n+1)!, integrated in `steps` steps of the
//! Forest-Ruth/Yoshida 4th-order splitting (three kicks per step, exact drifts between them):
//! symplectic for any step count; the error of the map falls as steps^-4.
struct ThickMultipole {
    double length;           //!< [m]
    double kn;               //!< [1/m^(n+1)] normal strength (k2 for a sextupole, k3 for an octupole)
    double ksn;              //!< [1/m^(n+1)] skew strength
    double inv_beta;         //!< [1]
    double inv_beta_gamma2;  //!< [1]
    MultipoleKick kick;
    SplitSteps split;

    static ThickMultipole make(double length, std::int32_t order, double kn, double ksn, std::int32_t steps,
                               ReferenceParticle const& ref)
    {
        double factorial = 1.0;
        for (std::int32_t i = 2; i <= order; ++i) factorial *= static_cast<double>(i);
        ThickMultipole m;
        m.length = length;
        m.kn = kn;
        m.ksn = ksn;
        m.inv_beta = 1.0 / ref.beta;
        m.inv_beta_gamma2 = 1.0 / (ref.beta_gamma * ref.beta_gamma);
        m.kick = MultipoleKick{kn / factorial, ksn / factorial, order};
        m.split = SplitSteps::make(length, steps > 0 ? steps : 1);
        return m;
    }

    GT_HOST_DEVICE bool operator()(Particle& p) const
    {
        return split.integrate(p, ExactDriftStep{inv_beta, inv_beta_gamma2}, kick);
    }
};

}  // namespace gt
