// Thick hard-edge solenoid: the coupled map including the edge focusing of the hard edges, linear at the
// design momentum or exact (the helix of each particle).
#pragma once

#include <cmath>

#include "kernels/core/FusedMultiplyAdd.hh"
#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/PortableMath.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "kernels/elements/Drift.hh"

namespace gt {

//! Hard-edge solenoid of strength ks = B_s / (B rho) (positive for a field along +s and a positive
//! beam, MAD-X SOLENOID). In canonical momenta the body Hamiltonian
//! H = ((px + K y)^2 + (py - K x)^2)/2 + pt^2/(2 (beta gamma)^2), K = ks/2, gives the whole map
//! including both hard edges (canonical momenta are continuous across an edge; the kinetic ones
//! jump, which is the edge focusing). With C = cos(K L), S = sin(K L)
//! (Wolski, Beam Dynamics, eq. 3.176; MAD-X / TRANSPORT solenoid matrix; ImpactX Sol):
//!   x  <- C^2 x + (S C / K) px + S C y + (S^2 / K) py
//!   px <- -K S C x + C^2 px - K S^2 y + S C py
//!   y  <- -S C x - (S^2 / K) px + C^2 y + (S C / K) py
//!   py <- K S^2 x - S C px - K S C y + C^2 py
//!   t  <- t + L pt / (beta gamma)^2
//! That is the linear model, at the design momentum (no chromatic terms). The exact model solves the
//! exact Hamiltonian H = -sqrt(P^2 - (px + K y)^2 - (py - K x)^2) - pt/beta, P^2 = 1 - 2 pt/beta + pt^2:
//! with the kinetic momenta pi_x = px + K y, pi_y = py - K x one finds pi_x' = 2 K pi_y / pz,
//! pi_y' = -2 K pi_x / pz, so pi_x^2 + pi_y^2 and pz = sqrt(P^2 - pi_x^2 - pi_y^2) are constant along the
//! body (the helix about the field line; Wolski, Beam Dynamics, sec. 3.5, for the paraxial form with pz ->
//! P). In the variables (x, px/pz, y, py/pz), H/pz is the reference Hamiltonian with K -> k = K/pz, so the
//! map is the matrix above with k in place of K (C = cos kL, S = sin kL) acting on (x, px/pz, y, py/pz), and
//!   t  <- t + L ((1/beta - pt)/pz - 1/beta),
//! written as the exact drift writes it (Drift.hh, no cancellation near the design momentum). Exact in pt
//! and in the transverse momenta; to first order in pt it gives MAD-X's chromatic solenoid terms
//! (k = ks / (2 (1 + delta)) in the paraxial limit pz -> P).
struct Solenoid {
    double length;           //!< [m]
    double ks;               //!< [1/m]
    bool exact;              //!< the exact model (per-particle k = K/pz); false: the linear matrix
    double inv_beta;         //!< [1] (exact model)
    double two_inv_beta;     //!< [1] (exact model)
    double inv_beta2;        //!< [1] (exact model)
    double m11;              //!< [1] C^2
    double m12;              //!< [m] S C / K
    double m13;              //!< [1] S C
    double m14;              //!< [m] S^2 / K
    double m21;              //!< [1/m] -K S C
    double m23;              //!< [1/m] -K S^2
    double inv_beta_gamma2;  //!< [1]

    static Solenoid make(double length, double ks, ReferenceParticle const& ref, bool exact = false)
    {
        Solenoid s;
        s.length = length;
        s.ks = ks;
        s.exact = exact;
        s.inv_beta = 1.0 / ref.beta;
        s.two_inv_beta = 2.0 * s.inv_beta;
        s.inv_beta2 = s.inv_beta * s.inv_beta;
        double const k = 0.5 * ks;
        double const sn = std::sin(k * length), cs = std::cos(k * length);
        s.m11 = cs * cs;
        s.m13 = sn * cs;
        s.m12 = k != 0.0 ? sn * cs / k : length;
        s.m14 = k != 0.0 ? sn * sn / k : 0.0;
        s.m21 = -k * sn * cs;
        s.m23 = -k * sn * sn;
        s.inv_beta_gamma2 = 1.0 / (ref.beta_gamma * ref.beta_gamma);
        return s;
    }

    GT_HOST_DEVICE bool operator()(Particle& p) const
    {
        if (exact) return track_exact(p);
        double const x = p.x, px = p.px, y = p.y, py = p.py;
        p.x = m11 * x + m12 * px + m13 * y + m14 * py;
        p.px = m21 * x + m11 * px + m23 * y + m13 * py;
        p.y = -m13 * x - m14 * px + m11 * y + m12 * py;
        p.py = -m23 * x - m13 * px + m21 * y + m11 * py;
        p.t += length * inv_beta_gamma2 * p.pt;
        return true;
    }

    //! The exact model (see above); false (lost) when pz is not real or the energy not positive.
    GT_HOST_DEVICE bool track_exact(Particle& p) const
    {
        ExactDriftStep const d = ExactDriftStep::at(p.pt, inv_beta, two_inv_beta, inv_beta2, inv_beta_gamma2);
        if (!d.physical()) return false;
        double const big_k = 0.5 * ks;
        double const x = p.x, y = p.y;
        double const pi_x = fma_rn(big_k, y, p.px), pi_y = fma_rn(-big_k, x, p.py);
        double const transverse2 = fma_rn(pi_x, pi_x, pi_y * pi_y);
        double const pz2 = d.p2 - transverse2;
        if (!(pz2 > 0.0)) return false;
        double const pz = pmath::sqrt(pz2);
        double const inv_pz = 1.0 / pz;
        double const k = big_k * inv_pz;
        double sn = 0.0, cs = 0.0, s_k = length;
        if (big_k != 0.0) {
            pmath::sincos<true>(k * length, sn, cs);
            s_k = sn / k;
        } else {
            cs = 1.0;
        }
        double const c2 = cs * cs, sc = sn * cs, s2 = sn * sn;
        double const sc_k = cs * s_k, s2_k = sn * s_k;
        double const xp = p.px * inv_pz, yp = p.py * inv_pz;
        double const x1 = c2 * x + sc_k * xp + sc * y + s2_k * yp;
        double const xp1 = -k * sc * x + c2 * xp - k * s2 * y + sc * yp;
        double const y1 = -sc * x - s2_k * xp + c2 * y + sc_k * yp;
        double const yp1 = k * s2 * x - sc * xp - k * sc * y + c2 * yp;
        p.x = x1;
        p.px = pz * xp1;
        p.y = y1;
        p.py = pz * yp1;
        double const num = fma_rn(transverse2, inv_beta2, d.num_pt);
        p.t = fma_rn(length, num / (pz * fma_rn(pz, inv_beta, d.energy)), p.t);
        return true;
    }
};

}  // namespace gt
