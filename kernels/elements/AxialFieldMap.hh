// A solenoid or RF cavity given by its on-axis field profile: the exact equations of motion in s,
// integrated by fixed-step RK4 through the paraxial off-axis field (docs/physics.md §3).
#pragma once

#include <cstdint>

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/PortableMath.hh"
#include "kernels/core/Types.hh"
#include "kernels/elements/MapSupport.hh"
#include "kernels/field/CubicSplineProfile.hh"
#include "kernels/field/ParaxialField.hh"

namespace gt {

//! One slice [z_begin, z_begin + length] of a profile element. Inside, a particle is followed in
//! absolute variables normalized to the entry reference (momentum p0, energy E0):
//!   x, y [m];  Px, Py = kinetic P / p0;  tau = c (t - t_ref,entry) [m];  pt = -(E - E0) / (p0 c)
//! with, for s as the independent variable (Lorentz force, v = c P / E, ds = v_z dt),
//!   dx/ds = Px/Pz,  dy/ds = Py/Pz,  dtau/ds = w/Pz,  w = E/(p0 c) = 1/beta0 - pt,
//!   dPx/ds = kappa (w Ex + c (Py Bz - Pz By)) / Pz,  dPy/ds = kappa (w Ey + c (Pz Bx - Px Bz)) / Pz,
//!   dpt/ds = -kappa (Px Ex + Py Ey + Pz Ez) / Pz,     kappa = q / (p0 c) [1/V],
//! Pz = sqrt(1 - 2 pt/beta0 + pt^2 - Px^2 - Py^2) (no cancellation at low energy). A particle whose
//! Pz^2 reaches 0 (reflected) is lost. At the slice ends the canonical momenta of the deck's
//! coordinates are converted to kinetic ones and back with the solenoid's vector potential
//! A_theta = r B/2 - r^3 B''/16, so a slice boundary inside the field is seamless and the map
//! agrees with the hard-edge solenoid's convention. At the exit the coordinates are re-expressed
//! relative to the reference after the slice (momentum p1): its pt_ref_end and tau_ref_end come
//! from the host tracking the reference particle through this same code.
struct AxialFieldMap {
    CubicSplineProfile profile;  //!< B(z) [T] or e(z) [V/m], the deck's scale applied
    bool rf;                     //!< true: TM0 cavity (profile is Ez), false: static solenoid (Bz)
    double z_begin;              //!< [m] profile coordinate of the slice entrance
    double length;               //!< [m]
    std::int32_t steps;          //!< RK4 steps over the slice
    double k_rf;                 //!< [1/m] omega / c
    double phase;           //!< [rad] RF phase when the reference enters the cavity (crest offset included)
    double tau_begin;       //!< [m] c x (time of the reference at this slice - at the cavity entrance)
    double kappa;           //!< [1/V] q / (p0 c)
    double inv_beta0;       //!< [1] 1/beta of the entry reference
    double pt_ref_end;      //!< [1] the reference's pt at the exit, entry normalization
    double tau_ref_end;     //!< [m] the reference's tau at the exit
    double momentum_ratio;  //!< [1] p0 / p1

    //! The state inside the slice.
    struct State {
        double x, y, tau, px, py, pt;
    };

    //! The field at (x, y, z) for a particle at time tau.
    GT_HOST_DEVICE FieldValue field(double x, double y, double z, double tau) const
    {
        ProfileSample const f = profile(z);
        if (!rf) return paraxial_solenoid(f, x, y);
        double sn = 0.0, cs = 0.0;
        pmath::sincos(k_rf * (tau_begin + tau) + phase, sn, cs);
        return paraxial_tm0(f, k_rf, 1.0 / constants::c_light, x, y, cs, sn);
    }

    //! d(state)/ds at z; `ok` becomes false when the particle cannot move forward.
    GT_HOST_DEVICE State derivative(State const& s, double z, bool& ok) const
    {
        FieldValue const f = field(s.x, s.y, z, s.tau);
        double pz2 = momentum_squared(s.pt, inv_beta0) - s.px * s.px - s.py * s.py;
        if (!(pz2 > 0.0)) {
            ok = false;
            pz2 = 1.0;  // keeps the arithmetic finite; the result is discarded
        }
        double const pz = pmath::sqrt(pz2);
        double const inv_pz = 1.0 / pz;
        double const w = inv_beta0 - s.pt;
        double const kc = kappa * constants::c_light;
        State d;
        d.x = s.px * inv_pz;
        d.y = s.py * inv_pz;
        d.tau = w * inv_pz;
        d.px = (kappa * w * f.ex + kc * (s.py * f.bz - pz * f.by)) * inv_pz;
        d.py = (kappa * w * f.ey + kc * (pz * f.bx - s.px * f.bz)) * inv_pz;
        d.pt = -kappa * (s.px * f.ex + s.py * f.ey + pz * f.ez) * inv_pz;
        return d;
    }

    //! q A_theta / (r p0) at (x, y, z) for the canonical <-> kinetic conversion (0 for a cavity).
    GT_HOST_DEVICE double potential_over_r(double x, double y, double z) const
    {
        if (rf) return 0.0;
        ProfileSample const b = profile(z);
        double const r2 = x * x + y * y;
        return kappa * constants::c_light * (0.5 * b.f - (r2 / 16.0) * b.d2);
    }

    //! Pushes p through the slice in entry-normalized absolute variables: on return p.t = tau,
    //! p.pt is relative to E0 / (p0 c) and px, py are canonical, normalized to p0.
    GT_HOST_DEVICE bool integrate(Particle& p) const
    {
        double const a_in = potential_over_r(p.x, p.y, z_begin);
        State s{p.x, p.y, p.t, p.px + a_in * p.y, p.py - a_in * p.x, p.pt};
        double const h = length / double(steps);
        bool ok = true;
        auto axpy = [](State const& y, double a, State const& k) {
            return State{y.x + a * k.x,   y.y + a * k.y,   y.tau + a * k.tau,
                         y.px + a * k.px, y.py + a * k.py, y.pt + a * k.pt};
        };
        for (std::int32_t i = 0; i < steps; ++i) {
            double const z0 = z_begin + double(i) * h;
            State const k1 = derivative(s, z0, ok);
            State const k2 = derivative(axpy(s, 0.5 * h, k1), z0 + 0.5 * h, ok);
            State const k3 = derivative(axpy(s, 0.5 * h, k2), z0 + 0.5 * h, ok);
            State const k4 = derivative(axpy(s, h, k3), z0 + h, ok);
            if (!ok) return false;
            double const h6 = h / 6.0;
            s.x += h6 * (k1.x + 2.0 * (k2.x + k3.x) + k4.x);
            s.y += h6 * (k1.y + 2.0 * (k2.y + k3.y) + k4.y);
            s.tau += h6 * (k1.tau + 2.0 * (k2.tau + k3.tau) + k4.tau);
            s.px += h6 * (k1.px + 2.0 * (k2.px + k3.px) + k4.px);
            s.py += h6 * (k1.py + 2.0 * (k2.py + k3.py) + k4.py);
            s.pt += h6 * (k1.pt + 2.0 * (k2.pt + k3.pt) + k4.pt);
        }
        double const a_out = potential_over_r(s.x, s.y, z_begin + length);
        p = Particle{s.x, s.px - a_out * s.y, s.y, s.py + a_out * s.x, s.tau, s.pt};
        return true;
    }

    GT_HOST_DEVICE bool operator()(Particle& p) const
    {
        if (!integrate(p)) return false;
        p.px *= momentum_ratio;
        p.py *= momentum_ratio;
        p.t -= tau_ref_end;
        p.pt = (p.pt - pt_ref_end) * momentum_ratio;
        return true;
    }
};

}  // namespace gt
