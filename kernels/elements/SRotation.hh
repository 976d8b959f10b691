// SRotation: a rotation of the transverse coordinates about the s axis (MAD-X SROTATION, ELEGANT ROTATE).
#pragma once

#include <cmath>

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"

namespace gt {

//! The coordinates are referred to axes rolled by `angle` about +s (no field, no length):
//!   x' =  x cos(angle) + y sin(angle),   px' =  px cos(angle) + py sin(angle),
//!   y' = -x sin(angle) + y cos(angle),   py' = -px sin(angle) + py cos(angle).
//! The sign is MAD-X's: its SROTATION's transfer matrix has R13 = R24 = +sin(angle), R31 = R42 = -sin(angle)
//! (MAD-X 5 through cpymad, TWISS RMATRIX; the MAD-X issue discussion in MethodicalAcceleratorDesign/MAD-X
//! PR #642 describes the same: after a positive roll a particle at +x is at -y). It is the rotation
//! Misalignment::enter applies for a tilt, so SROTATION(a), element, SROTATION(-a) is the element tilted by
//! a. Symplectic: the same rotation of both conjugate pairs. cos and sin are computed once on the host.
struct SRotation {
    double angle;      //!< [rad]
    double cos_angle;  //!< [1]
    double sin_angle;  //!< [1]

    static SRotation make(double angle) { return SRotation{angle, std::cos(angle), std::sin(angle)}; }

    GT_HOST_DEVICE GT_FORCEINLINE bool operator()(Particle& p) const
    {
        double const x = p.x, y = p.y, px = p.px, py = p.py;
        p.x = cos_angle * x + sin_angle * y;
        p.y = -sin_angle * x + cos_angle * y;
        p.px = cos_angle * px + sin_angle * py;
        p.py = -sin_angle * px + cos_angle * py;
        return true;
    }
};

}  // namespace gt
