// Helpers for the solid tests (ShapeTest, PolyconeTest): the distance to a solid's boundary found by
// marching along a ray with its inside test alone, and random directions.
#pragma once

#include <cmath>
#include <random>

#include "kernels/geometry/Vec3.hh"

namespace gt::test {

//! First t in (0, t_max] where solid.inside() changes from `from_inside`, by marching in steps of dt and
//! bisecting to 1e-13; HUGE_VAL if it never changes. A layer thinner than dt could be stepped over: the
//! solids tested have no feature thinner than 50 dt.
template <class Solid>
double brute_distance(Solid const& s, Vec3 p, Vec3 d, bool from_inside, double dt, double t_max)
{
    double prev = 0;
    for (double t = dt; t <= t_max; t += dt) {
        if (s.inside(axpy(t, d, p)) != from_inside) {
            double lo = prev, hi = t;
            for (int i = 0; i < 60; ++i) {
                double const mid = 0.5 * (lo + hi);
                (s.inside(axpy(mid, d, p)) != from_inside ? hi : lo) = mid;
            }
            return 0.5 * (lo + hi);
        }
        prev = t;
    }
    return HUGE_VAL;
}

//! A direction uniform on the sphere (rejection from the cube).
inline Vec3 random_direction(std::mt19937_64& g)
{
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (;;) {
        Vec3 v{u(g), u(g), u(g)};
        double const n = norm(v);
        if (n > 0.1 && n < 1.0) return (1.0 / n) * v;
    }
}

}  // namespace gt::test
