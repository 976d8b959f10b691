// The flat, device-ready geometry tables: placed volumes, their daughters' bounding-volume
// hierarchies, and the trivially copyable view that kernels receive.
//
// Every placement (replicas included) is its own record holding its global transform, so that
// navigation never walks a path of logical volumes: a track's volume is one index.
#pragma once

#include <cstdint>

#include "kernels/geometry/Shape.hh"
#include "kernels/geometry/Transform.hh"

namespace gt {

struct PlacedVolume {
    Shape shape;
    Transform placement;       //!< local -> global
    std::int32_t mother = -1;  //!< placed-volume index of the mother, -1 for the world
    std::int32_t material = 0;
    std::int32_t logical = 0;  //!< index of the [[geometry.volume]] it came from (0: the world)
    std::int32_t replica = 0;  //!< copy number within its replica set
    std::int32_t sensitive = 0;
    std::int32_t bvh_root = -1;  //!< root node of the hierarchy over its daughters, -1 if none
    Vec3 lo, hi;                 //!< global axis-aligned bounding box [m]
};

//! A node of a daughter hierarchy: an inner node (count < 0) has children first and first + 1
//! ... stored as `first` (left) and `second` (right); a leaf holds items [first, first + count).
struct BvhNode {
    Vec3 lo, hi;
    std::int32_t first = 0;
    std::int32_t second = 0;
    std::int32_t count = -1;
};

struct GeometryView {
    PlacedVolume const* volumes = nullptr;
    std::int32_t num_volumes = 0;
    BvhNode const* nodes = nullptr;
    std::int32_t const* items = nullptr;        //!< placed-volume indices referenced by BVH leaves
    PolyconeSection const* sections = nullptr;  //!< the polycones' sections (Shape's side table)
};

}  // namespace gt
