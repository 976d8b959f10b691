// A general trapezoid (Geant4's G4Trap, GDML <trap>): two trapezoids in the planes z = -hz and
// z = +hz, each with its y extent 2 h, x half-lengths bl (at -h) and tl (at +h) and the shear
// alpha, their centres on a line of polar angle theta and azimuth phi; the four side faces join
// their edges and must be planar (Geant4 refuses a trap whose faces are not; so does the reader).
//
// A convex solid of six planes, so the same clipping as Trd: distances are exact, the safety from
// inside is the exact distance to the nearest face plane, from outside the largest signed plane
// distance (a lower bound: the solid lies behind every face plane). The -y and +y faces contain
// lines parallel to x (the trapezoids' parallel sides), so their normals have no x component and
// take three numbers each; the +-x faces take four. The planes are stored with unit normals
// (made once on the host from the vertices), so a plane's value is its signed distance.
#pragma once

#include "kernels/geometry/ConvexClip.hh"

namespace gt {

struct Trap {
    double hz = 0;             //!< half-length in z [m]
    double y_face[2][3] = {};  //!< -y, +y faces: ny y + nz z + d = 0, outward unit normal (0, ny, nz)
    double x_face[2][4] = {};  //!< -x, +x faces: nx x + ny y + nz z + d = 0, outward unit normal

    //! Plane i (0..5: -y, +y, -x, +x, +z, -z) as its signed distance h(p), negative inside, and the
    //! normal's component along d (hd).
    GT_HOST_DEVICE void plane(int i, Vec3 p, Vec3 d, double& h, double& hd) const
    {
        if (i < 2) {
            double const* f = y_face[i];
            h = f[0] * p.y + f[1] * p.z + f[2];
            hd = f[0] * d.y + f[1] * d.z;
        } else if (i < 4) {
            double const* f = x_face[i - 2];
            h = f[0] * p.x + f[1] * p.y + f[2] * p.z + f[3];
            hd = f[0] * d.x + f[1] * d.y + f[2] * d.z;
        } else if (i == 4) {
            h = p.z - hz;
            hd = d.z;
        } else {
            h = -p.z - hz;
            hd = -d.z;
        }
    }

    GT_HOST_DEVICE bool inside(Vec3 p) const
    {
        for (int i = 0; i < 6; ++i) {
            double h, hd;
            plane(i, p, p, h, hd);
            if (h > 0) return false;
        }
        return true;
    }

    GT_HOST_DEVICE double distance_to_out(Vec3 p, Vec3 d) const
    {
        return clip_distance_to_out<6>(*this, p, d);
    }
    GT_HOST_DEVICE double distance_to_in(Vec3 p, Vec3 d) const { return clip_distance_to_in<6>(*this, p, d); }

    GT_HOST_DEVICE double safety_to_out(Vec3 p) const
    {
        double s = k_no_hit;
        for (int i = 0; i < 6; ++i) {
            double h, hd;
            plane(i, p, p, h, hd);
            s = -h < s ? -h : s;
        }
        return s > 0 ? s : 0.0;
    }
    GT_HOST_DEVICE double safety_to_in(Vec3 p) const
    {
        double s = 0;
        for (int i = 0; i < 6; ++i) {
            double h, hd;
            plane(i, p, p, h, hd);
            s = h > s ? h : s;
        }
        return s;
    }

    //! Vertex c (bit 0: -x/+x face, bit 1: -y/+y face, bit 2: -z/+z): the corner where three face
    //! planes meet (host: the bounding box).
    GT_HOST_DEVICE Vec3 vertex(int c) const
    {
        double const z = (c & 4) ? hz : -hz;
        double const* fy = y_face[(c >> 1) & 1];
        double const y = -(fy[1] * z + fy[2]) / fy[0];
        double const* fx = x_face[c & 1];
        return {-(fx[1] * y + fx[2] * z + fx[3]) / fx[0], y, z};
    }
    //! Half-extent of the box about the origin that holds every vertex [m].
    GT_HOST_DEVICE Vec3 bound() const
    {
        Vec3 b{0, 0, hz};
        for (int c = 0; c < 8; ++c) {
            Vec3 const v = vertex(c);
            b.x = fabs(v.x) > b.x ? fabs(v.x) : b.x;
            b.y = fabs(v.y) > b.y ? fabs(v.y) : b.y;
        }
        return b;
    }
};

}  // namespace gt
