// Box, Tube (with and without a phi segment), Sphere, Cons, Trd, EllipticalTube, Para and Trap:
// inside/outside and exact distances against a brute-force march along random rays, and safeties against the
// distances they must not exceed.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "ShapeTestSupport.hh"
#include "detector/ShapeParameters.hh"
#include "kernels/core/Types.hh"
#include "kernels/geometry/Shape.hh"

using namespace gt;

namespace {

std::vector<Shape> test_shapes()
{
    std::vector<Shape> shapes;
    shapes.push_back(Shape(Box{{0.3, 0.5, 0.7}}));
    Shape const tube(Tube{0.2, 0.5, 0.6, {}});
    shapes.push_back(tube);
    Shape cyl = tube;
    cyl.tube.rmin = 0;
    shapes.push_back(cyl);
    for (double dphi : {1.0, 4.0}) {  // a convex and a non-convex wedge
        Shape seg = tube;
        double const phi0 = 0.3;
        seg.tube.phi = make_phi_segment(phi0, dphi);
        shapes.push_back(seg);
    }
    Shape const ball(Sphere{0, 0.6});
    shapes.push_back(ball);
    Shape shell = ball;
    shell.sphere.rmin = 0.25;
    shapes.push_back(shell);
    // cones: widening and narrowing, with and without a hole, a pointed end, segments (convex and not)
    shapes.push_back(Shape(make_cons(0.1, 0.4, 0.3, 0.7, 0.6)));
    shapes.push_back(Shape(make_cons(0.0, 0.7, 0.0, 0.2, 0.5)));
    shapes.push_back(Shape(make_cons(0.0, 0.0, 0.25, 0.6, 0.55)));
    shapes.push_back(Shape(make_cons(0.3, 0.5, 0.2, 0.6, 0.6, 0.3, 1.0)));
    shapes.push_back(Shape(make_cons(0.3, 0.5, 0.2, 0.6, 0.6, 0.3, 4.0)));
    // trapezoids narrowing in x and widening in y, and a pyramid frustum
    shapes.push_back(Shape(make_trd(0.6, 0.2, 0.3, 0.5, 0.6)));
    shapes.push_back(Shape(make_trd(0.7, 0.25, 0.7, 0.25, 0.5)));
    shapes.push_back(Shape(make_elliptical_tube(0.7, 0.3, 0.6)));
    shapes.push_back(Shape(make_para(0.5, 0.4, 0.6, 0.3, 0.35, 1.1)));
    // general trapezoids (every parameter set, planar faces: equal alphas, (dx2 - dx1) / dy1 =
    // (dx4 - dx3) / dy2), one with negative angles
    shapes.push_back(Shape(make_trap({0.6, 0.3, 0.7, 0.3, 0.25, 0.4, 0.2, 0.45, 0.3, 0.525, 0.2})));
    shapes.push_back(Shape(make_trap({0.5, -0.4, 2.5, 0.4, 0.5, 0.3, -0.3, 0.2, 0.35, 0.25, -0.3})));
    return shapes;
}

}  // namespace

TEST_CASE("every shape's distances match a brute-force march along random rays")
{
    std::mt19937_64 gen(42);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    double const dt = 1.0e-3;  // features are >= 0.2 m, so no crossing pair hides in one step
    int shape_index = 0;
    for (Shape const& s : test_shapes()) {
        CAPTURE(shape_index);
        int inside_count = 0, outside_count = 0;
        for (int n = 0; n < 2000; ++n) {
            Vec3 const p{u(gen), u(gen), u(gen)};
            Vec3 const d = test::random_direction(gen);
            bool const in = s.inside(p);
            double const exact = in ? s.distance_to_out(p, d) : s.distance_to_in(p, d);
            double const brute = test::brute_distance(s, p, d, in, dt, 4.0);
            CAPTURE(p.x);
            CAPTURE(p.y);
            CAPTURE(p.z);
            if (brute == HUGE_VAL) {
                // the march steps over a chord thinner than dt (a ray clipping an edge, as at a
                // cone's acute rim): a finite exact distance must then be such a chord, its far
                // side within dt of a point just past the crossing
                if (exact != HUGE_VAL) {
                    Vec3 const q = axpy(exact + 1e-12, d, p);
                    CHECK(s.inside(q) != in);
                    CHECK((in ? s.distance_to_in(q, d) : s.distance_to_out(q, d)) < dt);
                }
            } else {
                // bisection resolves the crossing to ~1e-13; a ray grazing a surface can cross it
                // twice within one march step and be missed, which the shapes above make rare
                CHECK(std::abs(exact - brute) < 1e-9);
            }
            (in ? inside_count : outside_count)++;
        }
        CHECK(inside_count > 20);
        CHECK(outside_count > 30);
        ++shape_index;
    }
}

TEST_CASE("safeties never exceed the distance to the surface in any direction")
{
    std::mt19937_64 gen(7);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (Shape const& s : test_shapes()) {
        for (int n = 0; n < 300; ++n) {
            Vec3 const p{u(gen), u(gen), u(gen)};
            bool const in = s.inside(p);
            double const safety = in ? s.safety_to_out(p) : s.safety_to_in(p);
            CHECK(safety >= 0);
            double nearest = HUGE_VAL;
            for (int k = 0; k < 200; ++k) {
                Vec3 const d = test::random_direction(gen);
                double const dist = in ? s.distance_to_out(p, d) : s.distance_to_in(p, d);
                nearest = std::min(nearest, dist);
            }
            CHECK(safety <= nearest + 1e-12);
        }
    }
}

TEST_CASE("a box's safety from outside is the exact Euclidean distance")
{
    Box const b{{1.0, 2.0, 3.0}};
    CHECK(b.safety_to_in({2.0, 0.0, 0.0}) == doctest::Approx(1.0));
    CHECK(b.safety_to_in({2.0, 3.0, 0.0}) == doctest::Approx(std::sqrt(2.0)));
    CHECK(b.distance_to_in({2.0, 0.0, 0.0}, {-1, 0, 0}) == doctest::Approx(1.0));
    CHECK(b.distance_to_in({2.0, 0.0, 0.0}, {1, 0, 0}) == HUGE_VAL);
}
