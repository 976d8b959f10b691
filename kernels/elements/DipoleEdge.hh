// Thin dipole edge: pole-face rotation and the fringe-field correction of the vertical focusing.
#pragma once

#include <cmath>
#include <type_traits>

#include "kernels/core/LaneMask.hh"
#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/elements/SynchrotronRadiation.hh"

namespace gt {

//! Edge focusing of a bend of curvature h with pole-face angle e (MAD-X DIPEDGE, first order;
//! K. L. Brown, SLAC-75, eq. 56-58):  px += h tan(e) x,  py -= h tan(e - psi) y,  with
//! psi = 2 fint hgap h (1 + sin^2 e) / cos e  (fint: fringe-field integral K1 of SLAC-75; hgap:
//! half gap, so 2 hgap is the full gap g of SLAC-75; MAD-X computes corr = 2 h hgap fint).
//! The same matrix applies at the entrance (e1) and the exit (e2) to first order.
//!
//! With `second_order` the edge adds the second-order terms of the hard-edge fringe and pole-face
//! rotation that MAD-X's TWISS uses for SBEND edges (TRANSPORT's, K. L. Brown, SLAC-75, with the
//! pole-face curvature 0; read off MAD-X 5's SECTORMAP of bends of vanishing length for several h, e,
//! k1, fint: tests/python/optics_madx_test.py checks them). With t = tan e, s2 = 1 + t^2 and
//! g = +1 at the entrance, -1 at the exit, all evaluated at the incoming coordinates:
//!   x  += g h (s2 y^2 - t^2 x^2)/2          y  += g h t^2 x y
//!   px += g h t^2 (x px - y py) + cxx x^2 + cyy y^2
//!   py -= g h (t^2 x py + s2 y px) + cxy x y
//! cxx = k1 t (- h^2 t^3/2 at the exit), cyy = -k1 t + h^2 (t/2 + t^3) (entrance), -k1 t - h^2 t^3/2
//! (exit), cxy = -2 k1 t (+ h^2 t s2 at the exit). For e = 0 the terms x += g h y^2/2, py -= g h y px
//! are the exact (symplectic) map of the kinematic fringe exp(:-g h y^2 px/2:); the others are a
//! second-order truncation, symplectic to that order, as MAD-X's. These terms give the bends' share
//! of the chromaticity that MAD-X computes (the closed orbit at dp/p runs through the edge off axis).
struct DipoleEdge {
    double h;              //!< [1/m] curvature of the bend
    double e;              //!< [rad] pole-face angle
    double psi;            //!< [rad] fringe-field correction
    double kx;             //!< [1/m] h tan(e)
    double ky;             //!< [1/m] -h tan(e - psi)
    bool second_order;     //!< the terms below apply
    double ax, ay;         //!< [1/m] g h s2 / 2 and g h t^2 / 2: x += ax y^2 - ay x^2
    double gt2;            //!< [1/m] g h t^2
    double gs2;            //!< [1/m] g h s2
    double cxx, cyy, cxy;  //!< [1/m^2]
    double c_rad;          //!< [m] radiation constant of the bend (SynchrotronRadiation.hh); 0: none
    double inv_beta;       //!< [1] of the reference (radiation only)
    double tan_e;          //!< [1] tan(e) (radiation only)

    static DipoleEdge make(double h, double e, double fint, double hgap)
    {
        DipoleEdge d;
        d.h = h;
        d.e = e;
        double const s = std::sin(e);
        d.psi = 2.0 * fint * hgap * h * (1.0 + s * s) / std::cos(e);
        d.kx = h * std::tan(e);
        d.ky = -h * std::tan(e - d.psi);
        d.second_order = false;
        d.ax = d.ay = d.gt2 = d.gs2 = d.cxx = d.cyy = d.cxy = 0.0;
        d.c_rad = 0.0;
        d.inv_beta = 1.0;
        d.tan_e = std::tan(e);
        return d;
    }

    //! The edge with its second-order terms (see above); `exit` for the exit face, k1 the bend's gradient.
    static DipoleEdge make_second_order(double h, double e, double fint, double hgap, double k1, bool exit)
    {
        DipoleEdge d = make(h, e, fint, hgap);
        double const g = exit ? -1.0 : 1.0;
        double const t = std::tan(e), t2 = t * t, s2 = 1.0 + t2, h2 = h * h;
        d.second_order = true;
        d.ax = 0.5 * g * h * s2;
        d.ay = 0.5 * g * h * t2;
        d.gt2 = g * h * t2;
        d.gs2 = g * h * s2;
        d.cxx = exit ? k1 * t - 0.5 * h2 * t2 * t : k1 * t;
        d.cyy = exit ? -k1 * t - 0.5 * h2 * t2 * t : -k1 * t + h2 * (0.5 * t + t2 * t);
        d.cxy = exit ? -2.0 * k1 * t + h2 * t * s2 : -2.0 * k1 * t;
        return d;
    }

    //! One particle or a block of lanes (LaneMask.hh): kicks the particles of `live` (the same operations
    //! in the same order for both); none is lost.
    //! With classical radiation (one particle only: the CPU's lanes track an edge with c_rad != 0 per
    //! particle, SegmentLanes.hh): the wedge between the sector's radial face and the rotated pole face. At x
    //! the magnet is shorter than the sector by x tan(e) (a positive e makes it shorter outside, x > 0), so
    //! the particle radiates over a path of -x tan(e) in the field h: the edge term -D h^2 tan(e) of I4
    //! (Helm, Lee and Morton, SLAC-PUB-1193; MAD-X's synch_4). The gradient's share is second order in x.
    template <class P, class M = bool>
    GT_HOST_DEVICE GT_FORCEINLINE auto operator()(P& p, M live = true) const
    {
        if constexpr (std::is_same_v<P, Particle>) {
            if (c_rad != 0.0) radiate(p, c_rad, inv_beta, 0.0, h, 0.0, -p.x * tan_e);
        }
        if (second_order) return track_second_order(p, live);
        where(live, p.px, p.px + kx * p.x);
        where(live, p.py, p.py + ky * p.y);
        return live && true;
    }

    template <class P, class M = bool>
    GT_HOST_DEVICE auto track_second_order(P& p, M live = true) const
    {
        using T = coordinate_t<P>;
        T const x = p.x, px = p.px, y = p.y, py = p.py;
        where(live, p.x, x + ax * y * y - ay * x * x);
        where(live, p.px, px + kx * x + gt2 * (x * px - y * py) + cxx * x * x + cyy * y * y);
        where(live, p.y, y + gt2 * x * y);
        where(live, p.py, py + ky * y - (gt2 * x * py + gs2 * y * px) + cxy * x * y);
        return live && true;
    }
};

}  // namespace gt
