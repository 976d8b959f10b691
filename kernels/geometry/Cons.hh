// A conical section along z (Geant4's G4Cons, GDML <cons>): |z| <= hz between an inner and an outer
// cone whose radii vary linearly from (rmin1, rmax1) at z = -hz to (rmin2, rmax2) at z = +hz,
// optionally a phi segment.
//
// Each cone surface r = a + k z is met where f(t) = x(t)^2 + y(t)^2 - (a + k z(t))^2 vanishes, a
// quadratic whose leading coefficient (d_x^2 + d_y^2 - k^2 d_z^2) may be positive, zero or negative:
// a crossing is told apart by the sign of f' there (r passing R outwards or inwards) and by the
// nappe (a + k z >= 0), not by the order of the roots. Distances are exact; safeties are lower
// bounds: the distance to a cone's generator line in the point's meridian plane, (R(z) - r) cos(alpha)
// with cos(alpha) = 1 / sqrt(1 + k^2), which bounds the distance to the surface from either side
// (the nearest point of a surface of revolution lies in the point's meridian plane, and the line is
// a supporting plane's trace for the convex cone).
#pragma once

#include "kernels/geometry/PhiSegment.hh"

namespace gt {

//! Roots of a t^2 + 2 b t + c = 0 for any a (one root when a = 0), numerically stable; returns how
//! many were written to t.
GT_HOST_DEVICE inline int quadratic_roots(double a, double b, double c, double t[2])
{
    double const disc = b * b - a * c;
    if (disc < 0) return 0;
    double const sq = pmath::sqrt(disc);
    double const q = b >= 0 ? -(b + sq) : -(b - sq);
    int n = 0;
    if (a != 0) t[n++] = q / a;
    if (q != 0) t[n++] = c / q;
    return n;
}

//! The cone r = a + k z (a surface of revolution about z, the nappe a + k z >= 0).
struct ConeSurface {
    double a = 0;  //!< radius at z = 0 [m]
    double k = 0;  //!< dr/dz
    double c = 1;  //!< cos(alpha) = 1 / sqrt(1 + k^2), computed on the host

    GT_HOST_DEVICE double radius(double z) const { return a + k * z; }

    //! The first t >= 0 at which the ray crosses the cone with r passing R outwards (outward > 0)
    //! or inwards (outward < 0); k_no_hit if none. With `now`, a point already at or beyond the
    //! surface and moving across it gives 0 (a point on the surface, or rounded just past it).
    GT_HOST_DEVICE double crossing(Vec3 p, Vec3 d, double outward, bool now) const
    {
        double const r0 = a + k * p.z;
        double const qa = d.x * d.x + d.y * d.y - k * k * (d.z * d.z);
        double const qb = p.x * d.x + p.y * d.y - k * r0 * d.z;
        double const qc = p.x * p.x + p.y * p.y - r0 * r0;
        if (now && qc * outward >= 0 && qb * outward > 0 && r0 >= 0) return 0.0;
        double t[2];
        int const n = quadratic_roots(qa, qb, qc, t);
        double best = k_no_hit;
        for (int i = 0; i < n; ++i) {
            if (!(t[i] >= 0) || t[i] >= best) continue;
            if ((qa * t[i] + qb) * outward <= 0) continue;  // tangent, or crossing the other way
            if (a + k * (p.z + t[i] * d.z) < 0) continue;   // the other nappe
            best = t[i];
        }
        return best;
    }
};

struct Cons {
    double hz = 0;             //!< half-length [m]
    double rmax = 0;           //!< the largest outer radius, for the bounding box [m]
    ConeSurface inner, outer;  //!< inner a = k = 0: no inner cone (rmin1 = rmin2 = 0)
    PhiSegment phi;

    GT_HOST_DEVICE bool has_inner() const { return inner.a != 0 || inner.k != 0; }

    GT_HOST_DEVICE bool inside(Vec3 p) const
    {
        if (!(fabs(p.z) <= hz)) return false;
        double const r2 = p.x * p.x + p.y * p.y;
        double const ro = outer.radius(p.z);
        if (!(r2 <= ro * ro) || ro < 0) return false;
        if (has_inner()) {
            double const ri = inner.radius(p.z);
            if (ri > 0 && r2 < ri * ri) return false;
        }
        return phi.in_wedge(p.x, p.y);
    }

    GT_HOST_DEVICE double distance_to_out(Vec3 p, Vec3 d) const
    {
        double t = k_no_hit;
        if (d.z > 0) t = (hz - p.z) / d.z;
        if (d.z < 0) t = (-hz - p.z) / d.z;
        double const to = outer.crossing(p, d, 1.0, true);
        t = to < t ? to : t;
        if (has_inner()) {
            double const ti = inner.crossing(p, d, -1.0, true);
            t = ti < t ? ti : t;
        }
        t = phi.distance_to_out(p, d, t);
        return t > 0 ? t : 0.0;
    }

    GT_HOST_DEVICE double distance_to_in(Vec3 p, Vec3 d) const
    {
        double best = k_no_hit;
        // between the cones at z (a point of a phi edge's half-plane is on the face when it is: its
        // own wedge test would be decided by round-off there)
        auto in_radii = [&](double x, double y, double z) {
            double const r2 = x * x + y * y;
            double const ro = outer.radius(z);
            if (!(r2 <= ro * ro)) return false;
            if (has_inner()) {
                double const ri = inner.radius(z);
                if (ri > 0 && r2 < ri * ri) return false;
            }
            return true;
        };
        auto on_face_r = [&](double x, double y, double z) {
            return in_radii(x, y, z) && phi.in_wedge(x, y);
        };
        auto on_face_z = [&](double t) {
            double const x = p.x + t * d.x, y = p.y + t * d.y, z = p.z + t * d.z;
            return fabs(z) <= hz && phi.in_wedge(x, y);
        };
        // z planes, entered from beyond them
        if (p.z >= hz && d.z < 0) {
            double const t = (hz - p.z) / d.z;
            if (t < best && on_face_r(p.x + t * d.x, p.y + t * d.y, hz)) best = t;
        } else if (p.z <= -hz && d.z > 0) {
            double const t = (-hz - p.z) / d.z;
            if (t < best && on_face_r(p.x + t * d.x, p.y + t * d.y, -hz)) best = t;
        }
        // the outer cone entered with r passing R inwards; the inner one from the hole, outwards
        double const to = outer.crossing(p, d, -1.0, false);
        if (to < best && on_face_z(to)) best = to;
        if (has_inner()) {
            double const ti = inner.crossing(p, d, 1.0, false);
            if (ti < best && on_face_z(ti)) best = ti;
        }
        best = phi.distance_to_in(
            p, d, best, [&](double x, double y, double z) { return fabs(z) <= hz && in_radii(x, y, z); });
        return best;
    }

    GT_HOST_DEVICE double safety_to_out(Vec3 p) const
    {
        double const r = pmath::sqrt(p.x * p.x + p.y * p.y);
        double s = hz - fabs(p.z);
        double const so = (outer.radius(p.z) - r) * outer.c;
        s = so < s ? so : s;
        if (has_inner()) {
            double const si = (r - inner.radius(p.z)) * inner.c;
            s = si < s ? si : s;
        }
        s = phi.safety_to_out(p, s);
        return s > 0 ? s : 0.0;
    }

    //! A lower bound: the largest of the distances to the z slab and to the two cones' tangent planes.
    GT_HOST_DEVICE double safety_to_in(Vec3 p) const
    {
        double const r = pmath::sqrt(p.x * p.x + p.y * p.y);
        double s = fabs(p.z) - hz;
        double const so = (r - outer.radius(p.z)) * outer.c;
        s = so > s ? so : s;
        if (has_inner()) {
            double const si = (inner.radius(p.z) - r) * inner.c;
            s = si > s ? si : s;
        }
        return s > 0 ? s : 0.0;
    }
};

}  // namespace gt
