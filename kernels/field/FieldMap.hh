// Magnetic field maps on regular grids, interpolated trilinearly (bilinearly in (r, z)).
//
// Outside the grid the field is zero. Values are held in device memory owned by the host tables
// (src/detector/FieldTables); these views only point at them.
#pragma once

#include "kernels/geometry/Vec3.hh"

namespace gt {

//! (Bx, By, Bz) on an nx x ny x nz grid, node (i, j, k) at lo + (i dx, j dy, k dz); values
//! stored [((i * ny) + j) * nz + k] * 3 + component.
struct CartesianFieldMap {
    double const* values = nullptr;  //!< [T]
    int n[3] = {0, 0, 0};
    Vec3 lo;       //!< [m]
    Vec3 spacing;  //!< [m]

    GT_HOST_DEVICE Vec3 operator()(Vec3 pos) const
    {
        int idx[3];
        double frac[3];
        for (int a = 0; a < 3; ++a) {
            double const u = (pos[a] - lo[a]) / spacing[a];
            if (!(u >= 0) || u > double(n[a] - 1)) return {0, 0, 0};
            int i = static_cast<int>(u);
            if (i > n[a] - 2) i = n[a] - 2;
            idx[a] = i;
            frac[a] = u - double(i);
        }
        Vec3 b{0, 0, 0};
        for (int c = 0; c < 8; ++c) {
            int const di = c >> 2, dj = (c >> 1) & 1, dk = c & 1;
            double const w =
                (di ? frac[0] : 1 - frac[0]) * (dj ? frac[1] : 1 - frac[1]) * (dk ? frac[2] : 1 - frac[2]);
            long const node = (long(idx[0] + di) * n[1] + (idx[1] + dj)) * n[2] + (idx[2] + dk);
            b.x += w * values[3 * node];
            b.y += w * values[3 * node + 1];
            b.z += w * values[3 * node + 2];
        }
        return b;
    }
};

//! (Br, Bz) of an axially symmetric field on an nr x nz grid from r = 0 and z = z_lo; stored
//! [i * nz + k] * 2 + component.
struct RzFieldMap {
    double const* values = nullptr;  //!< [T]
    int nr = 0, nz = 0;
    double dr = 0, dz = 0, z_lo = 0;  //!< [m]
    Vec3 center;                      //!< the axis is parallel to z through center [m]

    GT_HOST_DEVICE Vec3 operator()(Vec3 pos) const
    {
        double const x = pos.x - center.x, y = pos.y - center.y;
        double const r = pmath::sqrt(x * x + y * y);
        double const u = r / dr, v = (pos.z - center.z - z_lo) / dz;
        if (!(u >= 0) || u > double(nr - 1) || !(v >= 0) || v > double(nz - 1)) return {0, 0, 0};
        int i = static_cast<int>(u), k = static_cast<int>(v);
        if (i > nr - 2) i = nr - 2;
        if (k > nz - 2) k = nz - 2;
        double const fu = u - i, fv = v - k;
        // the four corners' records first (two 32-byte runs: (i, k), (i, k + 1) and the same at
        // i + 1), then the sums in corner order
        long const node0 = long(i) * nz + k;
        double rec[4][2];
        for (int c = 0; c < 4; ++c) load_node(node0 + (c >> 1) * long(nz) + (c & 1), rec[c]);
        double br = 0, bz = 0;
        for (int c = 0; c < 4; ++c) {
            int const di = c >> 1, dk = c & 1;
            double const w = (di ? fu : 1 - fu) * (dk ? fv : 1 - fv);
            br += w * rec[c][0];
            bz += w * rec[c][1];
        }
        if (r == 0) return {0, 0, bz};
        return {br * x / r, br * y / r, bz};
    }

    //! (Br, Bz) of a node: on the device one 16-byte load through the read-only data cache (the
    //! values are a device allocation, 256-byte aligned; node n's record is the 16 bytes from byte 16 n).
    GT_HOST_DEVICE void load_node(long node, double out[2]) const
    {
#if GT_ON_DEVICE
        double2 const v = __ldg(reinterpret_cast<double2 const*>(values) + node);
        out[0] = v.x;
        out[1] = v.y;
#else
        out[0] = values[2 * node];
        out[1] = values[2 * node + 1];
#endif
    }
};

}  // namespace gt
