// Navigation in the placed-volume tables: locate a point, distance to the next boundary along a
// ray (exact), safety distance, and crossing into the next volume.
//
// Daughters of a volume are searched through its bounding-volume hierarchy, so a mother with
// thousands of daughters costs a logarithmic number of box tests per query.
#pragma once

#include "kernels/geometry/GeometryView.hh"

namespace gt {

namespace nav {
//! How far past a boundary a point is moved to decide which side it is on [m].
inline constexpr double k_push = 1.0e-9;
inline constexpr int k_stack = 48;
}  // namespace nav

struct NextStep {
    double distance = 0;    //!< [m]
    bool boundary = false;  //!< true: a surface is reached before max_distance
};

class Navigator {
  public:
    GT_HOST_DEVICE explicit Navigator(GeometryView g) : g_(g) {}

    GT_HOST_DEVICE bool inside(std::int32_t v, Vec3 p) const
    {
        PlacedVolume const& pv = g_.volumes[v];
        return pv.shape.inside(pv.placement.to_local(p), g_.sections);
    }

    //! The deepest volume containing p, searching up from `start` then down; -1 outside the world.
    GT_HOST_DEVICE std::int32_t locate(Vec3 p, std::int32_t start = 0) const
    {
        std::int32_t v = start;
        while (v >= 0 && !inside(v, p)) v = g_.volumes[v].mother;
        if (v < 0) return -1;
        for (;;) {
            std::int32_t const d = daughter_containing(v, p);
            if (d < 0) return v;
            v = d;
        }
    }

    //! Distance along unit direction d from p (in volume v) to the first surface: v's own or a
    //! daughter's. Reports no boundary if none is closer than max_distance.
    GT_HOST_DEVICE NextStep find_next_step(std::int32_t v, Vec3 p, Vec3 d, double max_distance) const
    {
        PlacedVolume const& pv = g_.volumes[v];
        double best =
            pv.shape.distance_to_out(pv.placement.to_local(p), pv.placement.dir_to_local(d), g_.sections);
        if (pv.bvh_root >= 0) {
            Vec3 const inv{1.0 / d.x, 1.0 / d.y, 1.0 / d.z};
            std::int32_t stack[nav::k_stack];
            int top = 0;
            stack[top++] = pv.bvh_root;
            while (top > 0) {
                BvhNode const& n = g_.nodes[stack[--top]];
                double limit = best < max_distance ? best : max_distance;
                if (!ray_hits_box(n.lo, n.hi, p, inv, limit)) continue;
                if (n.count < 0) {
                    if (top + 2 <= nav::k_stack) {
                        stack[top++] = n.first;
                        stack[top++] = n.second;
                    }
                    continue;
                }
                for (std::int32_t k = 0; k < n.count; ++k) {
                    PlacedVolume const& dv = g_.volumes[g_.items[n.first + k]];
                    double const t = dv.shape.distance_to_in(dv.placement.to_local(p),
                                                             dv.placement.dir_to_local(d), g_.sections);
                    if (t < best) best = t;
                }
            }
        }
        if (best < max_distance) return NextStep{best, true};
        return NextStep{max_distance, false};
    }

    //! A lower bound of the distance from p (in v) to any surface, not searched beyond max_safety.
    GT_HOST_DEVICE double safety(std::int32_t v, Vec3 p, double max_safety) const
    {
        PlacedVolume const& pv = g_.volumes[v];
        double s = pv.shape.safety_to_out(pv.placement.to_local(p), g_.sections);
        s = s < max_safety ? s : max_safety;
        if (pv.bvh_root < 0) return s;
        std::int32_t stack[nav::k_stack];
        int top = 0;
        stack[top++] = pv.bvh_root;
        while (top > 0) {
            BvhNode const& n = g_.nodes[stack[--top]];
            if (box_distance(n.lo, n.hi, p) >= s) continue;
            if (n.count < 0) {
                if (top + 2 <= nav::k_stack) {
                    stack[top++] = n.first;
                    stack[top++] = n.second;
                }
                continue;
            }
            for (std::int32_t k = 0; k < n.count; ++k) {
                PlacedVolume const& dv = g_.volumes[g_.items[n.first + k]];
                // the daughter lies inside its box: the distance to the box is a lower bound
                double const t = box_distance(dv.lo, dv.hi, p);
                if (t < s) s = t;
            }
        }
        return s;
    }

    //! The volume entered from a boundary point p of v moving along d; -1 when leaving the world.
    GT_HOST_DEVICE std::int32_t cross_boundary(std::int32_t v, Vec3 p, Vec3 d) const
    {
        return locate(axpy(nav::k_push, d, p), v);
    }

  private:
    GT_HOST_DEVICE std::int32_t daughter_containing(std::int32_t v, Vec3 p) const
    {
        std::int32_t const root = g_.volumes[v].bvh_root;
        if (root < 0) return -1;
        std::int32_t stack[nav::k_stack];
        int top = 0;
        stack[top++] = root;
        while (top > 0) {
            BvhNode const& n = g_.nodes[stack[--top]];
            if (!(p.x >= n.lo.x && p.x <= n.hi.x && p.y >= n.lo.y && p.y <= n.hi.y && p.z >= n.lo.z &&
                  p.z <= n.hi.z))
                continue;
            if (n.count < 0) {
                if (top + 2 <= nav::k_stack) {
                    stack[top++] = n.second;
                    stack[top++] = n.first;
                }
                continue;
            }
            for (std::int32_t k = 0; k < n.count; ++k) {
                std::int32_t const dv = g_.items[n.first + k];
                if (inside(dv, p)) return dv;
            }
        }
        return -1;
    }

    //! Slab test: does the ray p + t d, 0 <= t <= limit, meet the box?
    GT_HOST_DEVICE static bool ray_hits_box(Vec3 lo, Vec3 hi, Vec3 p, Vec3 inv, double limit)
    {
        double tmin = 0.0, tmax = limit;
        for (int i = 0; i < 3; ++i) {
            double t1 = (lo[i] - p[i]) * inv[i];
            double t2 = (hi[i] - p[i]) * inv[i];
            if (t1 != t1) t1 = -HUGE_VAL;  // 0 * inf: the ray lies in the slab's plane
            if (t2 != t2) t2 = HUGE_VAL;
            if (t1 > t2) {
                double const s = t1;
                t1 = t2;
                t2 = s;
            }
            tmin = t1 > tmin ? t1 : tmin;
            tmax = t2 < tmax ? t2 : tmax;
            if (tmin > tmax) return false;
        }
        return true;
    }

    GT_HOST_DEVICE static double box_distance(Vec3 lo, Vec3 hi, Vec3 p)
    {
        double s2 = 0;
        for (int i = 0; i < 3; ++i) {
            double const e = p[i] < lo[i] ? lo[i] - p[i] : (p[i] > hi[i] ? p[i] - hi[i] : 0.0);
            s2 += e * e;
        }
        return pmath::sqrt(s2);
    }

    GeometryView g_;
};

}  // namespace gt
