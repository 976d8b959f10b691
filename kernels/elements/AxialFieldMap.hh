// A solenoid or RF cavity given by its on-axis field profile: the exact equations of motion in s,
// integrated by fixed-step RK4 through the paraxial off-axis field (docs/physics.md §3).
#pragma once

#include <cstdint>

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/PortableMath.hh"
#include "kernels/core/Types.hh"
#include "kernels/elements/FieldMapSlice.hh"
#include "kernels/elements/RungeKuttaInS.hh"
#include "kernels/field/CubicSplineProfile.hh"
#include "kernels/field/ParaxialField.hh"

namespace gt {

//! One slice [z_begin, z_begin + length] of a profile element. Inside, a particle is followed in
//! the absolute variables of StateInS by the exact equations of motion in s (RungeKuttaInS.hh).
//! A particle whose Pz^2 reaches 0 (reflected) is lost. At the slice ends the canonical momenta of
//! the deck's coordinates are converted to kinetic ones and back with the solenoid's vector potential
//! A_theta = r B/2 - r^3 B''/16, so a slice boundary inside the field is seamless and the map
//! agrees with the hard-edge solenoid's convention. At the exit the coordinates are re-expressed
//! relative to the reference after the slice (momentum p1): its pt_ref_end and tau_ref_end come
//! from the host tracking the reference particle through this same code. rf: a TM0 cavity (the
//! profile is Ez); otherwise a static solenoid (Bz).
struct AxialFieldMap : FieldMapSlice {
    CubicSplineProfile profile;  //!< B(z) [T] or e(z) [V/m], the deck's scale applied

    //! The field at (x, y, z) for a particle at time tau.
    GT_HOST_DEVICE FieldValue field(double x, double y, double z, double tau) const
    {
        ProfileSample const f = profile(z);
        if (!rf) return paraxial_solenoid(f, x, y);
        double sn = 0.0, cs = 0.0;
        pmath::sincos(k_rf * (tau_begin + tau) + phase, sn, cs);
        return paraxial_tm0(f, k_rf, 1.0 / constants::c_light, x, y, cs, sn);
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
        StateInS s{p.x, p.y, p.t, p.px + a_in * p.y, p.py - a_in * p.x, p.pt};
        if (!rk4_in_s(*this, s, z_begin, length, steps, kappa, inv_beta0)) return false;
        double const a_out = potential_over_r(s.x, s.y, z_begin + length);
        p = Particle{s.x, s.px - a_out * s.y, s.y, s.py + a_out * s.x, s.tau, s.pt};
        return true;
    }

    GT_HOST_DEVICE bool operator()(Particle& p) const
    {
        if (!integrate(p)) return false;
        relative_to_exit_reference(p);
        return true;
    }
};

}  // namespace gt
