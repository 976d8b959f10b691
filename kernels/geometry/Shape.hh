// One solid of any supported kind, as a type tag and its parameter block (no virtual calls).
#pragma once

#include <cstdint>

#include "kernels/geometry/Box.hh"
#include "kernels/geometry/Sphere.hh"
#include "kernels/geometry/Tube.hh"

namespace gt {

enum class ShapeType : std::int32_t { box = 0, tube = 1, sphere = 2 };

struct Shape {
    ShapeType type = ShapeType::box;
    Box box;
    Tube tube;
    Sphere sphere;

    GT_HOST_DEVICE bool inside(Vec3 p) const
    {
        switch (type) {
            case ShapeType::box:
                return box.inside(p);
            case ShapeType::tube:
                return tube.inside(p);
            default:
                return sphere.inside(p);
        }
    }
    GT_HOST_DEVICE double distance_to_out(Vec3 p, Vec3 d) const
    {
        switch (type) {
            case ShapeType::box:
                return box.distance_to_out(p, d);
            case ShapeType::tube:
                return tube.distance_to_out(p, d);
            default:
                return sphere.distance_to_out(p, d);
        }
    }
    GT_HOST_DEVICE double distance_to_in(Vec3 p, Vec3 d) const
    {
        switch (type) {
            case ShapeType::box:
                return box.distance_to_in(p, d);
            case ShapeType::tube:
                return tube.distance_to_in(p, d);
            default:
                return sphere.distance_to_in(p, d);
        }
    }
    GT_HOST_DEVICE double safety_to_out(Vec3 p) const
    {
        switch (type) {
            case ShapeType::box:
                return box.safety_to_out(p);
            case ShapeType::tube:
                return tube.safety_to_out(p);
            default:
                return sphere.safety_to_out(p);
        }
    }
    GT_HOST_DEVICE double safety_to_in(Vec3 p) const
    {
        switch (type) {
            case ShapeType::box:
                return box.safety_to_in(p);
            case ShapeType::tube:
                return tube.safety_to_in(p);
            default:
                return sphere.safety_to_in(p);
        }
    }
    //! Half-extent of the local axis-aligned bounding box [m].
    GT_HOST_DEVICE Vec3 half_extent() const
    {
        switch (type) {
            case ShapeType::box:
                return box.half;
            case ShapeType::tube:
                return {tube.rmax, tube.rmax, tube.hz};
            default:
                return {sphere.rmax, sphere.rmax, sphere.rmax};
        }
    }
};

}  // namespace gt
