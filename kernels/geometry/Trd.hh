// A trapezoid with x and y half-lengths varying linearly along z (Geant4's G4Trd, GDML <trd>):
// |x| <= ax + kx z, |y| <= ay + ky z, |z| <= hz, from (x1, y1) at z = -hz to (x2, y2) at z = +hz.
//
// A convex solid of six planes: distances clip the ray against them (exact), the safety from
// inside is the exact distance to the nearest face plane, from outside the largest signed plane
// distance (a lower bound).
#pragma once

#include "kernels/geometry/ConvexClip.hh"

namespace gt {

struct Trd {
    double hz = 0;          //!< half-length [m]
    double ax = 0, kx = 0;  //!< x half-length at z = 0 [m] and its slope
    double ay = 0, ky = 0;  //!< y half-length at z = 0 [m] and its slope
    double cx = 1, cy = 1;  //!< 1 / sqrt(1 + k^2): the side planes' normals' length (host)
    double hx = 0, hy = 0;  //!< the largest x and y half-lengths, for the bounding box [m]

    GT_HOST_DEVICE bool inside(Vec3 p) const
    {
        return fabs(p.z) <= hz && fabs(p.x) <= ax + kx * p.z && fabs(p.y) <= ay + ky * p.z;
    }

    //! Plane i (0..5: +x, -x, +y, -y, +z, -z) as h(p) = (outward normal, unnormalized) . p - offset,
    //! negative inside; hd = the normal . d.
    GT_HOST_DEVICE void plane(int i, Vec3 p, Vec3 d, double& h, double& hd) const
    {
        switch (i) {
            case 0:
                h = p.x - ax - kx * p.z;
                hd = d.x - kx * d.z;
                break;
            case 1:
                h = -p.x - ax - kx * p.z;
                hd = -d.x - kx * d.z;
                break;
            case 2:
                h = p.y - ay - ky * p.z;
                hd = d.y - ky * d.z;
                break;
            case 3:
                h = -p.y - ay - ky * p.z;
                hd = -d.y - ky * d.z;
                break;
            case 4:
                h = p.z - hz;
                hd = d.z;
                break;
            default:
                h = -p.z - hz;
                hd = -d.z;
                break;
        }
    }

    GT_HOST_DEVICE double distance_to_out(Vec3 p, Vec3 d) const
    {
        return clip_distance_to_out<6>(*this, p, d);
    }
    GT_HOST_DEVICE double distance_to_in(Vec3 p, Vec3 d) const { return clip_distance_to_in<6>(*this, p, d); }

    //! The signed distance to plane i (negative inside).
    GT_HOST_DEVICE double plane_distance(int i, Vec3 p) const
    {
        double h, hd;
        plane(i, p, p, h, hd);
        return i < 2 ? h * cx : (i < 4 ? h * cy : h);
    }

    GT_HOST_DEVICE double safety_to_out(Vec3 p) const
    {
        double s = k_no_hit;
        for (int i = 0; i < 6; ++i) {
            double const si = -plane_distance(i, p);
            s = si < s ? si : s;
        }
        return s > 0 ? s : 0.0;
    }
    GT_HOST_DEVICE double safety_to_in(Vec3 p) const
    {
        double s = 0;
        for (int i = 0; i < 6; ++i) {
            double const si = plane_distance(i, p);
            s = si > s ? si : s;
        }
        return s;
    }
};

}  // namespace gt
