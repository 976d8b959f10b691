// One solid of any supported kind, as a type tag and its parameter block (no virtual calls).
//
// The parameter blocks share their storage (a tagged union): a placed volume holds the largest
// (the general trapezoid, 120 bytes) rather than all of them side by side. sizeof(Shape) is 128
// bytes: box, tube and sphere side by side took 112 before the cone, trapezoids, elliptical tube
// and parallelepiped were added, and the trap's four side planes cost 16 bytes more.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernels/geometry/Box.hh"
#include "kernels/geometry/Cons.hh"
#include "kernels/geometry/EllipticalTube.hh"
#include "kernels/geometry/Para.hh"
#include "kernels/geometry/Polycone.hh"
#include "kernels/geometry/Sphere.hh"
#include "kernels/geometry/Trap.hh"
#include "kernels/geometry/Trd.hh"
#include "kernels/geometry/Tube.hh"

namespace gt {

enum class ShapeType : std::int32_t {
    box = 0,
    tube = 1,
    sphere = 2,
    cons = 3,
    trd = 4,
    eltube = 5,
    para = 6,
    trap = 7,
    polycone = 8
};

struct Shape {
    ShapeType type = ShapeType::box;
    //! The block `type` names is the active member; set a shape whole through a constructor.
    union {
        Box box;
        Tube tube;
        Sphere sphere;
        Cons cons;
        Trd trd;
        EllipticalTube eltube;
        Para para;
        Trap trap;
        Polycone polycone;  //!< its sections in the geometry's side table
    };

    GT_HOST_DEVICE Shape() : box{} {}
    GT_HOST_DEVICE explicit Shape(Box b) : type(ShapeType::box), box(b) {}
    GT_HOST_DEVICE explicit Shape(Tube t) : type(ShapeType::tube), tube(t) {}
    GT_HOST_DEVICE explicit Shape(Sphere s) : type(ShapeType::sphere), sphere(s) {}
    GT_HOST_DEVICE explicit Shape(Cons c) : type(ShapeType::cons), cons(c) {}
    GT_HOST_DEVICE explicit Shape(Trd t) : type(ShapeType::trd), trd(t) {}
    GT_HOST_DEVICE explicit Shape(EllipticalTube e) : type(ShapeType::eltube), eltube(e) {}
    GT_HOST_DEVICE explicit Shape(Para p) : type(ShapeType::para), para(p) {}
    GT_HOST_DEVICE explicit Shape(Trap t) : type(ShapeType::trap), trap(t) {}
    GT_HOST_DEVICE explicit Shape(Polycone p) : type(ShapeType::polycone), polycone(p) {}

    GT_HOST_DEVICE bool inside(Vec3 p, PolyconeSection const* sections = nullptr) const
    {
        switch (type) {
            case ShapeType::box:
                return box.inside(p);
            case ShapeType::tube:
                return tube.inside(p);
            case ShapeType::cons:
                return cons.inside(p);
            case ShapeType::trd:
                return trd.inside(p);
            case ShapeType::eltube:
                return eltube.inside(p);
            case ShapeType::para:
                return para.inside(p);
            case ShapeType::trap:
                return trap.inside(p);
            case ShapeType::polycone:
                return polycone.inside(p, sections);
            default:
                return sphere.inside(p);
        }
    }
    GT_HOST_DEVICE double distance_to_out(Vec3 p, Vec3 d, PolyconeSection const* sections = nullptr) const
    {
        switch (type) {
            case ShapeType::box:
                return box.distance_to_out(p, d);
            case ShapeType::tube:
                return tube.distance_to_out(p, d);
            case ShapeType::cons:
                return cons.distance_to_out(p, d);
            case ShapeType::trd:
                return trd.distance_to_out(p, d);
            case ShapeType::eltube:
                return eltube.distance_to_out(p, d);
            case ShapeType::para:
                return para.distance_to_out(p, d);
            case ShapeType::trap:
                return trap.distance_to_out(p, d);
            case ShapeType::polycone:
                return polycone.distance_to_out(p, d, sections);
            default:
                return sphere.distance_to_out(p, d);
        }
    }
    GT_HOST_DEVICE double distance_to_in(Vec3 p, Vec3 d, PolyconeSection const* sections = nullptr) const
    {
        switch (type) {
            case ShapeType::box:
                return box.distance_to_in(p, d);
            case ShapeType::tube:
                return tube.distance_to_in(p, d);
            case ShapeType::cons:
                return cons.distance_to_in(p, d);
            case ShapeType::trd:
                return trd.distance_to_in(p, d);
            case ShapeType::eltube:
                return eltube.distance_to_in(p, d);
            case ShapeType::para:
                return para.distance_to_in(p, d);
            case ShapeType::trap:
                return trap.distance_to_in(p, d);
            case ShapeType::polycone:
                return polycone.distance_to_in(p, d, sections);
            default:
                return sphere.distance_to_in(p, d);
        }
    }
    GT_HOST_DEVICE double safety_to_out(Vec3 p, PolyconeSection const* sections = nullptr) const
    {
        switch (type) {
            case ShapeType::box:
                return box.safety_to_out(p);
            case ShapeType::tube:
                return tube.safety_to_out(p);
            case ShapeType::cons:
                return cons.safety_to_out(p);
            case ShapeType::trd:
                return trd.safety_to_out(p);
            case ShapeType::eltube:
                return eltube.safety_to_out(p);
            case ShapeType::para:
                return para.safety_to_out(p);
            case ShapeType::trap:
                return trap.safety_to_out(p);
            case ShapeType::polycone:
                return polycone.safety_to_out(p, sections);
            default:
                return sphere.safety_to_out(p);
        }
    }
    GT_HOST_DEVICE double safety_to_in(Vec3 p, PolyconeSection const* sections = nullptr) const
    {
        switch (type) {
            case ShapeType::box:
                return box.safety_to_in(p);
            case ShapeType::tube:
                return tube.safety_to_in(p);
            case ShapeType::cons:
                return cons.safety_to_in(p);
            case ShapeType::trd:
                return trd.safety_to_in(p);
            case ShapeType::eltube:
                return eltube.safety_to_in(p);
            case ShapeType::para:
                return para.safety_to_in(p);
            case ShapeType::trap:
                return trap.safety_to_in(p);
            case ShapeType::polycone:
                return polycone.safety_to_in(p, sections);
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
            case ShapeType::cons:
                return {cons.rmax, cons.rmax, cons.hz};
            case ShapeType::trd:
                return {trd.hx, trd.hy, trd.hz};
            case ShapeType::eltube:
                return {eltube.dx, eltube.dy, eltube.hz};
            case ShapeType::para:
                return para.bound;
            case ShapeType::trap:
                return trap.bound();
            case ShapeType::polycone:
                return {polycone.rmax, polycone.rmax, polycone.zmax};
            default:
                return {sphere.rmax, sphere.rmax, sphere.rmax};
        }
    }
};

// A solid whose parameters vary in number (the polycone's sections) keeps them in a side table of
// the geometry (GeometryView::sections); the queries take that table, which other solids ignore.
//
// Placed volumes are copied to the device as bytes; the size is what the header comment says.
static_assert(std::is_trivially_copyable_v<Shape>, "shapes are copied to the device as bytes");
static_assert(sizeof(Shape) == 128, "the largest parameter block (Trap) plus the tag");

}  // namespace gt
