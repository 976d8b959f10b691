// Thin solenoid: the rotation and the focusing of a solenoid of vanishing length (MAD-X SOLENOID, L = 0).
#pragma once

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/PortableMath.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "kernels/elements/MapSupport.hh"

namespace gt {

//! A solenoid of integrated strength ksi = ks L [rad] and a length lrad for its focusing (MAD-X's
//! thin SOLENOID: KSI, LRAD; its map read off MAD-X 5's SECTORMAP): the transverse coordinates and
//! momenta turn by theta = ksi / (2P) (P = p/p_ref of the particle),
//!   x <- c x + s y,  y <- -s x + c y,  px <- c px + s py,  py <- -s px + c py,
//! and then px -= f x, py -= f y with f = (ksi/2)^2 / (lrad P) (none when lrad = 0): the thick
//! solenoid's rotation K L/P and focusing (K/P)^2 L P of K = ks/2, at lengths where K L stays finite.
//! Both are flows of Hamiltonians, theta(pt) (y px - x py) and f(pt) (x^2 + y^2)/2, so t changes by
//! their pt-derivatives, dtheta/dpt (y px - x py) and df/dpt (x^2 + y^2)/2, with
//! d(1/P)/dpt = (1/beta - pt)/P^3: the map is symplectic in all six coordinates. At P = 1 it is
//! MAD-X's matrix; MAD-X's thin solenoid has no chromatic (T_ij6) terms, this one has the 1/P.
struct ThinSolenoid {
    double half_ksi;  //!< [rad] ksi / 2
    double focus;     //!< [1/m] (ksi/2)^2 / lrad, 0 without lrad
    double inv_beta;  //!< [1]

    static ThinSolenoid make(double ksi, double lrad, ReferenceParticle const& ref)
    {
        ThinSolenoid s;
        s.half_ksi = 0.5 * ksi;
        s.focus = lrad > 0.0 ? s.half_ksi * s.half_ksi / lrad : 0.0;
        s.inv_beta = 1.0 / ref.beta;
        return s;
    }

    GT_HOST_DEVICE bool operator()(Particle& p) const
    {
        double const pt = p.pt;
        double const energy = inv_beta - pt;
        double const p2 = momentum_squared(pt, inv_beta);
        if (!(p2 > 0.0) || !(energy > 0.0)) return false;
        double const inv_pn = 1.0 / pmath::sqrt(p2);
        double const d_inv_pn = energy * inv_pn * inv_pn * inv_pn;  // d(1/P)/dpt
        double sn = 0.0, cs = 0.0;
        pmath::sincos(half_ksi * inv_pn, sn, cs);
        double const x = p.x, y = p.y, px = p.px, py = p.py;
        double const lz = y * px - x * py;  // unchanged by the rotation
        double const x1 = cs * x + sn * y, y1 = cs * y - sn * x;
        double const f = focus * inv_pn;
        p.x = x1;
        p.y = y1;
        p.px = cs * px + sn * py - f * x1;
        p.py = cs * py - sn * px - f * y1;
        p.t += d_inv_pn * (half_ksi * lz + 0.5 * focus * (x1 * x1 + y1 * y1));
        return true;
    }
};

}  // namespace gt
