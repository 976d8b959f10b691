// Charge deposition: conservation, the three variants against each other, determinism, sorting.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "Relative.hh"
#include "kernels/cpu/Executor.hh"
#include "tests/SpaceChargeTestSupport.hh"

using namespace gt;
using namespace gt::test;

namespace {

double sum(std::vector<double> const& v)
{
    double s = 0.0;
    for (double x : v) s += x;
    return s;
}

}  // namespace

TEST_CASE("deposition conserves charge: every variant and shape, grid sized to the bunch or smaller")
{
    auto const points = lumpy_bunch(100000, 11);
    BeamFrame const frame = proton_frame(50.0, 1e-15);
    for (auto shape : {ParticleShape::cic, ParticleShape::tsc}) {
        for (auto method :
             {DepositionMethod::atomic, DepositionMethod::aggregated, DepositionMethod::deterministic}) {
            CAPTURE(int(shape));
            CAPTURE(int(method));
            ParticleState state = beam_at(points, frame);
            auto sc = make_cpu_space_charge();
            SpaceChargeSettings s;
            s.grid = {32, 24, 40};
            s.shape = shape;
            s.deposition = method;
            s.sort_every = 1;
            std::vector<FieldProbe> none;
            auto const d = sc->probe_field(state.view(), s, frame, none);
            // Sized to the bunch: everybody is inside. The total is a sum of 1e5 x 8 (27) positive
            // terms of similar size: round-off below 1e-12 relative.
            CHECK(d.inside == 100000.0);
            CHECK(d.outside == 0.0);
            CHECK(d.deposited_charge == test::relative(d.inside_charge, 1e-12));
            CHECK(sum(sc->charge_grid()) == test::relative(100000.0 * frame.macro_charge, 1e-12));

            // A fixed grid covering only the core: the deposited charge is that of the particles
            // inside it, no more, no less.
            s.fixed_grid =
                GridGeometry{16, 16, 16, -1e-3, -1e-3, -2e-3 * 1.2, 2e-3 / 15, 2e-3 / 15, 4.8e-3 / 15};
            auto const f = sc->probe_field(state.view(), s, frame, none);
            CHECK(f.inside > 10000.0);
            CHECK(f.outside > 1000.0);
            CHECK(f.inside + f.outside == 100000.0);
            CHECK(f.deposited_charge == test::relative(f.inside_charge, 1e-12));
        }
    }
}

TEST_CASE("the deterministic deposition is bit-identical across runs, thread counts and particle order")
{
    auto const points = lumpy_bunch(60000, 12);
    BeamFrame const frame = proton_frame(10.0, 3e-15);
    for (auto shape : {ParticleShape::cic, ParticleShape::tsc}) {
        CAPTURE(int(shape));
        SpaceChargeSettings s;
        s.grid = {20, 20, 30};
        s.shape = shape;
        s.deposition = DepositionMethod::deterministic;
        std::vector<FieldProbe> none;
        auto grid_of = [&](std::vector<Point3> const& pts, int sort_every) {
            ParticleState state = beam_at(pts, frame);
            auto sc = make_cpu_space_charge();
            s.sort_every = sort_every;
            sc->kick(state.view(), s, frame, 0.0);  // ds = 0: sorts (when asked) and deposits, kicks nothing
            return sc->charge_grid();
        };
        auto const reference = grid_of(points, 0);
        CHECK(grid_of(points, 0) == reference);
        CHECK(grid_of(points, 1) == reference);  // sorted by cell, aggregated sums
        std::vector<Point3> reversed(points.rbegin(), points.rend());
        CHECK(grid_of(reversed, 0) == reference);
        int const threads = cpu::thread_count();
        cpu::set_thread_count(1);
        CHECK(grid_of(points, 1) == reference);
        cpu::set_thread_count(threads);
    }
}

TEST_CASE("the three deposition variants agree to round-off")
{
    auto const points = lumpy_bunch(80000, 13);
    BeamFrame const frame = proton_frame(200.0, 1e-15);
    for (auto shape : {ParticleShape::cic, ParticleShape::tsc}) {
        CAPTURE(int(shape));
        std::vector<std::vector<double>> grids;
        for (auto method :
             {DepositionMethod::atomic, DepositionMethod::aggregated, DepositionMethod::deterministic}) {
            ParticleState state = beam_at(points, frame);
            auto sc = make_cpu_space_charge();
            SpaceChargeSettings s;
            s.grid = {24, 24, 24};
            s.shape = shape;
            s.deposition = method;
            s.sort_every = 1;
            sc->kick(state.view(), s, frame, 0.0);
            grids.push_back(sc->charge_grid());
        }
        double const peak = *std::max_element(grids[0].begin(), grids[0].end());
        // Doubles: differences only from the order of additions (~1e-16 of a node's charge). Fixed
        // point: each weight rounded to 2^-32 of a macroparticle, so a node is off by at most
        // (count) x 2^-32 macro charges, < 1e-9 of the peak node here.
        double worst_aggregated = 0.0, worst_fixed = 0.0;
        for (size_type i = 0; i < grids[0].size(); ++i) {
            worst_aggregated = std::max(worst_aggregated, std::abs(grids[1][i] - grids[0][i]));
            worst_fixed = std::max(worst_fixed, std::abs(grids[2][i] - grids[0][i]));
        }
        CHECK(worst_aggregated <= 1e-13 * peak);
        CHECK(worst_fixed <= 1e-9 * peak);
    }
}

TEST_CASE("sorting is a scratch order for the deposition: the particles keep their order and values")
{
    auto const points = lumpy_bunch(30000, 14);
    BeamFrame const frame = proton_frame(5.0, 1e-15);
    ParticleState state = beam_at(points, frame);
    ParticleView v = state.view();
    v.lost_element[7] = 3;  // a lost particle is not deposited
    auto sc = make_cpu_space_charge();
    SpaceChargeSettings s;
    s.grid = {16, 16, 16};
    s.sort_every = 1;
    auto const d = sc->kick(v, s, frame, 0.0);  // ds = 0: sorts and deposits, kicks nothing
    CHECK(d.sorted);
    CHECK(d.inside == 29999.0);
    // Nothing moved: the output order (and every sum over the particles) is the unsorted one.
    bool unchanged = true;
    for (size_type i = 0; i < v.size; ++i)
        unchanged = unchanged && v.id[i] == i && v.x[i] == points[i].x && v.y[i] == points[i].y;
    CHECK(unchanged);
    CHECK(v.lost_element[7] == 3);
}

TEST_CASE(
    "the kick: one pass in particle order, the gather in the sort's order, and probes give the same bits")
{
    auto const points = lumpy_bunch(20000, 21);
    BeamFrame const frame = proton_frame(5.0, 1e-12);
    double const ds = 0.01;
    SpaceChargeSettings s;
    s.grid = {16, 16, 16};
    s.sort_every = 1;
    auto kicked = [&](bool cell_order, int sort_every) {
        ParticleState state = beam_at(points, frame);
        ParticleView v = state.view();
        v.lost_element[11] = 2;  // lost: neither deposited nor kicked
        SpaceChargeSettings t = s;
        t.gather_in_cell_order = cell_order;
        t.sort_every = sort_every;
        auto sc = make_cpu_space_charge();
        for (int k = 0; k < 3; ++k) sc->kick(v, t, frame, ds);
        return ParticleState(state, MemSpace::host);
    };
    ParticleState one_pass = kicked(false, 1);
    ParticleView const a = one_pass.view();
    for (auto const& variant : {std::pair{true, 1}, std::pair{false, 0}, std::pair{true, 4}}) {
        // plain variables, not a structured binding: CAPTURE's lambda cannot capture one in clang's C++20
        bool const cell_order = variant.first;
        int const sort_every = variant.second;
        CAPTURE(cell_order);
        CAPTURE(sort_every);
        ParticleState other = kicked(cell_order, sort_every);
        ParticleView const b = other.view();
        bool same = true;
        for (size_type i = 0; i < a.size; ++i)
            same = same && std::memcmp(&a.px[i], &b.px[i], 8) == 0 &&
                   std::memcmp(&a.py[i], &b.py[i], 8) == 0 && std::memcmp(&a.pt[i], &b.pt[i], 8) == 0;
        CHECK(same);  // the deterministic deposition is exact in any order; each field is the same sum
    }
    CHECK(a.px[11] == 0.0);  // the lost particle was not kicked (beam_at starts at rest)

    // The fused kick against the field at each particle's position (probe_field) times the kick factor:
    // the same sums, so the same bits, for a particle well inside the grid.
    ParticleState fresh = beam_at(points, frame);
    ParticleView f = fresh.view();
    auto sc = make_cpu_space_charge();
    std::vector<FieldProbe> probes(1);
    probes[0] = FieldProbe{f.x[5], f.y[5], frame.rest_z() * f.t[5], 0, 0, 0};
    SpaceChargeSettings t = s;
    t.sort_every = 0;
    t.fixed_grid = sc->probe_field(f, t, frame, probes).grid;  // the kick on the probe's grid
    sc->kick(f, t, frame, ds);
    CHECK(f.px[5] == frame.transverse_kick(ds) * probes[0].ex);
    CHECK(f.pt[5] == frame.longitudinal_kick(ds) * probes[0].ez);
}
