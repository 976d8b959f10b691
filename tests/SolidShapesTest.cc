// Cons, Trd, EllipticalTube, Para and Trap against values worked out by hand: inside tests on and off the
// surface, distances along rays from inside and outside (including rays parallel to a cone's axis,
// whose quadratic has a negative leading coefficient), tangent and grazing rays, and safeties where
// the exact distance to the surface is known.
#include <doctest/doctest.h>

#include <cmath>

#include "Relative.hh"
#include "detector/ShapeParameters.hh"
#include "kernels/geometry/Shape.hh"

using namespace gt;

namespace {

constexpr double k_eps = 1e-14;  // a few ulps of the O(1) lengths below: the maps are exact

Vec3 unit(double x, double y, double z) { return normalized(Vec3{x, y, z}); }

}  // namespace

TEST_CASE("a cone: inside, distances and safeties by hand")
{
    // full cone narrowing from r = 1 at z = -1 to r = 0.5 at z = +1: R(z) = 0.75 - 0.25 z
    Shape const c(make_cons(0, 1.0, 0, 0.5, 1.0));
    CHECK(c.inside({0, 0, 0}));
    CHECK(c.inside({0.75, 0, 0}));  // on the surface
    CHECK_FALSE(c.inside({0.7501, 0, 0}));
    CHECK(c.inside({0, 0.98, -0.96}));  // R(-0.96) = 0.99
    CHECK_FALSE(c.inside({0, 0, 1.0001}));
    CHECK(c.distance_to_out({0, 0, 0}, {1, 0, 0}) == doctest::Approx(0.75).epsilon(k_eps));
    CHECK(c.distance_to_out({0, 0, 0}, {0, 0, 1}) == doctest::Approx(1.0).epsilon(k_eps));
    // along (1, 0, 1)/sqrt 2: s = 0.75 - 0.25 s at s = x = z = 0.6
    CHECK(c.distance_to_out({0, 0, 0}, unit(1, 0, 1)) ==
          doctest::Approx(0.6 * std::sqrt(2.0)).epsilon(k_eps));
    // from the surface outwards: 0
    CHECK(c.distance_to_out({0.75, 0, 0}, {1, 0, 0}) == 0.0);
    CHECK(c.distance_to_in({2, 0, 0}, {-1, 0, 0}) == doctest::Approx(1.25).epsilon(k_eps));
    CHECK(c.distance_to_in({0, 0, -3}, {0, 0, 1}) == doctest::Approx(2.0).epsilon(k_eps));
    CHECK(c.distance_to_in({2, 0, 0}, {1, 0, 0}) == k_no_hit);
    // tangent to the circle r = 0.75 of z = 0: touches without entering, no crossing
    CHECK(c.distance_to_in({0.75, -2, 0}, {0, 1, 0}) == k_no_hit);
    // just inside the tangent: enters at y = -sqrt(0.75^2 - 0.74^2)
    CHECK(c.distance_to_in({0.74, -2, 0}, {0, 1, 0}) ==
          doctest::Approx(2 - std::sqrt(0.75 * 0.75 - 0.74 * 0.74)).epsilon(1e-12));
    // safety at the centre: the distance to the generator line 0.75 / sqrt(1 + 0.25^2) (its foot,
    // at z = 0.75 * 0.25 / 1.0625 = 0.176, lies on the cone's face: exact here)
    CHECK(c.safety_to_out({0, 0, 0}) == doctest::Approx(0.75 / std::sqrt(1.0625)).epsilon(k_eps));
    CHECK(c.safety_to_in({2, 0, 0}) == doctest::Approx(1.25 / std::sqrt(1.0625)).epsilon(k_eps));
    CHECK(c.safety_to_in({0, 0, 3}) == doctest::Approx(2.0).epsilon(k_eps));
}

TEST_CASE("a widening cone crossed parallel to its axis (negative leading coefficient)")
{
    // r = 0.1 at z = -1 to r = 1 at z = +1: R(z) = 0.55 + 0.45 z; a ray along z at x = 0.5 meets
    // the cone where R = 0.5, z = -1/9
    Shape const c(make_cons(0, 0.1, 0, 1.0, 1.0));
    CHECK(c.distance_to_in({0.5, 0, -2}, {0, 0, 1}) == doctest::Approx(2 - 1.0 / 9).epsilon(1e-13));
    CHECK(c.distance_to_out({0.5, 0, 0}, {0, 0, 1}) == doctest::Approx(1.0).epsilon(k_eps));
    CHECK(c.distance_to_out({0.5, 0, 0}, {0, 0, -1}) == doctest::Approx(1.0 / 9).epsilon(1e-13));
    // the line also meets the other nappe (R < 0, below the apex at z = -11/9): not a crossing
    CHECK(c.distance_to_in({0.5, 0, 1.5}, {0, 0, -1}) == doctest::Approx(0.5).epsilon(k_eps));
    CHECK(c.distance_to_in({0.5, 0, -1.5}, {0, 0, -1}) == k_no_hit);
}

TEST_CASE("a hollow cone segment: the hole, the phi edges")
{
    // rmin 0.2 -> 0.1, rmax 1 -> 0.5 over z in [-1, 1]: Rin(0) = 0.15, Rout(0) = 0.75; phi in [0, 90 deg]
    Shape const c(make_cons(0.2, 1.0, 0.1, 0.5, 1.0, 0.0, 0.5 * 3.14159265358979323846));
    CHECK_FALSE(c.inside({0.1, 0.1, 0}));  // r = 0.141 < 0.15: in the hole
    CHECK(c.inside({0.3, 0.3, 0}));
    CHECK_FALSE(c.inside({-0.3, 0.3, 0}));  // phi = 135 deg
    CHECK(c.inside({0.5, 0, 0}));           // on the phi = 0 edge
    // from the axis, out of the hole into the solid
    CHECK(c.distance_to_in({0, 0, 0}, unit(1, 1, 0)) == doctest::Approx(0.15).epsilon(k_eps));
    // inside along -x: the inner cone at r = 0.15 is reached before the edge plane x = 0 only if
    // the ray stays in the wedge; at y = 0.3 it crosses the edge phi = 90 deg at x = 0 first
    CHECK(c.distance_to_out({0.3, 0.3, 0}, {-1, 0, 0}) == doctest::Approx(0.3).epsilon(k_eps));
    CHECK(c.distance_to_out({0.5, 0.05, 0}, {-1, 0, 0}) ==
          doctest::Approx(0.5 - std::sqrt(0.15 * 0.15 - 0.05 * 0.05)).epsilon(1e-13));
    // from outside the wedge (phi = 135 deg) through the phi = 90 deg edge plane
    CHECK(c.distance_to_in({-0.3, 0.3, 0}, {1, 0, 0}) == doctest::Approx(0.3).epsilon(k_eps));
    // safety at (0.3, 0.3, 0): the phi edges are 0.3 away, the outer cone (0.75 - r) cos = 0.316,
    // the inner cone's generator (r - 0.15) / sqrt(1 + 0.05^2) = 0.274 the nearest (exact: its foot
    // lies on the face, in the wedge)
    CHECK(c.safety_to_out({0.3, 0.3, 0}) ==
          doctest::Approx((0.3 * std::sqrt(2.0) - 0.15) / std::sqrt(1.0025)).epsilon(k_eps));
}

TEST_CASE("a trd: inside, distances, the ray along a face, safeties by hand")
{
    // half-lengths x 1 -> 0.5, y 0.5 -> 1 over z in [-1, 1]: at z = 0 both 0.75
    Shape const t(make_trd(1.0, 0.5, 0.5, 1.0, 1.0));
    CHECK(t.inside({0.75, 0.75, 0}));  // on the edge
    CHECK_FALSE(t.inside({0.76, 0, 0}));
    CHECK(t.inside({0.99, 0, -0.99}));
    CHECK_FALSE(t.inside({0, 0.99, -0.99}));
    CHECK(t.distance_to_out({0, 0, 0}, {1, 0, 0}) == doctest::Approx(0.75).epsilon(k_eps));
    CHECK(t.distance_to_out({0, 0, 0}, {0, -1, 0}) == doctest::Approx(0.75).epsilon(k_eps));
    CHECK(t.distance_to_out({0, 0, 0}, {0, 0, 1}) == doctest::Approx(1.0).epsilon(k_eps));
    // along (1, 0, 1)/sqrt 2 the face x = 0.75 - 0.25 z is met at s = 0.6
    CHECK(t.distance_to_out({0, 0, 0}, unit(1, 0, 1)) ==
          doctest::Approx(0.6 * std::sqrt(2.0)).epsilon(k_eps));
    CHECK(t.distance_to_in({2, 0, 0}, {-1, 0, 0}) == doctest::Approx(1.25).epsilon(k_eps));
    CHECK(t.distance_to_in({0, 0, 5}, {0, 0, -1}) == doctest::Approx(4.0).epsilon(k_eps));
    CHECK(t.distance_to_in({0, 0, 5}, unit(1, 0, -1)) == k_no_hit);
    // a ray lying in the face plane x = 0.75 at z = 0 enters where it meets the solid (as a box)
    CHECK(t.distance_to_in({0.75, -3, 0}, {0, 1, 0}) == doctest::Approx(2.25).epsilon(k_eps));
    // the exact distance from the centre to each slanted face is 0.75 / sqrt(1.0625)
    CHECK(t.safety_to_out({0, 0, 0}) == doctest::Approx(0.75 / std::sqrt(1.0625)).epsilon(k_eps));
    CHECK(t.safety_to_in({2, 0, 0}) == doctest::Approx(1.25 / std::sqrt(1.0625)).epsilon(k_eps));
    CHECK(t.safety_to_in({0, 0, -4}) == doctest::Approx(3.0).epsilon(k_eps));
}

TEST_CASE("an elliptical tube: inside, distances, tangent ray, safety bounds")
{
    Shape const e(make_elliptical_tube(1.0, 0.5, 1.0));
    CHECK(e.inside({1, 0, 0}));
    CHECK(e.inside({0, 0.5, 1}));
    CHECK_FALSE(e.inside({0.8, 0.31, 0}));  // (0.8)^2 + (0.62)^2 > 1
    CHECK(e.inside({0.8, 0.29, 0}));
    CHECK(e.distance_to_out({0, 0, 0}, {1, 0, 0}) == doctest::Approx(1.0).epsilon(k_eps));
    CHECK(e.distance_to_out({0, 0, 0}, {0, 1, 0}) == doctest::Approx(0.5).epsilon(k_eps));
    CHECK(e.distance_to_out({0, 0, 0}, {0, 0, -1}) == doctest::Approx(1.0).epsilon(k_eps));
    // along the diagonal (1, 1)/sqrt 2: x = y = s / sqrt 2 with x^2 + 4 y^2 = 1, s = sqrt(2 / 5)
    CHECK(e.distance_to_out({0, 0, 0}, unit(1, 1, 0)) == doctest::Approx(std::sqrt(0.4)).epsilon(k_eps));
    CHECK(e.distance_to_in({3, 0, 0}, {-1, 0, 0}) == doctest::Approx(2.0).epsilon(k_eps));
    CHECK(e.distance_to_in({0, 2, 0}, {0, -1, 0}) == doctest::Approx(1.5).epsilon(k_eps));
    CHECK(e.distance_to_in({0, 0.2, -2}, {0, 0, 1}) == doctest::Approx(1.0).epsilon(k_eps));
    CHECK(e.distance_to_in({3, 0, 0}, {1, 0, 0}) == k_no_hit);
    // tangent at (1, 0): reported as touching there, as Tube reports a tangent ray
    CHECK(e.distance_to_in({1, -2, 0}, {0, 1, 0}) == doctest::Approx(2.0).epsilon(k_eps));
    CHECK(e.distance_to_in({1.001, -2, 0}, {0, 1, 0}) == k_no_hit);
    // safety from (0.5, 0): the gauge bound (1 - 0.5) x 0.5 = 0.25, below the true distance
    // 1 / sqrt 6 = 0.408 (nearest point x = 2/3 by minimizing (x - 0.5)^2 + (1 - x^2) / 4)
    CHECK(e.safety_to_out({0.5, 0, 0}) == doctest::Approx(0.25).epsilon(k_eps));
    CHECK(e.safety_to_out({0.5, 0, 0}) <= 1 / std::sqrt(6.0));
    // on the minor axis the bound is exact: (1 - 0.2 / 0.5) x 0.5 = 0.3 from (0, 0.2)
    CHECK(e.safety_to_out({0, 0.2, 0}) == doctest::Approx(0.3).epsilon(k_eps));
    CHECK(e.safety_to_in({0, 1.5, 0}) == doctest::Approx(1.0).epsilon(k_eps));
    CHECK(e.safety_to_in({3, 0, 0}) <= 2.0);
}

TEST_CASE("a para: sheared in x along y (alpha), tilted along x (theta), along y (phi)")
{
    double const quarter = 0.25 * 3.14159265358979323846;
    // alpha = 45 deg: |x - y| <= 1, |y| <= 0.5, |z| <= 1
    Shape const a(make_para(1.0, 0.5, 1.0, quarter, 0, 0));
    CHECK(a.inside({1.4, 0.5, 0}));         // x' = 0.9
    CHECK_FALSE(a.inside({-0.6, 0.5, 0}));  // x' = -1.1
    CHECK(a.distance_to_out({0, 0, 0}, {1, 0, 0}) == doctest::Approx(1.0).epsilon(k_eps));
    CHECK(a.distance_to_out({0, 0, 0}, {0, 1, 0}) == doctest::Approx(0.5).epsilon(k_eps));
    // along (1, 1)/sqrt 2 x' stays 0: out through y = 0.5
    CHECK(a.distance_to_out({0, 0, 0}, unit(1, 1, 0)) ==
          doctest::Approx(0.5 * std::sqrt(2.0)).epsilon(k_eps));
    CHECK(a.distance_to_in({3, 0, 0}, {-1, 0, 0}) == doctest::Approx(2.0).epsilon(k_eps));
    CHECK(a.distance_to_in({0, 2, 0}, {0, -1, 0}) == doctest::Approx(1.5).epsilon(k_eps));
    // from (-1.2, 2) along -y: x' = -1.2 - y reaches -1 at y = -0.2, through the slanted face
    CHECK(a.distance_to_in({-1.2, 2, 0}, {0, -1, 0}) == doctest::Approx(2.2).epsilon(k_eps));
    CHECK(a.distance_to_in({-2, 2, 0}, {0, -1, 0}) == k_no_hit);  // x' = -2 - y < -1 for |y| <= 0.5
    // the slanted face x - y = 1 is 0.5 / sqrt 2 from (0.5, 0) (its foot (0.75, -0.25) on the face)
    CHECK(a.safety_to_out({0.5, 0, 0}) == doctest::Approx(0.5 / std::sqrt(2.0)).epsilon(k_eps));
    CHECK(a.safety_to_out({0, 0, 0}) == doctest::Approx(0.5).epsilon(k_eps));
    CHECK(a.safety_to_in({0, 1.5, 0}) == doctest::Approx(1.0).epsilon(k_eps));
    // theta = 45 deg, phi = 0: the z faces' centres at x = z; |x - z| <= 1, |y| <= 0.5, |z| <= 0.8
    Shape const t(make_para(1.0, 0.5, 0.8, 0, quarter, 0));
    CHECK(t.inside({0.9, 0, 0.5}));
    CHECK_FALSE(t.inside({-0.6, 0, 0.5}));
    CHECK(t.distance_to_out({0, 0, 0}, {0, 0, 1}) == doctest::Approx(0.8).epsilon(k_eps));
    CHECK(t.distance_to_out({0, 0, 0}, {-1, 0, 0}) == doctest::Approx(1.0).epsilon(k_eps));
    CHECK(t.distance_to_in({0, 0, -2}, {0, 0, 1}) == doctest::Approx(1.2).epsilon(k_eps));
    // phi = 90 deg: the tilt is along y, |y - z| <= 0.5
    Shape const p(make_para(1.0, 0.5, 0.8, 0, quarter, 2 * quarter));
    CHECK(p.inside({0, 0.7, 0.5}));
    CHECK_FALSE(p.inside({0, -0.2, 0.5}));
    // the bounding box holds the vertices: x = x' + y' tan(alpha) + z tan(theta) cos(phi)
    Vec3 const b = Shape(make_para(1.0, 0.5, 0.8, quarter, quarter, 0)).half_extent();
    CHECK(b.x == doctest::Approx(2.3).epsilon(k_eps));
    CHECK(b.y == doctest::Approx(0.5).epsilon(k_eps));
    CHECK(b.z == 0.8);
}

TEST_CASE("the tagged parameter block: one shape's storage, the bounding half-extents")
{
    CHECK(sizeof(Shape) == 128);
    CHECK(Shape(make_cons(0.1, 0.4, 0.3, 0.7, 0.6)).half_extent().x == 0.7);
    Vec3 const h = Shape(make_trd(1.0, 0.5, 0.25, 0.75, 2.0)).half_extent();
    CHECK(h.x == 1.0);
    CHECK(h.y == 0.75);
    CHECK(h.z == 2.0);
    Vec3 const he = Shape(make_elliptical_tube(0.3, 0.2, 0.1)).half_extent();
    CHECK(he.x == 0.3);
    CHECK(he.y == 0.2);
    CHECK(he.z == 0.1);
}

TEST_CASE("a trap: hand values, and the same solid as a para or a trd where G4Trap is one")
{
    using test::relative;
    double const quarter = 0.25 * 3.14159265358979323846;
    // dy growing from 0.5 at z = -1 to 1 at z = +1 (|y| <= 0.75 + 0.25 z), |x| <= 1: G4Trap's order
    // (dz, theta, phi, dy1, dx1, dx2, alpha1, dy2, dx3, dx4, alpha2)
    Shape const w(make_trap({1.0, 0, 0, 0.5, 1.0, 1.0, 0, 1.0, 1.0, 1.0, 0}));
    CHECK(w.inside({0, 0.98, 0.96}));  // |y| <= 0.99 there
    CHECK_FALSE(w.inside({0, 0.76, 0}));
    CHECK(w.distance_to_out({0, 0, 0}, {0, 1, 0}) == relative(0.75, k_eps));
    CHECK(w.distance_to_out({0, 0, 0}, {0, -1, 0}) == relative(0.75, k_eps));
    CHECK(w.distance_to_out({0, 0, 0}, {1, 0, 0}) == relative(1.0, k_eps));
    // along (0, 1, 1)/sqrt 2: s = 0.75 + 0.25 s at y = z = 1, the +z face's edge
    CHECK(w.distance_to_out({0, 0, 0}, unit(0, 1, 1)) == relative(std::sqrt(2.0), k_eps));
    CHECK(w.distance_to_in({0, 3, 0}, {0, -1, 0}) == relative(2.25, k_eps));
    CHECK(w.distance_to_in({0, 3, -0.99}, {0, -1, 0}) == relative(3 - 0.5025, k_eps));
    CHECK(w.distance_to_in({0, 3, 0}, {0, 1, 0}) == k_no_hit);
    // the slanted faces are 0.75 / sqrt(1.0625) from the centre (nearer than x and z faces)
    CHECK(w.safety_to_out({0, 0, 0}) == relative(0.75 / std::sqrt(1.0625), k_eps));
    CHECK(w.safety_to_in({0, 2, 0}) == relative(1.25 / std::sqrt(1.0625), k_eps));
    CHECK(w.safety_to_in({0, 0, -4}) == relative(3.0, k_eps));
    Vec3 const b = w.half_extent();
    CHECK(b.x == relative(1.0, k_eps));
    CHECK(b.y == relative(1.0, k_eps));
    CHECK(b.z == 1.0);
    // a general trap: theta 45 deg along x, alpha 45 deg, dx1 = 1 at y = -1, dx2 = 0.5 at y = +1
    // (z = -1) and dx3 = 2, dx4 = 1 at y = -2, +2 (z = +1). Corners: (-3, -1), (-1, -1), (-0.5, 1),
    // (0.5, 1) at z = -1; (-3, -2), (1, -2), (2, 2), (4, 2) at z = +1. At z = 0 (the mean) the -x
    // edge runs from (-3, -1.5) to (0.75, 1.5): x = -1.125 + 1.25 y; the +x edge from (0, -1.5) to
    // (2.25, 1.5): x = 1.125 + 0.75 y
    Shape const g(make_trap({1.0, quarter, 0, 1.0, 1.0, 0.5, quarter, 2.0, 2.0, 1.0, quarter}));
    CHECK(g.distance_to_out({0, 0, 0}, {-1, 0, 0}) == relative(1.125, k_eps));
    CHECK(g.distance_to_out({0, 0, 0}, {1, 0, 0}) == relative(1.125, k_eps));
    CHECK(g.distance_to_out({0, 0, 0}, {0, 1, 0}) == relative(0.9, k_eps));  // the -x face at y = 0.9
    CHECK(g.distance_to_out({0, 0, 0}, {0, -1, 0}) == relative(1.5, k_eps));
    CHECK(g.inside({-1.1, 0, 0}));
    CHECK_FALSE(g.inside({-1.15, 0, 0}));
    CHECK(g.distance_to_in({5, 1, 0}, {-1, 0, 0}) == relative(5 - 1.875, k_eps));
    CHECK(g.distance_to_in({-5, 1, 0}, {1, 0, 0}) == relative(5 + 0.125, k_eps));
    // the bounding box is the corners' extent
    Vec3 const gb = g.half_extent();
    CHECK(gb.x == relative(4.0, k_eps));
    CHECK(gb.y == relative(2.0, k_eps));
    CHECK(gb.z == 1.0);
    // G4Trap with dy1 = dy2, all dx equal and alpha1 = alpha2 is G4Para; with theta = alpha = 0,
    // dx1 = dx2 and dx3 = dx4 it is G4Trd: both kernels (hand-checked above) give the same distances
    Shape const as_para(make_trap({0.8, 0.35, 1.1, 0.4, 0.5, 0.5, 0.3, 0.4, 0.5, 0.5, 0.3}));
    Shape const para(make_para(0.5, 0.4, 0.8, 0.3, 0.35, 1.1));
    Shape const as_trd(make_trap({0.6, 0, 0, 0.3, 0.6, 0.6, 0, 0.5, 0.2, 0.2, 0}));
    Shape const trd(make_trd(0.6, 0.2, 0.3, 0.5, 0.6));
    int compared = 0;
    for (int i = 0; i < 400; ++i) {
        // a deterministic spread of points and directions (a golden-angle spiral)
        double const f = (i + 0.5) / 400, ang = 2.399963229728653 * i;
        Vec3 const p{std::cos(3 * ang) * (1.6 * f - 0.8), std::sin(5 * ang) * 0.9, 1.8 * f - 0.9};
        Vec3 const d = unit(std::cos(ang) * std::sqrt(1 - (2 * f - 1) * (2 * f - 1)),
                            std::sin(ang) * std::sqrt(1 - (2 * f - 1) * (2 * f - 1)), 2 * f - 1);
        for (auto const& [a, e] : {std::pair{&as_para, &para}, std::pair{&as_trd, &trd}}) {
            bool const in = e->inside(p);
            // points within 1e-12 of a face may fall either side of it in the two maps
            if (std::fabs(in ? e->safety_to_out(p) : e->safety_to_in(p)) < 1e-12) continue;
            CHECK(a->inside(p) == in);
            double const da = in ? a->distance_to_out(p, d) : a->distance_to_in(p, d);
            double const de = in ? e->distance_to_out(p, d) : e->distance_to_in(p, d);
            if (de == k_no_hit) {
                CHECK(da == k_no_hit);
            } else {
                // the planes are made differently (unit normals from corners vs linear maps): a few ulps
                CHECK(da == relative(de, 1e-12));
                ++compared;
            }
        }
    }
    CHECK(compared > 200);
}
