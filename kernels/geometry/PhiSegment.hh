// A phi segment [phi0, phi0 + dphi] of a solid of revolution about z (tube, cone): the wedge test and
// the crossings of its two edge half-planes, shared so that every such solid treats them alike.
#pragma once

#include "kernels/geometry/Box.hh"

namespace gt {

struct PhiSegment {
    //! has_phi false for the full 2 pi; else the edges' unit vectors in the xy plane (start at phi0,
    //! end at phi0 + dphi) and whether dphi > pi (the wedge is then not convex).
    bool has_phi = false;
    bool wide = false;
    double sx = 1, sy = 0;  //!< (cos phi0, sin phi0)
    double ex = 1, ey = 0;  //!< (cos(phi0 + dphi), sin(phi0 + dphi))

    GT_HOST_DEVICE bool in_wedge(double x, double y) const
    {
        if (!has_phi) return true;
        double const after_start = sx * y - sy * x;  // cross(s, p)
        double const before_end = x * ey - y * ex;   // cross(p, e)
        if (!wide) return after_start >= 0 && before_end >= 0;
        return after_start >= 0 || before_end >= 0;
    }

    //! From inside: t, or the distance to leaving through an edge half-plane when that is closer.
    GT_HOST_DEVICE double distance_to_out(Vec3 p, Vec3 d, double t) const
    {
        if (!has_phi) return t;
        // leaving through the start edge: moving against its inward normal n_s = (-sy, sx)
        double const dns = -sy * d.x + sx * d.y;
        if (dns < 0) {
            double const ts = -(-sy * p.x + sx * p.y) / dns;
            if (ts >= 0 && ts < t && sx * (p.x + ts * d.x) + sy * (p.y + ts * d.y) >= 0) t = ts;
        }
        // the end edge's inward normal is (ey, -ex)
        double const dne = ey * d.x - ex * d.y;
        if (dne < 0) {
            double const te = -(ey * p.x - ex * p.y) / dne;
            if (te >= 0 && te < t && ex * (p.x + te * d.x) + ey * (p.y + te * d.y) >= 0) t = te;
        }
        return t;
    }

    //! From outside: best, or the distance to entering through an edge half-plane when closer;
    //! on_face(x, y, z) says whether a point of the edge's half-plane lies on the solid's face there.
    template <class OnFace>
    GT_HOST_DEVICE double distance_to_in(Vec3 p, Vec3 d, double best, OnFace on_face) const
    {
        if (!has_phi) return best;
        auto on_plane = [&](double t, double ux, double uy) {
            double const x = p.x + t * d.x, y = p.y + t * d.y, z = p.z + t * d.z;
            return ux * x + uy * y >= 0 && on_face(x, y, z);
        };
        double const dns = -sy * d.x + sx * d.y;
        if (dns > 0) {
            double const ts = -(-sy * p.x + sx * p.y) / dns;
            if (ts >= 0 && ts < best && on_plane(ts, sx, sy)) best = ts;
        }
        double const dne = ey * d.x - ex * d.y;
        if (dne > 0) {
            double const te = -(ey * p.x - ex * p.y) / dne;
            if (te >= 0 && te < best && on_plane(te, ex, ey)) best = te;
        }
        return best;
    }

    //! From inside: s, or the distance to an edge's full plane (a lower bound of the distance to the
    //! half-plane) when smaller.
    GT_HOST_DEVICE double safety_to_out(Vec3 p, double s) const
    {
        if (!has_phi) return s;
        double const ds = fabs(-sy * p.x + sx * p.y), de = fabs(ey * p.x - ex * p.y);
        s = ds < s ? ds : s;
        s = de < s ? de : s;
        return s;
    }
};

}  // namespace gt
