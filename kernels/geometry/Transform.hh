// Placement of a volume in its mother or in the world: global = R local + t.
#pragma once

#include "kernels/geometry/Vec3.hh"

namespace gt {

struct Transform {
    double r[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};  //!< rotation, row-major [1]
    Vec3 t;                                     //!< translation [m]

    //! R v
    GT_HOST_DEVICE Vec3 rotate(Vec3 v) const
    {
        return {r[0] * v.x + r[1] * v.y + r[2] * v.z, r[3] * v.x + r[4] * v.y + r[5] * v.z,
                r[6] * v.x + r[7] * v.y + r[8] * v.z};
    }
    //! R^T v (R is orthogonal: its inverse)
    GT_HOST_DEVICE Vec3 rotate_back(Vec3 v) const
    {
        return {r[0] * v.x + r[3] * v.y + r[6] * v.z, r[1] * v.x + r[4] * v.y + r[7] * v.z,
                r[2] * v.x + r[5] * v.y + r[8] * v.z};
    }
    GT_HOST_DEVICE Vec3 to_local(Vec3 global) const { return rotate_back(global - t); }
    GT_HOST_DEVICE Vec3 dir_to_local(Vec3 global) const { return rotate_back(global); }
    GT_HOST_DEVICE Vec3 to_global(Vec3 local) const { return rotate(local) + t; }

    //! this * inner: first inner, then this (the placement of a daughter in global coordinates).
    GT_HOST_DEVICE Transform compose(Transform const& inner) const
    {
        Transform out;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                out.r[3 * i + j] =
                    r[3 * i] * inner.r[j] + r[3 * i + 1] * inner.r[3 + j] + r[3 * i + 2] * inner.r[6 + j];
        out.t = rotate(inner.t) + t;
        return out;
    }
    GT_HOST_DEVICE bool is_identity_rotation() const
    {
        return r[0] == 1 && r[1] == 0 && r[2] == 0 && r[3] == 0 && r[4] == 1 && r[5] == 0 && r[6] == 0 &&
               r[7] == 0 && r[8] == 1;
    }
};

}  // namespace gt
