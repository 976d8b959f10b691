// Turning a direction by a polar angle (given by its cosine) and an azimuth about itself.
#pragma once

#include "kernels/core/PortableMath.hh"
#include "kernels/geometry/Vec3.hh"

namespace gt {

//! The unit vector at polar angle acos(cos_theta) from `dir` and azimuth `phi` about it.
GT_HOST_DEVICE inline Vec3 rotated(Vec3 dir, double cos_theta, double phi)
{
    double const s2 = 1.0 - cos_theta * cos_theta;
    double const sin_theta = s2 > 0 ? pmath::sqrt(s2) : 0.0;
    double sp = 0, cp = 0;
    pmath::sincos(phi, sp, cp);
    // an orthonormal frame (e1, e2, dir)
    Vec3 const helper = fabs(dir.z) < 0.9 ? Vec3{0, 0, 1} : Vec3{1, 0, 0};
    Vec3 const e1 = normalized(cross(helper, dir));
    Vec3 const e2 = cross(dir, e1);
    Vec3 const d = axpy(sin_theta * sp, e2, axpy(sin_theta * cp, e1, cos_theta * dir));
    return normalized(d);
}

}  // namespace gt
