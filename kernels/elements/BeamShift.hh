// BeamShift: a thin shift of the beam's coordinates, ELEGANT's MALIGN (offset_beam, src/do_tracking.c).
#pragma once

#include <cmath>

#include "kernels/core/LaneMask.hh"
#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/ReferenceParticle.hh"

namespace gt {

//! ELEGANT's MALIGN acts on its own coordinates (x, x' = dx/ds, y, y', path length s, delta = p/p_ref - 1):
//!   x += DX + DZ x',  y += DY + DZ y',  s += DZ sqrt(1 + x'^2 + y'^2)   (the slopes before the shift),
//!   x' += DXP,  y' += DYP,  delta += DP at fixed arrival time (t = s / (beta c) is kept: ELEGANT recomputes
//!   s from t with the new beta), the arrival time t += DT, the total energy E *= 1 + DE (ELEGANT's gamma +=
//!   DE gamma; DE with DP is refused by the importer: ELEGANT's DE then starts from the energy before DP),
//! and the reference does not move (the element has no length). In gtrack's coordinates (ParticleState.hh:
//! px = P_x / p_ref, t = c (t - t_ref) grows with the delay, pt = -(E - E_ref)/(p_ref c)), with p = 1 + delta
//! = sqrt(1 - 2 pt/beta + pt^2), pz = sqrt(p^2 - px^2 - py^2), x' = px / pz, E/(p_ref c) = 1/beta - pt:
//!   the DZ part is a straight path of length DZ sqrt(1 + x'^2 + y'^2) with the reference held: x += DZ
//!   px/pz, t += DZ (E/(p_ref c))/pz (an exact drift's DZ (E/(p_ref c)/pz - 1/beta) plus the reference's
//!   DZ/beta); the slopes change: px = p x' / sqrt(1 + x'^2 + y'^2) with the new x', y' and p; DP changes p
//!   and so pt = 1/beta - sqrt(p^2 + 1/(beta gamma)^2); t is kept; DT adds c DT to t; DE scales E/(p_ref c) =
//!   sqrt(p^2 + 1/(beta gamma)^2) by 1 + DE and p follows (the slopes kept, as for DP).
//! Not symplectic in general (ELEGANT's shift of slopes at fixed delta is not a canonical kick), exactly as
//! ELEGANT's. A particle with pz^2 <= 0 or a non-positive energy is lost, as by an exact drift.
struct BeamShift {
    double dx, dy;           //!< [m]
    double dxp, dyp;         //!< [rad] slopes dx/ds, dy/ds
    double dz;               //!< [m]
    double dp;               //!< [1] delta
    double inv_beta;         //!< [1] 1/beta of the reference
    double inv_beta_gamma2;  //!< [1] 1/(beta gamma)^2 of the reference
    double ct;               //!< [m] c DT: the arrival time's shift
    double de;               //!< [1] relative change of the total energy

    static BeamShift make(double dx, double dxp, double dy, double dyp, double dz, double dp,
                          ReferenceParticle const& ref, double ct = 0.0, double de = 0.0)
    {
        return BeamShift{dx, dy, dxp, dyp, dz, dp, 1.0 / ref.beta, 1.0 / (ref.beta_gamma * ref.beta_gamma),
                         ct, de};
    }

    GT_HOST_DEVICE GT_FORCEINLINE bool operator()(Particle& p) const
    {
        double const energy = inv_beta - p.pt;  // E/(p_ref c)
        double const p2 = 1.0 - 2.0 * inv_beta * p.pt + p.pt * p.pt;
        double const pz2 = p2 - p.px * p.px - p.py * p.py;
        if (!(energy > 0.0) || !(pz2 > 0.0)) return false;  // also NaN
        double const pz = sqrt_rn(pz2);
        double const xp = p.px / pz, yp = p.py / pz;
        p.x = p.x + (dx + dz * xp);
        p.y = p.y + (dy + dz * yp);
        p.t = p.t + dz * (energy / pz);
        if (ct != 0.0) p.t = p.t + ct;
        if (dxp == 0.0 && dyp == 0.0 && dp == 0.0 && de == 0.0)
            return true;  // the momenta unchanged: bits kept
        double const xp1 = xp + dxp, yp1 = yp + dyp;
        double mom = dp == 0.0 ? sqrt_rn(p2) : sqrt_rn(p2) + dp;  // p = 1 + delta
        if (!(mom > 0.0)) return false;
        double new_energy = 0.0;  // E/(p_ref c) after DE
        if (de != 0.0) {
            new_energy = energy * (1.0 + de);
            double const mom2 = new_energy * new_energy - inv_beta_gamma2;
            if (!(mom2 > 0.0)) return false;  // below the rest energy (or NaN)
            mom = sqrt_rn(mom2);
        }
        double const along = mom / sqrt_rn(1.0 + xp1 * xp1 + yp1 * yp1);  // pz after the shift
        p.px = along * xp1;
        p.py = along * yp1;
        if (de != 0.0)
            p.pt = inv_beta - new_energy;
        else if (dp != 0.0)
            p.pt = inv_beta - sqrt_rn(mom * mom + inv_beta_gamma2);
        return true;
    }
};

}  // namespace gt
