// Thick quadrupole: linear map at the design momentum, chromatic ("exact") map, or symplectic
// kick integration between exact drifts.
#pragma once

#include <cmath>
#include <cstdint>

#include "kernels/core/FusedMultiplyAdd.hh"
#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/PortableMath.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "kernels/elements/Drift.hh"
#include "kernels/elements/MapSupport.hh"
#include "kernels/elements/SynchrotronRadiation.hh"

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
    template <class P, class M = bool>
    GT_HOST_DEVICE GT_FORCEINLINE void operator()(P& p, double l, M live = true) const
    {
        double const k1l = k1 * l;
        where(live, p.px, fma_rn(-k1l, p.x, p.px));
        where(live, p.py, fma_rn(k1l, p.y, p.py));
    }
};

struct Quadrupole {
    double length;           //!< [m]
    double k1;               //!< [1/m^2] (dB_y/dx) / (B rho) of the reference
    double inv_beta;         //!< [1]
    double two_inv_beta;     //!< [1] 2 / beta
    double inv_beta2;        //!< [1] 1 / beta^2
    double inv_beta_gamma2;  //!< [1]
    double t_per_pt;         //!< [m] L / (beta gamma)^2: the linear map's t-pt term
    double abs_k1;           //!< [1/m^2] |k1|: chromatic model, w = sqrt(|k1| / P)
    double inv_k1;           //!< [m^2] 1 / |k1| (0 when k1 = 0)
    //! Linear model: x and y principal trajectories at the design momentum. 16-byte aligned (so is the whole
    //! Element): the six coefficients are three aligned pairs, which the GPU reads with three 128-bit loads.
    alignas(16) Focusing fx;
    Focusing fy;
    SplitSteps split;  //!< kick model
    QuadrupoleModel model;
    double c_rad;               //!< [m] radiation constant (SynchrotronRadiation.hh); 0: no radiation
    QuantumExcitation quantum;  //!< its fluctuation (`radiation = "quantum"`); c_q = 0: none

    static Quadrupole make(double length, double k1, QuadrupoleModel model, std::int32_t kicks,
                           ReferenceParticle const& ref)
    {
        Quadrupole q;
        q.length = length;
        q.k1 = k1;
        q.inv_beta = 1.0 / ref.beta;
        q.two_inv_beta = 2.0 * q.inv_beta;
        q.inv_beta2 = q.inv_beta * q.inv_beta;
        q.inv_beta_gamma2 = 1.0 / (ref.beta_gamma * ref.beta_gamma);
        q.t_per_pt = length * q.inv_beta_gamma2;
        q.abs_k1 = std::abs(k1);
        q.inv_k1 = k1 != 0.0 ? 1.0 / std::abs(k1) : 0.0;
        q.fx = focusing_host(k1, length);
        q.fy = focusing_host(-k1, length);
        q.split = SplitSteps::make(length, kicks > 0 ? kicks : 1);
        q.model = model;
        q.c_rad = 0.0;
        q.quantum = QuantumExcitation::none();
        return q;
    }

    GT_HOST_DEVICE bool operator()(Particle& p) const
    {
        if (c_rad != 0.0) {
            NoPhotons none;
            return track_radiating(p, none);
        }
        switch (model) {
            case QuadrupoleModel::linear:
                return track_linear(p);
            case QuadrupoleModel::exact:
                return track_chromatic(p);
            default:
                return track_kicks(p);
        }
    }

    //! The kick model for the particles of `live` (one particle or a block of lanes, LaneMask.hh).
    template <class P, class M = bool>
    GT_HOST_DEVICE GT_FORCEINLINE M track_kicks(P& p, M live = true) const
    {
        // pt is constant through the kicks: one ExactDriftStep for all 1 + 3 n drifts.
        auto const drift =
            ExactDriftStepOf<coordinate_t<P>>::at(p.pt, inv_beta, two_inv_beta, inv_beta2, inv_beta_gamma2);
        auto const ok = live && drift.physical();
        if (none_left(ok)) return ok;
        return split.integrate(p, drift, QuadrupoleKick{k1}, ok);
    }

    //! With classical radiation (`[lattice] radiation = "mean"`): the field by = k1 x, bx = k1 y radiates
    //! half its length at each end of the linear and chromatic maps (the trapezoidal rule: its error is
    //! O(L^2) of the loss's variation along the magnet; slices reduce it) and at every kick of the kick model
    //! (RadiatingKick; the drifts then take the pt each kick leaves). `photons`: NoPhotons, or the particle's
    //! PhotonStream with quantum excitation (radiate()).
    template <class Photons>
    GT_HOST_DEVICE bool track_radiating(Particle& p, Photons& photons) const
    {
        if (model == QuadrupoleModel::kick) {
            ExactDriftAtEachStep const drift{inv_beta, two_inv_beta, inv_beta2, inv_beta_gamma2};
            return split.integrate(p, drift,
                                   RadiatingKick<QuadrupoleKick, Photons>{QuadrupoleKick{k1}, k1, 0.0, 1,
                                                                          c_rad, inv_beta, photons});
        }
        double const half = 0.5 * length;
        radiate(p, c_rad, inv_beta, k1 * p.y, k1 * p.x, 0.0, half, photons);
        if (!(model == QuadrupoleModel::linear ? track_linear(p) : track_chromatic(p))) return false;
        radiate(p, c_rad, inv_beta, k1 * p.y, k1 * p.x, 0.0, half, photons);
        return true;
    }

    //! x'' = -k1 x, y'' = k1 y at the design momentum; t += L pt/(beta gamma)^2
    //! (Wiedemann 4th ed. eq. 7.9; ImpactX Quad; MAD-X first-order map).
    template <class P, class M = bool>
    GT_HOST_DEVICE GT_FORCEINLINE M track_linear(P& p, M live = true) const
    {
        using T = coordinate_t<P>;
        T const x = p.x, px = p.px, y = p.y, py = p.py;
        where(live, p.x, fma_rn(fx.c, x, fx.s * px));
        where(live, p.px, fma_rn(fx.c_prime, x, fx.c * px));
        where(live, p.y, fma_rn(fy.c, y, fy.s * py));
        where(live, p.py, fma_rn(fy.c_prime, y, fy.c * py));
        where(live, p.t, fma_rn(t_per_pt, p.pt, p.t));
        return live && true;
    }

    //! Exact flow of H = (px^2 + py^2) / (2 P) + k1 (x^2 - y^2) / 2 - P - pt/beta with
    //! P = p/p_ref = sqrt(1 - 2 pt/beta + pt^2) (the ImpactX ChrQuad model): in u' = du/ds = pu/P,
    //! u'' = -(k1/P) u. The path-length term dt/ds = (1/beta - pt)/P (1 + (x'^2 + y'^2)/2) - 1/beta
    //! integrates with int u'^2 ds = (E L + [u u']_0^L)/2, E = u'^2 + K u^2 (conserved), which
    //! follows from d(u u')/ds = u'^2 - K u^2. Both planes share w = sqrt(|k1|/P) (one sine-like and
    //! one hyperbolic plane, focusing_pair) and 1/w = w P / |k1|.
    //! One particle or the particles of `live` in a block of lanes (LaneMask.hh).
    template <class P, class M = bool>
    GT_HOST_DEVICE M track_chromatic(P& p, M live = true) const
    {
        using T = coordinate_t<P>;
        T const pt = p.pt;
        T const energy = inv_beta - pt;
        T const a = two_inv_beta - pt;
        T const p2 = fma_rn(-pt, a, 1.0);  // 1 - 2 pt/beta + pt^2
        M const ok = live && p2 > 0.0 && energy > 0.0;
        if (none_left(ok)) return ok;
        T const pn = sqrt_rn(p2);
        T const inv_pn = 1.0 / pn;
        T const kx = k1 * inv_pn;
        FocusingOf<T> gx{1.0, length, 0.0}, gy{1.0, length, 0.0};
        if (k1 != 0.0) {
            T const w = sqrt_rn(abs_k1 * inv_pn);
            FocusingOf<T> oscillating, hyperbolic;
            focusing_pair(w, (w * pn) * inv_k1, length, oscillating, hyperbolic);
            gx = k1 > 0.0 ? oscillating : hyperbolic;
            gy = k1 > 0.0 ? hyperbolic : oscillating;
        }
        T const x0 = p.x, xp0 = p.px * inv_pn;
        T const y0 = p.y, yp0 = p.py * inv_pn;
        T const x1 = fma_rn(gx.c, x0, gx.s * xp0);
        T const xp1 = fma_rn(gx.c_prime, x0, gx.c * xp0);
        T const y1 = fma_rn(gy.c, y0, gy.s * yp0);
        T const yp1 = fma_rn(gy.c_prime, y0, gy.c * yp0);
        // 2 ix = (x'0^2 + kx x0^2) L + (x1 x'1 - x0 x'0), 2 iy likewise with -kx.
        T const ix2 = fma_rn(fma_rn(kx * x0, x0, xp0 * xp0), length, fma_rn(x1, xp1, -(x0 * xp0)));
        T const iy2 = fma_rn(fma_rn(-kx * y0, y0, yp0 * yp0), length, fma_rn(y1, yp1, -(y0 * yp0)));
        // (1/beta - pt)/P - 1/beta without cancellation (see ExactDriftStep).
        T const dt_ds = ((pt * a) * inv_beta_gamma2) / (pn * fma_rn(pn, inv_beta, energy));
        where(ok, p.x, x1);
        where(ok, p.px, pn * xp1);
        where(ok, p.y, y1);
        where(ok, p.py, pn * yp1);
        where(ok, p.t, p.t + fma_rn(length, dt_ds, (energy * inv_pn) * (0.25 * (ix2 + iy2))));
        return ok;
    }
};

}  // namespace gt
