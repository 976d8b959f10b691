// Polycone (G4Polycone from z planes): cone sections in the geometry's side table. Hand values
// (a step where the radii jump, rays crossing shared planes, a ray in a shared plane), distances
// against a brute-force march along random rays (to 1e-9), safeties never above the distance along
// any sampled direction, and the volume by hit-or-miss against the sum of the frusta.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "Relative.hh"
#include "ShapeTestSupport.hh"
#include "detector/ShapeParameters.hh"
#include "kernels/core/Types.hh"
#include "kernels/geometry/Shape.hh"

using namespace gt;
using test::relative;

namespace {

constexpr double k_pi = 3.14159265358979323846;
constexpr double k_eps = 1e-14;  // a few ulps of the O(1) lengths below

struct Solid {
    std::vector<PolyconeSection> table;
    Shape shape;

    Solid(std::vector<std::array<double, 3>> const& planes, double phi0 = 0, double dphi = 0)
        : shape(make_polycone(planes, phi0, dphi, table))
    {
    }
    bool inside(Vec3 p) const { return shape.inside(p, table.data()); }
    double out(Vec3 p, Vec3 d) const { return shape.distance_to_out(p, d, table.data()); }
    double in(Vec3 p, Vec3 d) const { return shape.distance_to_in(p, d, table.data()); }
    double safety(Vec3 p) const
    {
        return inside(p) ? shape.safety_to_out(p, table.data()) : shape.safety_to_in(p, table.data());
    }
};

//! Polycones whose features are >= 0.1 m: a step outwards and inwards, holes, a pointed end, a
//! narrow and a wide phi segment.
std::vector<Solid> test_solids()
{
    std::vector<Solid> s;
    s.emplace_back(std::vector<std::array<double, 3>>{
        {-0.8, 0, 0.3}, {-0.2, 0, 0.6}, {-0.2, 0.2, 0.8}, {0.4, 0.1, 0.5}, {0.8, 0.1, 0.5}});
    s.emplace_back(std::vector<std::array<double, 3>>{{-0.7, 0.2, 0.4}, {0.0, 0.3, 0.7}, {0.7, 0.0, 0.0}},
                   0.4, 1.2);
    s.emplace_back(std::vector<std::array<double, 3>>{{-0.6, 0.3, 0.7},
                                                      {-0.1, 0.3, 0.7},
                                                      {-0.1, 0.1, 0.4},
                                                      {0.3, 0.1, 0.4},
                                                      {0.3, 0.2, 0.75},
                                                      {0.7, 0.25, 0.6}},
                   -1.0, 4.5);
    return s;
}

double frustum(double r1, double r2, double h) { return k_pi * h / 3 * (r1 * r1 + r1 * r2 + r2 * r2); }

}  // namespace

TEST_CASE("a polycone: hand values across shared planes and a step")
{
    // a solid cylinder r = 0.5 for z in [-1, 0], a step out to r = 1 at z = 0, then a hollow cone
    // from (0.2, 1) at z = 0 to (0.2, 0.6) at z = 1
    Solid const p({{-1, 0, 0.5}, {0, 0, 0.5}, {0, 0.2, 1.0}, {1, 0.2, 0.6}});
    CHECK(p.table.size() == 2);  // the step is not a section
    CHECK(p.inside({0.4, 0, -0.5}));
    CHECK_FALSE(p.inside({0.6, 0, -0.5}));
    CHECK(p.inside({0.9, 0, 0}));  // on the step's plane, in the upper section
    CHECK(p.inside({0.1, 0, 0}));  // on the plane, in the lower section (the upper one's hole)
    CHECK_FALSE(p.inside({0.1, 0, 0.01}));
    Vec3 const h = p.shape.half_extent();
    CHECK(h.x == 1.0);
    CHECK(h.z == 1.0);
    // up the axis: leaves the lower section into the upper one's hole: out at z = 0
    CHECK(p.out({0, 0, -0.5}, {0, 0, 1}) == relative(0.5, k_eps));
    // up at r = 0.4: through the shared plane into the upper section, out at its top
    CHECK(p.out({0.4, 0, -0.5}, {0, 0, 1}) == relative(1.5, k_eps));
    // down at r = 0.7 from z = 0.5 (the upper section): out through the step face at z = 0
    CHECK(p.out({0.7, 0, 0.5}, {0, 0, -1}) == relative(0.5, k_eps));
    // along (1, 0, 1)/sqrt 2 from (0, 0, -0.3): r = z + 0.3 crosses z = 0 at r = 0.3 (into the upper
    // section, r >= 0.2), then meets the outer cone r = 1 - 0.4 z at z + 0.3 = 1 - 0.4 z
    double const z_out = 0.7 / 1.4;
    CHECK(p.out({0, 0, -0.3}, normalized(Vec3{1, 0, 1})) == relative((z_out + 0.3) * std::sqrt(2.0), k_eps));
    // from outside: down the axis from z = 2 into the hole, entering the lower section at z = 0
    CHECK(p.in({0, 0, 2}, {0, 0, -1}) == relative(2.0, k_eps));
    // inwards at z = -0.5: the cylinder r = 0.5
    CHECK(p.in({3, 0, -0.5}, {-1, 0, 0}) == relative(2.5, k_eps));
    CHECK(p.in({3, 0, -0.5}, {1, 0, 0}) == k_no_hit);
    // in the step's plane z = 0 along x from the axis: the lower disc (r <= 0.5) and the upper
    // annulus (0.2 <= r <= 1) together, out at r = 1; from r = 0.9 along -x: through both and out
    // at x = -1
    CHECK(p.out({0, 0, 0}, {1, 0, 0}) == relative(1.0, k_eps));
    CHECK(p.out({0.9, 0, 0}, {-1, 0, 0}) == relative(1.9, k_eps));
    // safeties: below the distances; at (0, 0, -0.5) the lower section's own 0.5
    CHECK(p.safety({0, 0, -0.5}) == relative(0.5, k_eps));
    CHECK(p.safety({0, 0, -2}) == relative(1.0, k_eps));
    // a segment of 90 deg from phi = 0: the +x, +y quadrant only
    Solid const q({{-1, 0, 0.5}, {1, 0, 0.5}}, 0, 0.5 * k_pi);
    CHECK(q.inside({0.2, 0.2, 0}));
    CHECK_FALSE(q.inside({-0.2, 0.2, 0}));
    CHECK(q.in({-1, 0.2, 0}, {1, 0, 0}) == relative(1.0, k_eps));
}

TEST_CASE("polycones: distances match a brute-force march, safeties stay below every distance")
{
    std::mt19937_64 gen(2026);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    double const dt = 1.0e-3;  // features >= 0.1 m
    int index = 0;
    for (Solid const& s : test_solids()) {
        CAPTURE(index);
        int inside_count = 0, outside_count = 0;
        for (int n = 0; n < 1500; ++n) {
            Vec3 const p{u(gen), u(gen), u(gen)};
            Vec3 const d = test::random_direction(gen);
            bool const in = s.inside(p);
            double const exact = in ? s.out(p, d) : s.in(p, d);
            double const brute = test::brute_distance(s, p, d, in, dt, 4.0);
            if (brute == HUGE_VAL) {
                // the march stepped over a chord thinner than dt (a ray clipping an edge): a finite
                // exact distance must be such a chord
                if (exact != HUGE_VAL) {
                    Vec3 const q = axpy(exact + 1e-12, d, p);
                    CHECK(s.inside(q) != in);
                    CHECK((in ? s.in(q, d) : s.out(q, d)) < dt);
                }
            } else {
                CHECK(std::abs(exact - brute) < 1e-9);
            }
            (in ? inside_count : outside_count)++;
            // the safety is at most the distance along this and 31 more directions
            double const safety = s.safety(p);
            CHECK(safety >= 0);
            CHECK(safety <= exact + 1e-12);
            for (int k = 0; k < 31; ++k) {
                Vec3 const e = test::random_direction(gen);
                CHECK(safety <= (in ? s.out(p, e) : s.in(p, e)) + 1e-12);
            }
        }
        CHECK(inside_count > 20);
        CHECK(outside_count > 50);
        ++index;
    }
}

TEST_CASE("polycones: hit-or-miss volume against the sum of the frusta")
{
    std::mt19937_64 gen(99);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<Solid> const solids = test_solids();
    // the frusta between planes at different z, outer minus inner, times the phi share
    std::vector<double> const closed = {
        frustum(0.3, 0.6, 0.6) + frustum(0.8, 0.5, 0.6) - frustum(0.2, 0.1, 0.6) + frustum(0.5, 0.5, 0.4) -
            frustum(0.1, 0.1, 0.4),
        1.2 / (2 * k_pi) *
            (frustum(0.4, 0.7, 0.7) - frustum(0.2, 0.3, 0.7) + frustum(0.7, 0.0, 0.7) -
             frustum(0.3, 0.0, 0.7)),
        4.5 / (2 * k_pi) *
            (frustum(0.7, 0.7, 0.5) - frustum(0.3, 0.3, 0.5) + frustum(0.4, 0.4, 0.4) -
             frustum(0.1, 0.1, 0.4) + frustum(0.75, 0.6, 0.4) - frustum(0.2, 0.25, 0.4)),
    };
    for (std::size_t i = 0; i < solids.size(); ++i) {
        CAPTURE(i);
        Vec3 const h = solids[i].shape.half_extent();
        int const n = 200000;
        int hits = 0;
        for (int k = 0; k < n; ++k)
            if (solids[i].inside({h.x * u(gen), h.y * u(gen), h.z * u(gen)})) ++hits;
        double const box = 8 * h.x * h.y * h.z;
        double const f = static_cast<double>(hits) / n;
        // binomial standard error of the hit fraction: 4 sigma (a 1e-4 chance of a false alarm)
        CHECK(std::fabs(f * box - closed[i]) < 4 * std::sqrt(f * (1 - f) / n) * box);
    }
}
