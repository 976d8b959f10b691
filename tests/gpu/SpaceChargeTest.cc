// The GPU space-charge solver against the CPU one: the deterministic deposition bit for bit, the
// kicks per particle within a stated tolerance, for every shape and deposition variant.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "tests/Relative.hh"
#include "tests/SpaceChargeTestSupport.hh"

using namespace gt;
using namespace gt::test;

namespace {

struct Run {
    SpaceChargeDiagnostics diag;
    std::vector<double> grid;
    ParticleState state{0, MemSpace::host};
};

Run run(SpaceChargeKernels& sc, std::vector<Point3> const& points, SpaceChargeSettings const& s,
        BeamFrame const& frame, int kicks)
{
    ParticleState host = beam_at(points, frame);
    ParticleState state(host, sc.memory());
    Run r;
    for (int k = 0; k < kicks; ++k) r.diag = sc.kick(state.view(), s, frame, 0.1);
    r.grid = sc.charge_grid();
    r.state = ParticleState(state, MemSpace::host);
    return r;
}

}  // namespace

TEST_CASE("deterministic deposition: the GPU charge grid is bit-identical to the CPU's")
{
    auto const points = lumpy_bunch(1000000, 31);
    BeamFrame const frame = proton_frame(50.0, 1e-15);
    for (auto shape : {ParticleShape::cic, ParticleShape::tsc})
        for (int sort_every : {0, 1}) {
            CAPTURE(int(shape));
            CAPTURE(sort_every);
            SpaceChargeSettings s;
            s.grid = {64, 64, 64};
            s.shape = shape;
            s.deposition = DepositionMethod::deterministic;
            s.sort_every = sort_every;
            auto cpu = make_cpu_space_charge();
            auto gpu = make_cuda_space_charge();
            Run c = run(*cpu, points, s, frame, 1);
            Run g = run(*gpu, points, s, frame, 1);
            CHECK(g.diag.grid.hx == c.diag.grid.hx);
            CHECK(g.diag.grid.z0 == c.diag.grid.z0);
            CHECK(g.diag.inside == c.diag.inside);
            REQUIRE(g.grid.size() == c.grid.size());
            size_type differ = 0;
            for (size_type i = 0; i < c.grid.size(); ++i) differ += (g.grid[i] != c.grid[i]);
            CHECK(differ == 0);
            CHECK(g.diag.deposited_charge == c.diag.deposited_charge);  // same bits, same summation tree
            // Sorting is stable on both sides: the same particle order.
            ParticleView const cv = c.state.view(), gv = g.state.view();
            size_type order_differs = 0;
            for (size_type i = 0; i < points.size(); ++i) order_differs += (cv.id[i] != gv.id[i]);
            CHECK(order_differs == 0);
        }
}

TEST_CASE("the full kick per particle: GPU against CPU, every variant and shape")
{
    // The grids agree bit for bit (deterministic) or to ~1e-16 (double atomics, summed in another
    // order); cuFFT and FFTW round differently at ~1e-16 of the largest potential. The kicks then
    // agree to better than 1e-10 of the largest kick (three kicks, so the differences propagate once
    // through positions that are not changed by a kick: they only move with the particle's momenta).
    auto const points = lumpy_bunch(300000, 32);
    BeamFrame const frame = proton_frame(50.0, 1e-15);
    for (auto shape : {ParticleShape::cic, ParticleShape::tsc})
        for (auto method :
             {DepositionMethod::atomic, DepositionMethod::aggregated, DepositionMethod::deterministic}) {
            CAPTURE(int(shape));
            CAPTURE(int(method));
            SpaceChargeSettings s;
            s.grid = {48, 40, 64};
            s.shape = shape;
            s.deposition = method;
            s.sort_every = 2;
            auto cpu = make_cpu_space_charge();
            auto gpu = make_cuda_space_charge();
            Run c = run(*cpu, points, s, frame, 3);
            Run g = run(*gpu, points, s, frame, 3);
            ParticleView cv = c.state.view(), gv = g.state.view();
            double largest = 0.0, worst = 0.0;
            size_type order_differs = 0;
            for (size_type i = 0; i < points.size(); ++i) {
                order_differs += (cv.id[i] != gv.id[i]);
                for (auto [a, b] :
                     {std::pair{cv.px[i], gv.px[i]}, {cv.py[i], gv.py[i]}, {cv.pt[i], gv.pt[i]}}) {
                    largest = std::max(largest, std::abs(a));
                    worst = std::max(worst, std::abs(a - b));
                }
            }
            CHECK(order_differs == 0);
            CHECK(largest > 0.0);
            CHECK(worst <= 1e-10 * largest);
            CHECK(g.diag.field_energy == test::relative(c.diag.field_energy, 1e-12));
        }
}

TEST_CASE("the 2.5D solver: GPU kicks against the CPU's")
{
    // As above: the same grid (deterministic), the 2D transforms round differently at ~1e-16.
    auto const points = lumpy_bunch(300000, 33);
    BeamFrame const frame = proton_frame(50.0, 1e-15);
    for (auto shape : {ParticleShape::cic, ParticleShape::tsc}) {
        CAPTURE(int(shape));
        SpaceChargeSettings s;
        s.model = SpaceChargeModel::two_and_half_d;
        s.grid = {64, 48, 32};
        s.shape = shape;
        auto cpu = make_cpu_space_charge();
        auto gpu = make_cuda_space_charge();
        Run c = run(*cpu, points, s, frame, 2);
        Run g = run(*gpu, points, s, frame, 2);
        ParticleView cv = c.state.view(), gv = g.state.view();
        double largest = 0.0, worst = 0.0;
        for (size_type i = 0; i < points.size(); ++i)
            for (auto [a, b] : {std::pair{cv.px[i], gv.px[i]}, {cv.py[i], gv.py[i]}}) {
                largest = std::max(largest, std::abs(a));
                worst = std::max(worst, std::abs(a - b));
            }
        CHECK(largest > 0.0);
        CHECK(worst <= 1e-10 * largest);
        bool no_pt = true;
        for (size_type i = 0; i < points.size(); ++i) no_pt = no_pt && gv.pt[i] == 0.0;
        CHECK(no_pt);  // transverse kicks only
    }
}

TEST_CASE("aggregated deposition of unsorted particles: every run of equal cells in a warp counted once")
{
    // Between two sorts particles drift out of order: a warp then holds equal cells that are not
    // adjacent. A coarse fixed grid (5^3 nodes) and random particle order make that the rule, not the
    // exception. probe_field deposits without sorting; sort_every > 0 selects the aggregated kernels.
    auto const points = lumpy_bunch(200000, 34);
    BeamFrame const frame = proton_frame(50.0, 1e-15);
    for (auto method : {DepositionMethod::deterministic, DepositionMethod::aggregated})
        for (auto shape : {ParticleShape::cic, ParticleShape::tsc}) {
            CAPTURE(int(method));
            CAPTURE(int(shape));
            SpaceChargeSettings s;
            s.deposition = method;
            s.shape = shape;
            s.sort_every = 4;
            s.fixed_grid = GridGeometry{5, 5, 5, -3e-3, -3e-3, -6e-3, 1.5e-3, 1.5e-3, 3e-3};
            std::vector<FieldProbe> none;
            auto cpu = make_cpu_space_charge();
            auto gpu = make_cuda_space_charge();
            ParticleState host = beam_at(points, frame);
            ParticleState device(host, MemSpace::device);
            auto const dc = cpu->probe_field(host.view(), s, frame, none);
            auto const dg = gpu->probe_field(device.view(), s, frame, none);
            CHECK(dg.inside == dc.inside);
            CHECK(dg.deposited_charge == test::relative(dg.inside_charge, 1e-12));
            auto const c = cpu->charge_grid();
            auto const g = gpu->charge_grid();
            double worst = 0, peak = 0;
            for (size_type i = 0; i < c.size(); ++i) {
                worst = std::max(worst, std::abs(c[i] - g[i]));
                peak = std::max(peak, std::abs(c[i]));
            }
            if (method == DepositionMethod::deterministic)
                CHECK(worst == 0.0);
            else
                CHECK(worst <= 1e-12 * peak);
        }
}
