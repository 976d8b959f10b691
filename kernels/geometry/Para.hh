// A parallelepiped (Geant4's G4Para, GDML <para>): half-lengths dx, dy, dz, the angle alpha of the
// y faces' shear in x, and the polar and azimuthal angles theta, phi of the line joining the
// centres of the z faces. A point is inside when, with y' = y - z tan(theta) sin(phi) and
// x' = x - y' tan(alpha) - z tan(theta) cos(phi), |x'| <= dx, |y'| <= dy, |z| <= dz.
//
// (x', y', z) is a linear map of (x, y, z) with unit diagonal: a ray p + t d maps to p' + t d' with
// the same t, so the box's slab distances in the mapped frame are the exact distances. Safeties:
// the solid is three slabs, |n_i . p| <= h_i, so the exact distance from inside is the least
// (h_i - |n_i . p|) / |n_i|, and the largest (|n_i . p| - h_i) / |n_i| a lower bound from outside.
#pragma once

#include "kernels/geometry/Box.hh"

namespace gt {

struct Para {
    Box box;                //!< dx, dy, dz [m]
    double ta = 0;          //!< tan(alpha)
    double ty = 0;          //!< tan(theta) sin(phi)
    double cxz = 0;         //!< tan(theta) cos(phi) - tan(alpha) tan(theta) sin(phi): x' = x - ta y - cxz z
    double ix = 1, iy = 1;  //!< 1 / |n_x| = 1 / sqrt(1 + ta^2 + cxz^2), 1 / |n_y| = 1 / sqrt(1 + ty^2)
    Vec3 bound;             //!< half-extent of the bounding box [m]

    GT_HOST_DEVICE Vec3 sheared(Vec3 p) const { return {p.x - ta * p.y - cxz * p.z, p.y - ty * p.z, p.z}; }

    GT_HOST_DEVICE bool inside(Vec3 p) const { return box.inside(sheared(p)); }
    GT_HOST_DEVICE double distance_to_out(Vec3 p, Vec3 d) const
    {
        return box.distance_to_out(sheared(p), sheared(d));
    }
    GT_HOST_DEVICE double distance_to_in(Vec3 p, Vec3 d) const
    {
        return box.distance_to_in(sheared(p), sheared(d));
    }

    GT_HOST_DEVICE double safety_to_out(Vec3 p) const
    {
        Vec3 const q = sheared(p);
        double s = (box.half.x - fabs(q.x)) * ix;
        double const sy = (box.half.y - fabs(q.y)) * iy, sz = box.half.z - fabs(q.z);
        s = sy < s ? sy : s;
        s = sz < s ? sz : s;
        return s > 0 ? s : 0.0;
    }
    GT_HOST_DEVICE double safety_to_in(Vec3 p) const
    {
        Vec3 const q = sheared(p);
        double s = (fabs(q.x) - box.half.x) * ix;
        double const sy = (fabs(q.y) - box.half.y) * iy, sz = fabs(q.z) - box.half.z;
        s = sy > s ? sy : s;
        s = sz > s ? sz : s;
        return s > 0 ? s : 0.0;
    }
};

}  // namespace gt
