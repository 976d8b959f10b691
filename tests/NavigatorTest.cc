// The navigator on deck-built geometries: locate and next-boundary distances through the daughter
// hierarchies against brute force over every placed volume, for thousands of rotated volumes, nested
// replicas and mixed shapes; the geometry check finds overlaps and protrusions.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>

#include <fmt/format.h>

#include "Relative.hh"
#include "deck/DeckReader.hh"
#include "detector/DetectorSetup.hh"
#include "kernels/geometry/Navigator.hh"

using namespace gt;

namespace {

DetectorSetup setup_of(std::string const& text)
{
    return make_detector_setup(read_deck_text(text, "nav.toml", {}));
}

std::string const k_head = R"(
[run]
kind = "detector"
[gun]
particle = "mu-"
energy = "1 GeV"
events = 1
)";

}  // namespace

TEST_CASE("locate and find_next_step through the hierarchies agree with brute force")
{
    // rows of cells, each cell holding three stacked tubes with a sphere in each
    std::string deck = k_head + R"(
[geometry.world]
shape = "box"
half_size = [3.0, 3.0, 3.0]
material = "air"
[[geometry.volume]]
name = "shell"
shape = "tube"
rmin = 2.0
rmax = 2.05
half_z = 2.0
phi_start = "10 deg"
phi_delta = "300 deg"
material = "iron"
replicas = { count = 5, step_r = 0.15 }
[[geometry.volume]]
name = "row"
shape = "box"
half_size = [0.95, 0.06, 0.35]
position = [0.0, -0.77, 0.0]
material = "air"
replicas = { count = 12, step_y = 0.14 }
[[geometry.volume]]
name = "cell"
mother = "row"
shape = "box"
half_size = [0.05, 0.04, 0.3]
position = [-0.77, 0.0, 0.0]
rotation = ["0 deg", "0 deg", "20 deg"]
material = "silicon"
replicas = { count = 12, step_x = 0.14 }
[[geometry.volume]]
name = "tube"
mother = "cell"
shape = "tube"
rmax = 0.015
half_z = 0.08
position = [0.0, 0.0, -0.2]
material = "copper"
replicas = { count = 3, step_z = 0.2 }
[[geometry.volume]]
name = "ball"
mother = "tube"
shape = "sphere"
rmax = 0.01
material = "lead"
)";
    DetectorSetup const s = setup_of(deck);
    GeometryTables const& g = s.geometry;
    REQUIRE(g.volumes.size() == 1 + 5 + 12 + 144 + 432 + 432);
    Navigator const nav(g.view());
    // brute force: the deepest volume containing p (depth = number of mothers)
    auto depth = [&](std::int32_t v) {
        int d = 0;
        while (g.volumes[v].mother >= 0) {
            v = g.volumes[v].mother;
            ++d;
        }
        return d;
    };
    auto chain_inside = [&](std::int32_t v, Vec3 p) {
        for (; v >= 0; v = g.volumes[v].mother)
            if (!nav.inside(v, p)) return false;
        return true;
    };
    auto brute_locate = [&](Vec3 p) {
        std::int32_t best = -1;
        for (std::int32_t v = 0; v < static_cast<std::int32_t>(g.volumes.size()); ++v)
            if (chain_inside(v, p) && (best < 0 || depth(v) > depth(best))) best = v;
        return best;
    };
    CHECK(check_geometry(g, 200).empty());
    std::mt19937_64 gen(3);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::normal_distribution<double> nrm;
    int in_leaves = 0;
    for (int i = 0; i < 3000; ++i) {
        Vec3 p{2.2 * u(gen), 2.2 * u(gen), 0.5 * u(gen)};
        if (i % 3 == 0) p = {0.95 * u(gen), 0.9 * u(gen), 0.35 * u(gen)};  // dense region
        if (i % 3 == 1) {  // near the centre of a random placement: every level gets points
            auto const k =
                static_cast<std::size_t>(0.5 * (u(gen) + 1.0) * static_cast<double>(g.volumes.size() - 1));
            p = axpy(0.012, Vec3{u(gen), u(gen), u(gen)}, g.volumes[k].placement.t);
        }
        std::int32_t const v = nav.locate(p);
        REQUIRE(v == brute_locate(p));
        if (g.volumes[v].logical == 5) ++in_leaves;
        // next boundary: v's own surface or any of its daughters, by brute force over the daughters
        Vec3 const d = normalized(Vec3{nrm(gen), nrm(gen), nrm(gen)});
        PlacedVolume const& pv = g.volumes[v];
        double expect = pv.shape.distance_to_out(pv.placement.to_local(p), pv.placement.dir_to_local(d));
        for (std::size_t k = 0; k < g.volumes.size(); ++k) {
            PlacedVolume const& dv = g.volumes[k];
            if (dv.mother != v) continue;
            expect = std::min(
                expect, dv.shape.distance_to_in(dv.placement.to_local(p), dv.placement.dir_to_local(d)));
        }
        NextStep const ns = nav.find_next_step(v, p, d, 100.0);
        REQUIRE(ns.boundary);
        REQUIRE(ns.distance == expect);
        // the safety never exceeds the distance along any direction
        REQUIRE(nav.safety(v, p, 100.0) <= expect + 1e-15);
    }
    CHECK(in_leaves > 100);
}

TEST_CASE("crossing a boundary enters the daughter or returns to the mother")
{
    std::string deck = k_head + R"(
[geometry.world]
shape = "box"
half_size = [1.0, 1.0, 1.0]
material = "air"
[[geometry.volume]]
name = "a"
shape = "box"
half_size = [0.2, 0.2, 0.2]
material = "silicon"
[[geometry.volume]]
name = "b"
mother = "a"
shape = "sphere"
rmax = 0.1
material = "lead"
)";
    DetectorSetup const s = setup_of(deck);
    Navigator const nav(s.geometry.view());
    Vec3 p{-0.5, 0, 0}, d{1, 0, 0};
    std::int32_t v = nav.locate(p);
    CHECK(v == 0);
    double const expected[] = {0.3, 0.1, 0.2, 0.1, 0.8};
    std::int32_t const volumes[] = {1, 2, 1, 0, -1};
    for (int k = 0; k < 5; ++k) {
        NextStep const ns = nav.find_next_step(v, p, d, 10.0);
        // each start lies k_push = 1 nm past the surface just crossed
        CHECK(ns.distance == test::relative(expected[k], 1e-7));
        p = axpy(ns.distance, d, p);
        v = nav.cross_boundary(v, p, d);
        CHECK(v == volumes[k]);
        p = axpy(nav::k_push, d, p);
        if (v < 0) break;
    }
}

TEST_CASE("the geometry check reports overlapping siblings and daughters sticking out")
{
    std::string const good = k_head + R"(
[geometry.world]
shape = "box"
half_size = [1.0, 1.0, 1.0]
material = "air"
[[geometry.volume]]
name = "a"
shape = "box"
half_size = [0.2, 0.2, 0.2]
position = [-0.3, 0, 0]
material = "silicon"
[[geometry.volume]]
name = "b"
shape = "tube"
rmax = 0.1
half_z = 0.2
position = [0.3, 0, 0]
material = "lead"
)";
    CHECK(check_geometry(setup_of(good).geometry).empty());
    std::string overlapping = good;
    overlapping.replace(overlapping.find("position = [0.3, 0, 0]"), 22, "position = [-0.15, 0, 0]");
    auto problems = check_geometry(setup_of(overlapping).geometry);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].message.find("'a' (copy 0) and 'b' (copy 0) overlap") != std::string::npos);
    std::string protruding = good;
    protruding.replace(protruding.find("position = [0.3, 0, 0]"), 22, "position = [0.95, 0, 0]");
    problems = check_geometry(setup_of(protruding).geometry);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].message.find("'b' (copy 0) sticks out of its mother 'world'") != std::string::npos);
}
