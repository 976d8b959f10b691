// The exact equations of motion of a charged particle in given E and B fields with s as the
// independent variable, and their fixed-step RK4 integration: shared by the field-map elements
// (AxialFieldMap, FieldMap3D), which differ only in where their fields come from.
#pragma once

#include <cstdint>

#include "kernels/core/Macros.hh"
#include "kernels/core/PortableMath.hh"
#include "kernels/core/Types.hh"
#include "kernels/elements/MapSupport.hh"
#include "kernels/field/ParaxialField.hh"
#include "kernels/field/RungeKutta4.hh"

namespace gt {

//! A particle inside a field-map element, in absolute variables normalized to the entry reference
//! (momentum p0, energy E0): x, y [m]; px, py = kinetic P / p0; tau = c (t - t_ref,entry) [m];
//! pt = -(E - E0) / (p0 c).
struct StateInS {
    double x, y, tau, px, py, pt;
};

//! d(state)/ds in the field f, for s as the independent variable (Lorentz force, v = c P / E,
//! ds = v_z dt):
//!   dx/ds = Px/Pz,  dy/ds = Py/Pz,  dtau/ds = w/Pz,  w = E/(p0 c) = 1/beta0 - pt,
//!   dPx/ds = kappa (w Ex + c (Py Bz - Pz By)) / Pz,  dPy/ds = kappa (w Ey + c (Pz Bx - Px Bz)) / Pz,
//!   dpt/ds = -kappa (Px Ex + Py Ey + Pz Ez) / Pz,     kappa = q / (p0 c) [1/V],
//! Pz = sqrt(1 - 2 pt/beta0 + pt^2 - Px^2 - Py^2) (no cancellation at low energy). `ok` becomes
//! false when Pz^2 reaches 0 (the particle is reflected).
GT_HOST_DEVICE GT_FORCEINLINE StateInS derivative_in_s(StateInS const& s, FieldValue const& f, double kappa,
                                                       double inv_beta0, bool& ok)
{
    double pz2 = momentum_squared(s.pt, inv_beta0) - s.px * s.px - s.py * s.py;
    if (!(pz2 > 0.0)) {
        ok = false;
        pz2 = 1.0;  // keeps the arithmetic finite; the result is discarded
    }
    double const pz = pmath::sqrt(pz2);
    double const inv_pz = 1.0 / pz;
    double const w = inv_beta0 - s.pt;
    double const kc = kappa * constants::c_light;
    StateInS d;
    d.x = s.px * inv_pz;
    d.y = s.py * inv_pz;
    d.tau = w * inv_pz;
    d.px = (kappa * w * f.ex + kc * (s.py * f.bz - pz * f.by)) * inv_pz;
    d.py = (kappa * w * f.ey + kc * (pz * f.bx - s.px * f.bz)) * inv_pz;
    d.pt = -kappa * (s.px * f.ex + s.py * f.ey + pz * f.ez) * inv_pz;
    return d;
}

//! Classical RK4 (RungeKutta4.hh) over [z_begin, z_begin + length] in `steps` equal steps;
//! `map.field(x, y, z, tau)` gives the field. False when the particle is reflected on the way (s is
//! then where the failed step began).
template <class Map>
GT_HOST_DEVICE GT_FORCEINLINE bool rk4_in_s(Map const& map, StateInS& s, double z_begin, double length,
                                            std::int32_t steps, double kappa, double inv_beta0)
{
    double const h = length / double(steps);
    bool ok = true;
    auto derivative = [&](StateInS const& y, double z) {
        return derivative_in_s(y, map.field(y.x, y.y, z, y.tau), kappa, inv_beta0, ok);
    };
    for (std::int32_t i = 0; i < steps; ++i) {
        StateInS next = s;
        runge_kutta4_step(next, z_begin + double(i) * h, h, derivative);
        if (!ok) return false;
        s = next;
    }
    return true;
}

}  // namespace gt
