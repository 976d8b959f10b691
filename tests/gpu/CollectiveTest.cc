// The GPU collective backend against the CPU one: deterministic histograms bit for bit, the
// per-block variant to double rounding, and whole collective kicks (wakes, LSC, CSR) bit for bit.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "collective/CollectiveSolver.hh"
#include "tests/CollectiveTestSupport.hh"

using namespace gt;

TEST_CASE("the deterministic line histogram is bit-identical on the GPU, for 1 and 3 channels")
{
    ParticleState host = test::noisy_bunch(1000000, 5);
    ParticleState device(host, MemSpace::device);
    auto cpu = make_cpu_collective();
    auto gpu = make_cuda_collective();
    LineBunchShape const b = cpu->shape(host.view());
    LineBunchShape const bg = gpu->shape(device.view());
    CHECK(bg.t_min == b.t_min);
    CHECK(bg.t_max == b.t_max);
    CHECK(bg.sigma_x == b.sigma_x);  // the shared reduction tree
    for (int n : {1000, 4000})
        for (int channels : {1, 3}) {
            CAPTURE(n);
            CAPTURE(channels);
            LineGrid g;
            g.n = n;
            g.h = (b.t_max - b.t_min) / double(n - 3);
            g.t0 = b.t_min - g.h;
            LineChannels ch;
            ch.count = channels;
            ch.x_scale = std::exp2(std::ceil(std::log2(b.max_abs_x)));
            ch.y_scale = std::exp2(std::ceil(std::log2(b.max_abs_y)));
            auto const c = cpu->histogram(host.view(), g, ch, LineHistogramMethod::deterministic);
            auto const d = gpu->histogram(device.view(), g, ch, LineHistogramMethod::deterministic);
            CHECK(c == d);
            // Per block: doubles summed in another order; the counts agree to rounding (1e6 additions).
            auto const pb = gpu->histogram(device.view(), g, ch, LineHistogramMethod::per_block);
            double worst = 0;
            for (int k = 0; k < n; ++k) worst = std::max(worst, std::abs(pb[std::size_t(k)] - c[std::size_t(k)]));
            MESSAGE("per-block histogram, ", n, " bins, ", channels, " channels: largest count difference ", worst);
            CHECK(worst < 1e-6);
        }
}

TEST_CASE("a collective kick (wakes, LSC, CSR) on the GPU equals the CPU's bit for bit")
{
    // Same histogram bits and the same host convolutions give the same per-node tables; the kick is
    // the same functor (no FMA contraction on either side).
    ParticleState host = test::noisy_bunch(500000, 9);
    ParticleState device(host, MemSpace::device);
    BeamFrame const frame = test::collective_frame(constants::electron_mass_mev, -1, 150.0, 1e-9, 500000.0);
    WakeFunction const wl = resonator_wake(WakePlane::longitudinal, 1e4, 3.0, 1.3e9);
    WakeFunction const wt = resonator_wake(WakePlane::transverse, 1e6, 3.0, 2.5e9);
    CollectiveKickSpec spec;
    spec.wakes = {&wl, &wt};
    spec.lsc = true;
    spec.csr_radius = 10.0;
    spec.ds = 0.1;
    CollectiveSettings settings;
    auto cpu = make_cpu_collective();
    auto gpu = make_cuda_collective();
    CollectiveSolver cs(*cpu), gs(*gpu);
    CollectiveDiagnostics const dc = cs.kick(host.view(), settings, frame, spec);
    CollectiveDiagnostics const dg = gs.kick(device.view(), settings, frame, spec);
    CHECK(dg.energy_change == dc.energy_change);
    ParticleState back(device, MemSpace::host);
    ParticleView a = host.view(), b = back.view();
    std::size_t differing = 0;
    double worst = 0, scale = 0;
    for (size_type i = 0; i < a.size; ++i) {
        for (auto [u, v] : {std::pair{a.pt[i], b.pt[i]}, {a.px[i], b.px[i]}, {a.py[i], b.py[i]}}) {
            differing += u != v ? 1 : 0;
            worst = std::max(worst, std::abs(u - v));
            scale = std::max(scale, std::abs(u));
        }
    }
    MESSAGE("collective kick: ", differing, " of ", 3 * a.size, " momenta differ, largest difference ", worst,
            " of ", scale);
    CHECK(differing == 0);
    std::printf("timing, CPU: histogram %.4f convolve %.4f kick %.4f s; GPU: %.4f %.4f %.4f s\n", dc.t_histogram,
                dc.t_convolve, dc.t_kick, dg.t_histogram, dg.t_convolve, dg.t_kick);
}

TEST_CASE("CSR entrance transient and drift wake kicks on the GPU equal the CPU's bit for bit")
{
    // The transients run on the host from the same histogram bits (CsrTransient.hh): only the
    // histogram and the kick are on the backend, so every momentum must agree bit for bit.
    ParticleState const start = test::noisy_bunch(500000, 11);
    BeamFrame const frame = test::collective_frame(constants::electron_mass_mev, -1, 150.0, 1e-9, 500000.0);
    CollectiveSettings settings;
    for (double exit : {-1.0, 0.0, 0.5}) {
        CAPTURE(exit);
        ParticleState host(start, MemSpace::host);
        ParticleState device(start, MemSpace::device);
        CollectiveKickSpec spec;
        spec.csr_radius = 10.0;
        spec.csr_angle = exit < 0 ? 0.05 : 0.2;  // inside: 0.05 rad from the entrance; after: a 0.2 rad bend
        spec.csr_exit_distance = exit;
        spec.lsc = exit >= 0;
        spec.ds = 0.1;
        auto cpu = make_cpu_collective();
        auto gpu = make_cuda_collective();
        CollectiveSolver cs(*cpu), gs(*gpu);
        CollectiveDiagnostics const dc = cs.kick(host.view(), settings, frame, spec);
        CollectiveDiagnostics const dg = gs.kick(device.view(), settings, frame, spec);
        CHECK(dc.energy_change != 0.0);
        CHECK(dg.energy_change == dc.energy_change);
        ParticleState back(device, MemSpace::host);
        ParticleView a = host.view(), b = back.view();
        std::size_t differing = 0;
        for (size_type i = 0; i < a.size; ++i) differing += a.pt[i] != b.pt[i] ? 1 : 0;
        CHECK(differing == 0);
    }
}
