// Off-axis fields of an axially symmetric static magnetic field or RF TM0 mode, from the on-axis
// profile and its derivatives: the paraxial expansion to third order in r (docs/physics.md §3).
#pragma once

#include "kernels/core/Macros.hh"
#include "kernels/field/CubicSplineProfile.hh"

namespace gt {

//! Cartesian field components at (x, y) [V/m and T].
struct FieldValue {
    double ex, ey, ez;
    double bx, by, bz;
};

//! Static solenoid field from B(z) = Bz(0, z): div B = curl B = 0 give
//!   Bz(r) = B - r^2/4 B'',   Br(r) = -r/2 B' + r^3/16 B'''
//! (the series Bz = sum a_n(z) r^2n solved order by order; docs/physics.md). Br/r is used so
//! that the axis needs no division.
GT_HOST_DEVICE GT_FORCEINLINE FieldValue paraxial_solenoid(ProfileSample const& b, double x, double y)
{
    double const r2 = x * x + y * y;
    double const br_over_r = -0.5 * b.d1 + (r2 / 16.0) * b.d3;
    return FieldValue{0.0, 0.0, 0.0, br_over_r * x, br_over_r * y, b.f - 0.25 * r2 * b.d2};
}

//! Standing-wave TM0 mode Ez(0, z, t) = e(z) cos(psi), psi = omega t + phase, k = omega / c.
//! The wave equation for Ez, div E = 0 and Ampere's law curl B = (1/c^2) dE/dt give
//!   Ez(r)   = [e - r^2/4 (e'' + k^2 e)] cos(psi)
//!   Er(r)   = [-r/2 e' + r^3/16 (e''' + k^2 e')] cos(psi)
//!   Btheta  = -(k / c) [r/2 e - r^3/16 (e'' + k^2 e)] sin(psi)
//! (derivation in docs/physics.md).
//! `inv_c` is 1/c [s/m]; cos_psi and sin_psi are the RF time factors of the particle.
GT_HOST_DEVICE GT_FORCEINLINE FieldValue paraxial_tm0(ProfileSample const& e, double k, double inv_c,
                                                      double x, double y, double cos_psi, double sin_psi)
{
    double const r2 = x * x + y * y;
    double const k2 = k * k;
    double const helmholtz = e.d2 + k2 * e.f;  // e'' + k^2 e
    double const er_over_r = (-0.5 * e.d1 + (r2 / 16.0) * (e.d3 + k2 * e.d1)) * cos_psi;
    double const btheta_over_r = -(k * inv_c) * (0.5 * e.f - (r2 / 16.0) * helmholtz) * sin_psi;
    return FieldValue{er_over_r * x,      er_over_r * y,     (e.f - 0.25 * r2 * helmholtz) * cos_psi,
                      -btheta_over_r * y, btheta_over_r * x, 0.0};
}

}  // namespace gt
