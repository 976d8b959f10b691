// Thick sextupole or octupole (any single order): 4th-order symplectic integration, exact drifts.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernels/core/FusedMultiplyAdd.hh"
#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "kernels/elements/Drift.hh"
#include "kernels/elements/MapSupport.hh"
#include "kernels/elements/SynchrotronRadiation.hh"

namespace gt {

//! Thin kick of order n integrated over a length l: px -= l Re[(a + i b)(x + i y)^n],
//! py += l Im[...], with a = kn/n!, b = ksn/n! (the MAD-X multipole kick per unit length; for a
//! sextupole px -= k2 l (x^2 - y^2)/2, py += k2 l x y).
struct MultipoleKick {
    double a;            //!< [1/m^(n+1)] kn / n!
    double b;            //!< [1/m^(n+1)] ksn / n!
    std::int32_t order;  //!< n

    //! (x + i y)^n by repeated complex products from z = x + i y (n >= 1; z = 1 for n = 0).
    template <class P, class M = bool>
    GT_HOST_DEVICE GT_FORCEINLINE void operator()(P& p, double l, M live = true) const
    {
        using T = coordinate_t<P>;
        T zr = order > 0 ? p.x : T(1.0);
        T zi = order > 0 ? p.y : T(0.0);
        for (std::int32_t i = 1; i < order; ++i) {
            T const r = fma_rn(zr, p.x, -(zi * p.y));
            zi = fma_rn(zr, p.y, zi * p.x);
            zr = r;
        }
        double const al = a * l, bl = b * l;
        where(live, p.px, fma_rn(-al, zr, fma_rn(bl, zi, p.px)));
        where(live, p.py, fma_rn(al, zi, fma_rn(bl, zr, p.py)));
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
    double two_inv_beta;     //!< [1] 2 / beta
    double inv_beta2;        //!< [1] 1 / beta^2
    double inv_beta_gamma2;  //!< [1]
    MultipoleKick kick;
    SplitSteps split;
    double c_rad;               //!< [m] radiation constant (SynchrotronRadiation.hh); 0: no radiation
    QuantumExcitation quantum;  //!< its fluctuation (`radiation = "quantum"`); c_q = 0: none

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
        m.two_inv_beta = 2.0 * m.inv_beta;
        m.inv_beta2 = m.inv_beta * m.inv_beta;
        m.inv_beta_gamma2 = 1.0 / (ref.beta_gamma * ref.beta_gamma);
        m.kick = MultipoleKick{kn / factorial, ksn / factorial, order};
        m.split = SplitSteps::make(length, steps > 0 ? steps : 1);
        m.c_rad = 0.0;
        m.quantum = QuantumExcitation::none();
        return m;
    }

    //! One particle or a block of lanes (LaneMask.hh): returns the particles of `live` not lost.
    template <class P, class M = bool>
    GT_HOST_DEVICE auto operator()(P& p, M live = true) const
    {
        if constexpr (std::is_same_v<P, Particle>) {
            // Classical radiation at every kick (RadiatingKick); the drifts take the pt each kick leaves.
            // One particle only: the CPU's lanes track an entry with c_rad != 0 per particle
            // (SegmentLanes.hh).
            if (c_rad != 0.0) {
                NoPhotons none;
                return track_radiating(p, none, live);
            }
        }
        // pt is constant through the kicks: one ExactDriftStep for all 1 + 3 n drifts.
        auto const drift =
            ExactDriftStepOf<coordinate_t<P>>::at(p.pt, inv_beta, two_inv_beta, inv_beta2, inv_beta_gamma2);
        auto const ok = live && drift.physical();
        if (none_left(ok)) return ok;
        return split.integrate(p, drift, kick, ok);
    }

    //! With radiation (c_rad != 0), one particle: `photons` NoPhotons, or its PhotonStream with quantum
    //! excitation (radiate()).
    template <class Photons>
    GT_HOST_DEVICE bool track_radiating(Particle& p, Photons& photons, bool live = true) const
    {
        ExactDriftAtEachStep const drift{inv_beta, two_inv_beta, inv_beta2, inv_beta_gamma2};
        return split.integrate(
            p, drift,
            RadiatingKick<MultipoleKick, Photons>{kick, kick.a, kick.b, kick.order, c_rad, inv_beta, photons},
            live);
    }
};

}  // namespace gt
