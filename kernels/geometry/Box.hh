// A box centred on the origin of its frame: |x| <= hx, |y| <= hy, |z| <= hz.
#pragma once

#include <cmath>

#include "kernels/geometry/Vec3.hh"

namespace gt {

inline constexpr double k_no_hit = HUGE_VAL;  //!< distance when a ray never reaches a surface

struct Box {
    Vec3 half;  //!< half-lengths [m]

    GT_HOST_DEVICE bool inside(Vec3 p) const
    {
        return fabs(p.x) <= half.x && fabs(p.y) <= half.y && fabs(p.z) <= half.z;
    }

    //! From a point inside, along the unit direction d: distance to leaving the box.
    GT_HOST_DEVICE double distance_to_out(Vec3 p, Vec3 d) const
    {
        double t = k_no_hit;
        for (int i = 0; i < 3; ++i) {
            if (d[i] > 0) {
                double const ti = (half[i] - p[i]) / d[i];
                t = ti < t ? ti : t;
            } else if (d[i] < 0) {
                double const ti = (-half[i] - p[i]) / d[i];
                t = ti < t ? ti : t;
            }
        }
        return t > 0 ? t : 0.0;
    }

    //! From a point outside: distance to entering, or k_no_hit (slab method).
    GT_HOST_DEVICE double distance_to_in(Vec3 p, Vec3 d) const
    {
        double tmin = 0.0, tmax = k_no_hit;
        for (int i = 0; i < 3; ++i) {
            if (d[i] == 0) {
                if (fabs(p[i]) > half[i]) return k_no_hit;
                continue;
            }
            double t1 = (-half[i] - p[i]) / d[i];
            double t2 = (half[i] - p[i]) / d[i];
            if (t1 > t2) {
                double const s = t1;
                t1 = t2;
                t2 = s;
            }
            tmin = t1 > tmin ? t1 : tmin;
            tmax = t2 < tmax ? t2 : tmax;
        }
        return (tmax > tmin) ? tmin : k_no_hit;
    }

    //! A lower bound of the distance to the surface from inside (exact for a box).
    GT_HOST_DEVICE double safety_to_out(Vec3 p) const
    {
        double s = half.x - fabs(p.x);
        double const sy = half.y - fabs(p.y), sz = half.z - fabs(p.z);
        s = sy < s ? sy : s;
        s = sz < s ? sz : s;
        return s > 0 ? s : 0.0;
    }
    //! The exact distance to the box from outside.
    GT_HOST_DEVICE double safety_to_in(Vec3 p) const
    {
        double const dx = fabs(p.x) - half.x, dy = fabs(p.y) - half.y, dz = fabs(p.z) - half.z;
        double const ex = dx > 0 ? dx : 0, ey = dy > 0 ? dy : 0, ez = dz > 0 ? dz : 0;
        return pmath::sqrt(ex * ex + ey * ey + ez * ez);
    }
};

}  // namespace gt
