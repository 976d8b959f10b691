// A spherical shell centred on the origin: rmin <= |p| <= rmax.
#pragma once

#include "kernels/geometry/Box.hh"

namespace gt {

struct Sphere {
    double rmin = 0;  //!< inner radius [m], 0 for a full ball
    double rmax = 0;  //!< outer radius [m]

    GT_HOST_DEVICE bool inside(Vec3 p) const
    {
        double const r2 = dot(p, p);
        return r2 <= rmax * rmax && r2 >= rmin * rmin;
    }

    //! |p + t d| = R for unit d: t^2 + 2 b t + c = 0, b = p.d, c = |p|^2 - R^2; stable roots.
    GT_HOST_DEVICE static bool roots(double b, double c, double& t1, double& t2)
    {
        double const disc = b * b - c;
        if (disc < 0) return false;
        double const q = b >= 0 ? -(b + pmath::sqrt(disc)) : -(b - pmath::sqrt(disc));
        double const r2 = q != 0 ? c / q : q;
        t1 = q < r2 ? q : r2;
        t2 = q < r2 ? r2 : q;
        return true;
    }

    GT_HOST_DEVICE double distance_to_out(Vec3 p, Vec3 d) const
    {
        double const b = dot(p, d), r2 = dot(p, p);
        double t = k_no_hit, t1, t2;
        if (roots(b, r2 - rmax * rmax, t1, t2)) t = t2;
        if (rmin > 0 && b < 0 && roots(b, r2 - rmin * rmin, t1, t2) && t1 < t) t = t1;
        return t > 0 ? t : 0.0;
    }

    GT_HOST_DEVICE double distance_to_in(Vec3 p, Vec3 d) const
    {
        double const b = dot(p, d), r2 = dot(p, p);
        double t1, t2;
        if (r2 < rmin * rmin) {  // in the hole: out through the inner surface
            if (roots(b, r2 - rmin * rmin, t1, t2) && t2 >= 0) return t2;
            return k_no_hit;
        }
        if (b < 0 && roots(b, r2 - rmax * rmax, t1, t2) && t1 >= 0) return t1;
        return k_no_hit;
    }

    GT_HOST_DEVICE double safety_to_out(Vec3 p) const
    {
        double const r = norm(p);
        double s = rmax - r;
        if (rmin > 0) s = r - rmin < s ? r - rmin : s;
        return s > 0 ? s : 0.0;
    }
    GT_HOST_DEVICE double safety_to_in(Vec3 p) const
    {
        double const r = norm(p);
        double const s = r > rmax ? r - rmax : rmin - r;
        return s > 0 ? s : 0.0;
    }
};

}  // namespace gt
