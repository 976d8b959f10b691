// Thin dipole edge: pole-face rotation and the fringe-field correction of the vertical focusing.
#pragma once

#include <cmath>

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"

namespace gt {

//! Edge focusing of a bend of curvature h with pole-face angle e (MAD-X DIPEDGE, first order;
//! K. L. Brown, SLAC-75, eq. 56-58):  px += h tan(e) x,  py -= h tan(e - psi) y,  with
//! psi = 2 fint hgap h (1 + sin^2 e) / cos e  (fint: fringe-field integral K1 of SLAC-75; hgap:
//! half gap, so 2 hgap is the full gap g of SLAC-75; MAD-X computes corr = 2 h hgap fint).
//! The same matrix applies at the entrance (e1) and the exit (e2) to first order.
struct DipoleEdge {
    double h;    //!< [1/m] curvature of the bend
    double e;    //!< [rad] pole-face angle
    double psi;  //!< [rad] fringe-field correction
    double kx;   //!< [1/m] h tan(e)
    double ky;   //!< [1/m] -h tan(e - psi)

    static DipoleEdge make(double h, double e, double fint, double hgap)
    {
        DipoleEdge d;
        d.h = h;
        d.e = e;
        double const s = std::sin(e);
        d.psi = 2.0 * fint * hgap * h * (1.0 + s * s) / std::cos(e);
        d.kx = h * std::tan(e);
        d.ky = -h * std::tan(e - d.psi);
        return d;
    }

    GT_HOST_DEVICE GT_FORCEINLINE bool operator()(Particle& p) const
    {
        p.px += kx * p.x;
        p.py += ky * p.y;
        return true;
    }
};

}  // namespace gt
