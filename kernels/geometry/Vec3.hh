// A three-vector of doubles for positions, directions, momenta and fields (host and device).
#pragma once

#include "kernels/core/Macros.hh"
#include "kernels/core/PortableMath.hh"

namespace gt {

struct Vec3 {
    double x = 0, y = 0, z = 0;

    GT_HOST_DEVICE double operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }
    GT_HOST_DEVICE double& operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }
};

GT_HOST_DEVICE GT_FORCEINLINE Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
GT_HOST_DEVICE GT_FORCEINLINE Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
GT_HOST_DEVICE GT_FORCEINLINE Vec3 operator-(Vec3 a) { return {-a.x, -a.y, -a.z}; }
GT_HOST_DEVICE GT_FORCEINLINE Vec3 operator*(double s, Vec3 a) { return {s * a.x, s * a.y, s * a.z}; }
GT_HOST_DEVICE GT_FORCEINLINE Vec3 operator*(Vec3 a, double s) { return {s * a.x, s * a.y, s * a.z}; }
GT_HOST_DEVICE GT_FORCEINLINE double dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
GT_HOST_DEVICE GT_FORCEINLINE Vec3 cross(Vec3 a, Vec3 b)
{
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
GT_HOST_DEVICE GT_FORCEINLINE double norm(Vec3 a) { return pmath::sqrt(dot(a, a)); }
GT_HOST_DEVICE GT_FORCEINLINE Vec3 normalized(Vec3 a) { return (1.0 / norm(a)) * a; }
//! a + s b, written out so that no compiler may fuse it differently on either side.
GT_HOST_DEVICE GT_FORCEINLINE Vec3 axpy(double s, Vec3 b, Vec3 a)
{
    return {a.x + s * b.x, a.y + s * b.y, a.z + s * b.z};
}

}  // namespace gt
