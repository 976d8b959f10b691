// A static or RF field given on a 3D Cartesian grid (E and/or B, trilinear interpolation): the
// exact equations of motion in s integrated by fixed-step RK4 (docs/physics.md §3).
#pragma once

#include <cstdint>

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/PortableMath.hh"
#include "kernels/core/Types.hh"
#include "kernels/elements/FieldMapSlice.hh"
#include "kernels/elements/RungeKuttaInS.hh"
#include "kernels/field/EmFieldGrid.hh"

namespace gt {

//! One slice [z_begin, z_begin + length] of a `field_map` element; the map's z = 0 is the element's
//! entrance and its x, y are the element's. Inside, a particle follows the exact equations of motion
//! (StateInS, RungeKuttaInS.hh); a reflected particle is lost. An RF map oscillates as a standing
//! wave: E(x, t) = E(x) cos(psi), B(x, t) = B(x) sin(psi), psi = omega t + phase (a cavity
//! eigenmode with real E has B a quarter period later). The deck's px, py are taken as kinetic at
//! the element's ends (the map's vector potential is unknown; exact where the field vanishes at the
//! ends, or A has no transverse part, as in a quadrupole). At the exit the coordinates are
//! re-expressed relative to the reference after the slice, which the host tracked through this code.
struct FieldMap3D : FieldMapSlice {
    EmFieldGrid grid;  //!< E [V/m], B [T], the deck's scales applied

    //! The field at (x, y, z) [m] of the map at tau = c (t - t_ref at this slice's entrance) [m]:
    //! the evaluator the s-push and the t-push share.
    GT_HOST_DEVICE FieldValue field(double x, double y, double z, double tau) const
    {
        FieldValue f = grid(x, y, z);
        if (!rf) return f;
        double sn = 0.0, cs = 0.0;
        pmath::sincos(k_rf * (tau_begin + tau) + phase, sn, cs);
        f.ex *= cs;
        f.ey *= cs;
        f.ez *= cs;
        f.bx *= sn;
        f.by *= sn;
        f.bz *= sn;
        return f;
    }

    //! Pushes p through the slice in entry-normalized absolute variables: on return p.t = tau and
    //! p.pt is relative to E0 / (p0 c).
    GT_HOST_DEVICE bool integrate(Particle& p) const
    {
        StateInS s{p.x, p.y, p.t, p.px, p.py, p.pt};
        if (!rk4_in_s(*this, s, z_begin, length, steps, kappa, inv_beta0)) return false;
        p = Particle{s.x, s.px, s.y, s.py, s.tau, s.pt};
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
