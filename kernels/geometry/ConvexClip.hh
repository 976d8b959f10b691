// Distances along a ray through a convex solid bounded by N planes (Trd, Trap): the ray is clipped
// against each plane's half-space. `solid.plane(i, p, d, h, hd)` gives plane i's value h at p (negative
// inside) and the outward normal's component hd along d; a plane may be unnormalized, since the
// crossing t = -h / hd does not depend on its scale. Exact for a convex solid.
#pragma once

#include "kernels/geometry/Box.hh"

namespace gt {

//! From a point inside: the nearest crossing of a plane the ray leaves through (0 when already on or
//! past a face moving out).
template <int N, class Solid>
GT_HOST_DEVICE double clip_distance_to_out(Solid const& solid, Vec3 p, Vec3 d)
{
    double t = k_no_hit;
    for (int i = 0; i < N; ++i) {
        double h, hd;
        solid.plane(i, p, d, h, hd);
        if (hd > 0) {
            double const ti = -h / hd;
            t = ti < t ? ti : t;
        }
    }
    return t > 0 ? t : 0.0;
}

//! From a point outside: where the ray has entered every half-space, if it does before leaving one
//! (k_no_hit otherwise; a ray parallel to a plane outside it never enters).
template <int N, class Solid>
GT_HOST_DEVICE double clip_distance_to_in(Solid const& solid, Vec3 p, Vec3 d)
{
    double tmin = 0.0, tmax = k_no_hit;
    for (int i = 0; i < N; ++i) {
        double h, hd;
        solid.plane(i, p, d, h, hd);
        if (hd == 0) {
            if (h > 0) return k_no_hit;
            continue;
        }
        double const ti = -h / hd;
        if (hd < 0)
            tmin = ti > tmin ? ti : tmin;
        else
            tmax = ti < tmax ? ti : tmax;
    }
    return (tmax > tmin) ? tmin : k_no_hit;
}

}  // namespace gt
