// Field-free drift: the paraxial (linear) map and the exact map of the full square root.
#pragma once

#include <cstdint>

#include "kernels/core/FusedMultiplyAdd.hh"
#include "kernels/core/LaneMask.hh"
#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/PortableMath.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "kernels/elements/MapSupport.hh"

namespace gt {

//! The exact drift of one particle at a fixed pt, with everything that depends on pt alone computed
//! once: a split-step integration (SplitSteps) keeps pt through its kicks, so its 1 + 3 n drifts share
//! this. From H = -sqrt(1 - 2 pt/beta + pt^2 - px^2 - py^2) - pt/beta (ImpactX ExactDrift; Wolski,
//! Beam Dynamics in High Energy Particle Accelerators, eq. 3.13 in these variables):
//! x += L px/pz, y += L py/pz, t += L [(1/beta - pt)/pz - 1/beta]. The t increment is rewritten
//! without cancellation, using (1/beta - pt)^2 - pz^2/beta^2 = (2 pt/beta - pt^2)/(beta gamma)^2 +
//! (px^2 + py^2)/beta^2, and 1 - 2 pt/beta + pt^2 = 1 - pt (2/beta - pt) with one rounding (fma_rn).
//! `T`: double for one particle, the lane vector for a block (LaneMask.hh).
template <class T>
struct ExactDriftStepOf {
    double inv_beta;   //!< [1] 1/beta of the reference
    double inv_beta2;  //!< [1] 1/beta^2
    T energy;          //!< [1] 1/beta - pt = E/(p_ref c): > 0 for any physical particle
    T p2;              //!< [1] (p/p_ref)^2 = 1 - 2 pt/beta + pt^2
    T num_pt;          //!< [1] (2 pt/beta - pt^2)/(beta gamma)^2: the pt part of the t numerator

    //! The step for a particle of energy coordinate pt, from the element's reference coefficients.
    GT_HOST_DEVICE GT_FORCEINLINE static ExactDriftStepOf at(T pt, double inv_beta, double two_inv_beta,
                                                             double inv_beta2, double inv_beta_gamma2)
    {
        T const a = two_inv_beta - pt;
        return ExactDriftStepOf{inv_beta, inv_beta2, inv_beta - pt, fma_rn(-pt, a, 1.0),
                                (pt * a) * inv_beta_gamma2};
    }

    //! False when the energy is not positive (or NaN): the particle is lost before any drift.
    GT_HOST_DEVICE GT_FORCEINLINE auto physical() const { return energy > 0.0; }

    //! Drift of length L (either sign) of the particles in `live`; returns those not lost (pz^2 <= 0: the
    //! particle turns back, or NaN). A lost particle keeps its coordinates.
    template <class P, class M = bool>
    GT_HOST_DEVICE GT_FORCEINLINE auto operator()(P& p, double length, M live = true) const
    {
        T const transverse2 = fma_rn(p.px, p.px, p.py * p.py);
        T const pz2 = p2 - transverse2;
        auto const ok = live && pz2 > 0.0;  // also false for NaN
        if (none_left(ok)) return ok;
        T const pz = sqrt_rn(pz2);
        // Two independent divisions: one shared reciprocal 1/(pz (energy + pz/beta)) for both was measured
        // 8-12% slower on the CPU (a longer dependency chain through the divider).
        T const l_pz = length / pz;
        where(ok, p.x, fma_rn(l_pz, p.px, p.x));
        where(ok, p.y, fma_rn(l_pz, p.py, p.y));
        T const num = fma_rn(transverse2, inv_beta2, num_pt);
        where(ok, p.t, fma_rn(length, num / (pz * fma_rn(pz, inv_beta, energy)), p.t));
        return ok;
    }
};

//! One particle's step.
using ExactDriftStep = ExactDriftStepOf<double>;

//! Exact drift of length L (either sign): ExactDriftStep for the particle's own pt. Lost (false) when
//! pz^2 <= 0 (the particle turns back) or the energy is not positive.
template <class P, class M = bool>
GT_HOST_DEVICE GT_HOST_FORCEINLINE auto drift_exact(P& p, double length, double inv_beta,
                                                    double inv_beta_gamma2, M live = true)
{
    auto const step = ExactDriftStepOf<coordinate_t<P>>::at(p.pt, inv_beta, 2.0 * inv_beta,
                                                            inv_beta * inv_beta, inv_beta_gamma2);
    auto const ok = live && step.physical();
    if (none_left(ok)) return ok;
    return step(p, length, ok);
}

//! Paraxial drift (ImpactX Drift; MAD-X first order): x += L px, y += L py, t += L pt/(beta gamma)^2,
//! with t_per_pt = L/(beta gamma)^2 from the element table.
template <class P, class M = bool>
GT_HOST_DEVICE GT_FORCEINLINE void drift_linear_table(P& p, double length, double t_per_pt, M live = true)
{
    where(live, p.x, fma_rn(length, p.px, p.x));
    where(live, p.y, fma_rn(length, p.py, p.y));
    where(live, p.t, fma_rn(t_per_pt, p.pt, p.t));
}

//! The same drift from 1/(beta gamma)^2, for callers without an element table (the same bits: the
//! table's t_per_pt is this product).
GT_HOST_DEVICE GT_FORCEINLINE void drift_linear(Particle& p, double length, double inv_beta_gamma2)
{
    drift_linear_table(p, length, length * inv_beta_gamma2);
}

enum class DriftModel : std::int32_t { linear, exact };

struct Drift {
    //! [m] length and L / (beta gamma)^2 (the linear map's t-pt term): the linear map's two coefficients, an
    //! aligned pair (the GPU reads them with one 128-bit load; the Element is 16-byte aligned).
    alignas(16) double length;
    double t_per_pt;
    double inv_beta;         //!< [1] 1 / beta of the reference
    double two_inv_beta;     //!< [1] 2 / beta
    double inv_beta2;        //!< [1] 1 / beta^2
    double inv_beta_gamma2;  //!< [1] 1 / (beta gamma)^2 of the reference
    DriftModel model;

    static Drift make(double length, DriftModel model, ReferenceParticle const& ref)
    {
        Drift d;
        d.length = length;
        d.inv_beta = 1.0 / ref.beta;
        d.two_inv_beta = 2.0 * d.inv_beta;
        d.inv_beta2 = d.inv_beta * d.inv_beta;
        d.inv_beta_gamma2 = 1.0 / (ref.beta_gamma * ref.beta_gamma);
        d.t_per_pt = length * d.inv_beta_gamma2;
        d.model = model;
        return d;
    }

    //! Inlined by force on the host (GT_HOST_FORCEINLINE): g++ otherwise calls it out of line from the
    //! element switch, +5% instructions on the exact FODO ring.
    //! One particle (P = Particle) or a block of lanes (LaneMask.hh): returns the particles of `live`
    //! not lost.
    template <class P, class M = bool>
    GT_HOST_DEVICE GT_HOST_FORCEINLINE auto operator()(P& p, M live = true) const
    {
        if (model == DriftModel::exact) {
            auto const step = ExactDriftStepOf<coordinate_t<P>>::at(p.pt, inv_beta, two_inv_beta, inv_beta2,
                                                                    inv_beta_gamma2);
            auto const ok = live && step.physical();
            if (none_left(ok)) return ok;
            return step(p, length, ok);
        }
        drift_linear_table(p, length, t_per_pt, live);
        return live && true;
    }
};

}  // namespace gt
