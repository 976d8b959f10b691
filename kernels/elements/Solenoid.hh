// Thick hard-edge solenoid: the coupled linear map including the edge focusing of the hard edges.
#pragma once

#include <cmath>

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/ReferenceParticle.hh"

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
struct Solenoid {
    double length;           //!< [m]
    double ks;               //!< [1/m]
    double m11;              //!< [1] C^2
    double m12;              //!< [m] S C / K
    double m13;              //!< [1] S C
    double m14;              //!< [m] S^2 / K
    double m21;              //!< [1/m] -K S C
    double m23;              //!< [1/m] -K S^2
    double inv_beta_gamma2;  //!< [1]

    static Solenoid make(double length, double ks, ReferenceParticle const& ref)
    {
        Solenoid s;
        s.length = length;
        s.ks = ks;
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
        double const x = p.x, px = p.px, y = p.y, py = p.py;
        p.x = m11 * x + m12 * px + m13 * y + m14 * py;
        p.px = m21 * x + m11 * px + m23 * y + m13 * py;
        p.y = -m13 * x - m14 * px + m11 * y + m12 * py;
        p.py = -m23 * x - m13 * px + m21 * y + m11 * py;
        p.t += length * inv_beta_gamma2 * p.pt;
        return true;
    }
};

}  // namespace gt
