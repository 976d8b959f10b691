// Sector bend body: the linear map with dispersion and path-length terms, optionally combined-function.
#pragma once

#include <cmath>

#include "kernels/core/FusedMultiplyAdd.hh"
#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "kernels/elements/MapSupport.hh"
#include "kernels/elements/SynchrotronRadiation.hh"

namespace gt {

//! The body of a sector bend (no edges: see DipoleEdge) of curvature h = angle / L and gradient k1,
//! to first order in all six coordinates. It is the exact flow of the quadratic Hamiltonian
//!   H2 = (px^2 + py^2)/2 + (h^2 + k1) x^2/2 - k1 y^2/2 + h x pt/beta + pt^2 / (2 (beta gamma)^2),
//! the expansion of -(1 + h x) sqrt(1 - 2 pt/beta + pt^2 - px^2 - py^2) - pt/beta + h x + h^2 x^2/2
//! + k1 (x^2 - y^2)/2 (Wolski, Beam Dynamics, sec. 3.3; MAD-X physics guide, SBEND first order;
//! ImpactX Sbend for k1 = 0). With Kx = h^2 + k1 and C, S the principal trajectories of Kx,
//! D = int_0^L S ds = (1 - C)/Kx, F = int_0^L D ds = (L - S)/Kx:
//!   x  <- C x + S px - (h/beta) D pt          px <- -Kx S x + C px - (h/beta) S pt
//!   t  <- t + (h/beta)(S x + D px) + (L/(beta gamma)^2 - (h/beta)^2 F) pt
//! and the quadrupole map of -k1 in y. For k1 = 0: R16 = -(1 - cos theta)/(h beta),
//! R26 = -sin theta / beta, R51 = sin theta / beta, R56 = L/(beta gamma)^2 - (theta - sin theta)/(h beta^2).
//! Signs: h > 0 bends towards -x (the centre of curvature is at x = -1/h), as in MAD-X.
struct SectorBend {
    double length;                        //!< [m] arc length of the reference orbit
    double angle;                         //!< [rad] bending angle
    double k1;                            //!< [1/m^2] gradient, normalized
    double r11, r12, r16, r21, r22, r26;  //!< horizontal and dispersive terms [1, m, m, 1/m, 1, 1]
    double r33, r34, r43, r44;            //!< vertical [1, m, 1/m, 1]
    double r51, r52, r56;                 //!< path length [1, m, m]
    double c_rad;                         //!< [m] radiation constant (SynchrotronRadiation.hh); 0: none
    double inv_beta;                      //!< [1] of the reference (radiation only)
    QuantumExcitation quantum;            //!< the loss's fluctuation (`radiation = "quantum"`); c_q = 0: none

    static SectorBend make(double length, double angle, double k1, ReferenceParticle const& ref)
    {
        double const h = angle / length;
        double const inv_beta = 1.0 / ref.beta;
        double const kx = h * h + k1;
        Focusing const fx = focusing_host(kx, length);
        Focusing const fy = focusing_host(-k1, length);
        double d = 0.0, f = 0.0;
        double const u = -kx * length * length;
        if (std::abs(u) < 0.1) {
            // Series sum_n u^n / (2n+2)! and u^n / (2n+3)!: (1 - C)/Kx and (L - S)/Kx cancel here.
            double const l2 = length * length;
            d = l2 * (1.0 / 2 +
                      u * (1.0 / 24 +
                           u * (1.0 / 720 +
                                u * (1.0 / 40320 + u * (1.0 / 3628800 + u * (1.0 / 479001600 +
                                                                             u * (1.0 / 87178291200.0)))))));
            f = l2 * length *
                (1.0 / 6 +
                 u * (1.0 / 120 +
                      u * (1.0 / 5040 +
                           u * (1.0 / 362880 + u * (1.0 / 39916800 + u * (1.0 / 6227020800.0 +
                                                                          u * (1.0 / 1307674368000.0)))))));
        } else {
            d = (1.0 - fx.c) / kx;
            f = (length - fx.s) / kx;
        }
        double const hb = h * inv_beta;
        SectorBend b;
        b.length = length;
        b.angle = angle;
        b.k1 = k1;
        b.r11 = fx.c;
        b.r12 = fx.s;
        b.r16 = -hb * d;
        b.r21 = fx.c_prime;
        b.r22 = fx.c;
        b.r26 = -hb * fx.s;
        b.r33 = fy.c;
        b.r34 = fy.s;
        b.r43 = fy.c_prime;
        b.r44 = fy.c;
        b.r51 = hb * fx.s;
        b.r52 = hb * d;
        b.r56 = length / (ref.beta_gamma * ref.beta_gamma) - hb * hb * f;
        b.c_rad = 0.0;
        b.inv_beta = inv_beta;
        b.quantum = QuantumExcitation::none();
        return b;
    }

    //! With classical radiation: the field by = h + k1 x, bx = k1 y radiates half the slice at each end
    //! (trapezoidal rule, O(L^2) in the loss's variation along the slice; the exact model integrates it
    //! within the body).
    GT_HOST_DEVICE bool operator()(Particle& p) const
    {
        if (c_rad == 0.0) return track_map(p);
        NoPhotons none;
        return track_radiating(p, none);
    }

    //! With radiation (c_rad != 0): `photons` NoPhotons, or the particle's PhotonStream with quantum
    //! excitation (radiate()).
    template <class Photons>
    GT_HOST_DEVICE GT_FORCEINLINE bool track_radiating(Particle& p, Photons& photons) const
    {
        double const h = angle / length, half = 0.5 * length;
        radiate(p, c_rad, inv_beta, k1 * p.y, h + k1 * p.x, h, half, photons);
        track_map(p);
        radiate(p, c_rad, inv_beta, k1 * p.y, h + k1 * p.x, h, half, photons);
        return true;
    }

    GT_HOST_DEVICE GT_FORCEINLINE bool track_map(Particle& p) const
    {
        double const x = p.x, px = p.px, y = p.y, py = p.py, pt = p.pt;
        p.x = fma_rn(r11, x, fma_rn(r12, px, r16 * pt));
        p.px = fma_rn(r21, x, fma_rn(r22, px, r26 * pt));
        p.y = fma_rn(r33, y, r34 * py);
        p.py = fma_rn(r43, y, r44 * py);
        p.t = fma_rn(r51, x, fma_rn(r52, px, fma_rn(r56, pt, p.t)));
        return true;
    }
};

}  // namespace gt
