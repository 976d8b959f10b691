// Thick quadrupole: linear map at the design momentum, chromatic ("exact") map, or symplectic
// kick integration between exact drifts.
#pragma once

#include <cstdint>

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/PortableMath.hh"
#include "kernels/elements/Drift.hh"
#include "kernels/elements/MapSupport.hh"
#include "kernels/core/ReferenceParticle.hh"

namespace gt {

enum class QuadrupoleModel : std::int32_t {
    linear,  //!< thick linear map at the design momentum, with the t-pt drift term
    exact,   //!< chromatic: focusing k1 / (p/p_ref) per particle, exact in pt, paraxial in px, py
    kick     //!< exact drifts and thin quadrupole kicks, 4th-order splitting
};

//! Thin quadrupole kick integrated over a length l: px -= k1 l x, py += k1 l y
//! (H contains k1 (x^2 - y^2) / 2; MAD-X sign: k1 > 0 focuses horizontally).
struct QuadrupoleKick {
    double k1;  //!< [1/m^2]
    GT_HOST_DEVICE GT_FORCEINLINE void operator()(Particle& p, double l) const
    {
        p.px -= k1 * l * p.x;
        p.py += k1 * l * p.y;
    }
};

struct Quadrupole {
    double length;           //!< [m]
    double k1;               //!< [1/m^2] (dB_y/dx) / (B rho) of the reference
    double inv_beta;         //!< [1]
    double inv_beta_gamma2;  //!< [1]
    Focusing fx, fy;         //!< linear model: x and y principal trajectories at the design momentum
    SplitSteps split;        //!< kick model
    QuadrupoleModel model;

    static Quadrupole make(double length, double k1, QuadrupoleModel model, std::int32_t kicks,
                           ReferenceParticle const& ref)
    {
        Quadrupole q;
        q.length = length;
        q.k1 = k1;
        q.inv_beta = 1.0 / ref.beta;
        q.inv_beta_gamma2 = 1.0 / (ref.beta_gamma * ref.beta_gamma);
        q.fx = focusing_host(k1, length);
        q.fy = focusing_host(-k1, length);
        q.split = SplitSteps::make(length, kicks > 0 ? kicks : 1);
        q.model = model;
        return q;
    }

    GT_HOST_DEVICE bool operator()(Particle& p) const
    {
        switch (model) {
            case QuadrupoleModel::linear:
                return track_linear(p);
            case QuadrupoleModel::exact:
                return track_chromatic(p);
            default:
                return split.integrate(p, ExactDriftStep{inv_beta, inv_beta_gamma2}, QuadrupoleKick{k1});
        }
    }

    //! x'' = -k1 x, y'' = k1 y at the design momentum; t += L pt/(beta gamma)^2
    //! (Wiedemann 4th ed. eq. 7.9; ImpactX Quad; MAD-X first-order map).
    GT_HOST_DEVICE GT_FORCEINLINE bool track_linear(Particle& p) const
    {
        double const x = p.x, px = p.px, y = p.y, py = p.py;
        p.x = fx.c * x + fx.s * px;
        p.px = fx.c_prime * x + fx.c * px;
        p.y = fy.c * y + fy.s * py;
        p.py = fy.c_prime * y + fy.c * py;
        p.t += length * inv_beta_gamma2 * p.pt;
        return true;
    }

    //! Exact flow of H = (px^2 + py^2) / (2 P) + k1 (x^2 - y^2) / 2 - P - pt/beta with
    //! P = p/p_ref = sqrt(1 - 2 pt/beta + pt^2) (the ImpactX ChrQuad model): in u' = du/ds = pu/P,
    //! u'' = -(k1/P) u. The path-length term dt/ds = (1/beta - pt)/P (1 + (x'^2 + y'^2)/2) - 1/beta
    //! integrates with int u'^2 ds = (E L + [u u']_0^L)/2, E = u'^2 + K u^2 (conserved), which
    //! follows from d(u u')/ds = u'^2 - K u^2.
    GT_HOST_DEVICE bool track_chromatic(Particle& p) const
    {
        double const pt = p.pt;
        double const energy = inv_beta - pt;
        double const p2 = momentum_squared(pt, inv_beta);
        if (!(p2 > 0.0) || !(energy > 0.0)) return false;
        double const pn = pmath::sqrt(p2);
        double const inv_pn = 1.0 / pn;
        double const kx = k1 * inv_pn;
        Focusing const gx = focusing(kx, length);
        Focusing const gy = focusing(-kx, length);
        double const x0 = p.x, xp0 = p.px * inv_pn;
        double const y0 = p.y, yp0 = p.py * inv_pn;
        double const x1 = gx.c * x0 + gx.s * xp0;
        double const xp1 = gx.c_prime * x0 + gx.c * xp0;
        double const y1 = gy.c * y0 + gy.s * yp0;
        double const yp1 = gy.c_prime * y0 + gy.c * yp0;
        double const ix = 0.5 * ((xp0 * xp0 + kx * x0 * x0) * length + (x1 * xp1 - x0 * xp0));
        double const iy = 0.5 * ((yp0 * yp0 - kx * y0 * y0) * length + (y1 * yp1 - y0 * yp0));
        // (1/beta - pt)/P - 1/beta without cancellation (see drift_exact).
        double const dt_ds =
            (2.0 * pt * inv_beta - pt * pt) * inv_beta_gamma2 / (pn * (energy + pn * inv_beta));
        p.x = x1;
        p.px = pn * xp1;
        p.y = y1;
        p.py = pn * yp1;
        p.t += length * dt_ds + energy * inv_pn * 0.5 * (ix + iy);
        return true;
    }
};

}  // namespace gt
