// A cylindrical tube along z: rmin <= r <= rmax, |z| <= hz, optionally a phi segment.
//
// Distances are exact: each surface (two z planes, two cylinders, two phi half-planes) is
// intersected in closed form with the numerically stable roots of the quadratic, and a crossing
// counts only where it lies on the face of the solid.
#pragma once

#include "kernels/geometry/PhiSegment.hh"

namespace gt {

struct Tube {
    double rmin = 0;  //!< inner radius [m], 0 for a full cylinder
    double rmax = 0;  //!< outer radius [m]
    double hz = 0;    //!< half-length [m]
    PhiSegment phi;   //!< the full turn unless phi.has_phi

    GT_HOST_DEVICE bool inside(Vec3 p) const
    {
        double const r2 = p.x * p.x + p.y * p.y;
        return fabs(p.z) <= hz && r2 <= rmax * rmax && r2 >= rmin * rmin && phi.in_wedge(p.x, p.y);
    }

    //! Roots of a t^2 + 2 b t + c = 0 (a > 0): the smaller and larger, stable. False if none.
    GT_HOST_DEVICE static bool roots(double a, double b, double c, double& t1, double& t2)
    {
        double const disc = b * b - a * c;
        if (disc < 0 || a <= 0) return false;
        double const q = b >= 0 ? -(b + pmath::sqrt(disc)) : -(b - pmath::sqrt(disc));
        // q has the sign of -b: t = q / a and t = c / q are the two roots
        double const r1 = q / a;
        double const r2 = q != 0 ? c / q : r1;
        t1 = r1 < r2 ? r1 : r2;
        t2 = r1 < r2 ? r2 : r1;
        return true;
    }

    GT_HOST_DEVICE double distance_to_out(Vec3 p, Vec3 d) const
    {
        double t = k_no_hit;
        if (d.z > 0) t = (hz - p.z) / d.z;
        if (d.z < 0) t = (-hz - p.z) / d.z;
        double const a = d.x * d.x + d.y * d.y;
        double const b = p.x * d.x + p.y * d.y;
        double const r2 = p.x * p.x + p.y * p.y;
        double t1, t2;
        if (a > 0 && roots(a, b, r2 - rmax * rmax, t1, t2) && t2 < t) t = t2;
        if (rmin > 0 && a > 0 && b < 0 && roots(a, b, r2 - rmin * rmin, t1, t2) && t1 < t) t = t1;
        t = phi.distance_to_out(p, d, t);
        return t > 0 ? t : 0.0;
    }

    GT_HOST_DEVICE double distance_to_in(Vec3 p, Vec3 d) const
    {
        double best = k_no_hit;
        double const rmin2 = rmin * rmin, rmax2 = rmax * rmax;
        auto on_face_r = [&](double t) {
            double const x = p.x + t * d.x, y = p.y + t * d.y;
            double const r2 = x * x + y * y;
            return r2 >= rmin2 && r2 <= rmax2 && phi.in_wedge(x, y);
        };
        auto on_face_z = [&](double t) {
            double const x = p.x + t * d.x, y = p.y + t * d.y, z = p.z + t * d.z;
            return fabs(z) <= hz && phi.in_wedge(x, y);
        };
        // z planes, entered from beyond them
        if (p.z >= hz && d.z < 0) {
            double const t = (hz - p.z) / d.z;
            if (t < best && on_face_r(t)) best = t;
        } else if (p.z <= -hz && d.z > 0) {
            double const t = (-hz - p.z) / d.z;
            if (t < best && on_face_r(t)) best = t;
        }
        double const a = d.x * d.x + d.y * d.y;
        double const b = p.x * d.x + p.y * d.y;
        double const r2 = p.x * p.x + p.y * p.y;
        double t1, t2;
        // outer cylinder, entered at the smaller root while r decreases
        if (a > 0 && b < 0 && roots(a, b, r2 - rmax2, t1, t2) && t1 >= 0 && t1 < best && on_face_z(t1))
            best = t1;
        // inner cylinder, entered from the hole at the larger root
        if (rmin > 0 && a > 0 && roots(a, b, r2 - rmin2, t1, t2) && t2 >= 0 && t2 < best && on_face_z(t2))
            best = t2;
        best = phi.distance_to_in(p, d, best, [&](double x, double y, double z) {
            double const rr = x * x + y * y;
            return rr >= rmin2 && rr <= rmax2 && fabs(z) <= hz;
        });
        return best;
    }

    GT_HOST_DEVICE double safety_to_out(Vec3 p) const
    {
        double const r = pmath::sqrt(p.x * p.x + p.y * p.y);
        double s = hz - fabs(p.z);
        s = rmax - r < s ? rmax - r : s;
        if (rmin > 0) s = r - rmin < s ? r - rmin : s;
        s = phi.safety_to_out(p, s);
        return s > 0 ? s : 0.0;
    }

    //! A lower bound: the largest of the distances to the slabs that bound the tube.
    GT_HOST_DEVICE double safety_to_in(Vec3 p) const
    {
        double const r = pmath::sqrt(p.x * p.x + p.y * p.y);
        double s = fabs(p.z) - hz;
        s = r - rmax > s ? r - rmax : s;
        s = rmin - r > s ? rmin - r : s;
        return s > 0 ? s : 0.0;
    }
};

}  // namespace gt
