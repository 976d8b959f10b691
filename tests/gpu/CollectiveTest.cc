// The GPU collective backend against the CPU one: deterministic histograms bit for bit, the
// per-block variant to double rounding, whole collective kicks (wakes, LSC, CSR) bit for bit with the
// host's FFTW, and cuFFT's convolutions and kicks within FFT round-off of FFTW's.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

#include "collective/CollectiveSolver.hh"
#include "tests/CollectiveTestSupport.hh"

using namespace gt;

namespace {

//! The bunch frame of the kick tests: 150 MeV electrons, 1 nC in 5e5 macroparticles.
BeamFrame kick_frame()
{
    return test::collective_frame(constants::electron_mass_mev, -1, 150.0, 1e-9, 500000.0);
}

//! The kick tests' resonator wakes (Q = 3): longitudinal at 1.3 GHz, transverse at 2.5 GHz.
WakeFunction longitudinal_wake() { return resonator_wake(WakePlane::longitudinal, 1e4, 3.0, 1.3e9); }
WakeFunction transverse_wake() { return resonator_wake(WakePlane::transverse, 1e6, 3.0, 2.5e9); }

}  // namespace

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

TEST_CASE("the deterministic GPU histogram is the CPU's for any particle count, and beyond shared memory")
{
    // Batches of 4 particles per thread with a partial last batch (1, 7, 2049, 100003 particles), and
    // 20000 bins x 3 channels (480 kB of split words: more than a block's shared memory, the global
    // atomic fallback).
    for (size_type count : {size_type(1), size_type(7), size_type(2049), size_type(100003)})
        for (int n : {1000, 20000}) {
            CAPTURE(count);
            CAPTURE(n);
            ParticleState host = test::noisy_bunch(count, 13);
            ParticleState device(host, MemSpace::device);
            auto cpu = make_cpu_collective();
            auto gpu = make_cuda_collective();
            LineBunchShape const b = cpu->shape(host.view());
            if (!(b.t_max > b.t_min)) continue;  // one particle: no extent
            LineGrid g;
            g.n = n;
            g.h = (b.t_max - b.t_min) / double(n - 3);
            g.t0 = b.t_min - g.h;
            LineChannels ch;
            ch.count = 3;
            ch.x_scale = std::exp2(std::ceil(std::log2(b.max_abs_x)));
            ch.y_scale = std::exp2(std::ceil(std::log2(b.max_abs_y)));
            auto const c = cpu->histogram(host.view(), g, ch, LineHistogramMethod::deterministic);
            CHECK(gpu->histogram(device.view(), g, ch, LineHistogramMethod::deterministic) == c);
            // Twice: the global nodes are zeroed after each call.
            CHECK(gpu->histogram(device.view(), g, ch, LineHistogramMethod::deterministic) == c);
        }
}

TEST_CASE("a collective kick (wakes, LSC, CSR) on the GPU equals the CPU's bit for bit")
{
    // Same histogram bits and the same host convolutions give the same per-node tables; the kick is
    // the same functor (no FMA contraction on either side).
    ParticleState host = test::noisy_bunch(500000, 9);
    ParticleState device(host, MemSpace::device);
    BeamFrame const frame = kick_frame();
    WakeFunction const wl = longitudinal_wake();
    WakeFunction const wt = transverse_wake();
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
    BeamFrame const frame = kick_frame();
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

namespace {

double max_abs(std::vector<double> const& v)
{
    double m = 0;
    for (double x : v) m = std::max(m, std::abs(x));
    return m;
}

//! max |a - b| / max |a|.
double relative_to_max(std::vector<double> const& a, std::vector<double> const& b)
{
    REQUIRE(a.size() == b.size());
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
    return worst / max_abs(a);
}

}  // namespace

// cuFFT and FFTW order their butterflies differently: each transform of M = 2n points is within about
// eps log2(M) = 2.2e-16 * 13 = 2.9e-15 of the largest value (docs/validation.md, "Default tolerances");
// a convolution is three transforms and a product. 1e-12 of the maximum leaves a margin of ~30 over
// that, while a wrong normalization, layout or padding is off by O(1).
TEST_CASE("cuFFT convolutions and filters equal FFTW's to 1e-12 of the maximum")
{
    for (int n : {1000, 4000, 999}) {
        CAPTURE(n);
        std::vector<double> source(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i) {
            double const u = (double(i) - 0.5 * double(n)) / (0.12 * double(n));
            source[std::size_t(i)] = std::exp(-0.5 * u * u) * (1.0 + 0.05 * std::sin(0.7 * double(i)));
        }
        double const hs = 1e-5;
        auto const csr = line_kernel([](double u) { return u > 0 ? 1.0 / std::cbrt(u) : 0.0; }, hs, n, false);
        WakeFunction const wake = longitudinal_wake();
        auto const wk = line_kernel(wake.w, hs, n, true);
        LineConvolver fftw, cufft(make_cufft_line_fft());
        CHECK(cufft.fft().name() == "cuFFT");
        for (auto const* kernel : {&csr, &wk}) {
            auto const a = fftw.convolve(*kernel, source);
            auto const b = cufft.convolve(*kernel, source);
            double const rel = relative_to_max(a, b);
            MESSAGE("n ", n, ": cuFFT vs FFTW convolution, max difference / max ", rel);
            CHECK(rel < 1e-12);
            // And against the direct O(n^2) sum, to the 1e-10 (the sum's own rounding grows with n).
            CHECK(relative_to_max(test::direct_convolution(*kernel, source), b) < 1e-10);
        }
        // Imaginary like the LSC impedance, zero at m = 0 and at the Nyquist harmonic m = n (as the LSC
        // low-pass is), where a real transform's c2r would have to drop an imaginary part.
        auto const response = [&](int m) {
            return std::complex<double>(0.0, m < n ? double(m) / (1.0 + 1e-3 * double(m) * double(m)) : 0.0);
        };
        double const rel = relative_to_max(fftw.filter(source, response), cufft.filter(source, response));
        MESSAGE("n ", n, ": cuFFT vs FFTW filter, max difference / max ", rel);
        CHECK(rel < 1e-12);
    }
}

TEST_CASE("a collective kick with cuFFT on the GPU is within 1e-12 of the CPU's (FFTW) kick")
{
    // The same histogram bits (deterministic variant) and the same host arithmetic except the
    // transforms: the per-node tables differ by the FFT round-off (above), and each particle's kick,
    // an interpolation of two nodes with weights <= 1, by at most that times the table's maximum.
    ParticleState host = test::noisy_bunch(500000, 9);
    ParticleState device(host, MemSpace::device);
    BeamFrame const frame = kick_frame();
    WakeFunction const wl = longitudinal_wake();
    WakeFunction const wt = transverse_wake();
    for (int kind = 0; kind < 2; ++kind) {
        CAPTURE(kind);
        CollectiveKickSpec spec;
        if (kind == 0) {
            spec.csr_radius = 10.0;  // steady-state CSR and LSC
            spec.lsc = true;
        } else {
            spec.wakes = {&wl, &wt};  // longitudinal and transverse wakes
        }
        spec.ds = 0.1;
        CollectiveSettings settings;
        auto cpu = make_cpu_collective();
        auto gpu = make_cuda_collective();
        ParticleState h(host, MemSpace::host), d(device, MemSpace::device);
        CollectiveSolver cs(*cpu), gs(*gpu, true);
        CollectiveDiagnostics const dc = cs.kick(h.view(), settings, frame, spec);
        CollectiveDiagnostics const dg = gs.kick(d.view(), settings, frame, spec);
        double const table_rel = relative_to_max(cs.last_dpt(), gs.last_dpt());
        MESSAGE("kick ", kind, ": dpt tables, max difference / max ", table_rel);
        CHECK(table_rel < 1e-12);
        if (kind == 1) CHECK(relative_to_max(cs.last_dpx(), gs.last_dpx()) < 1e-12);
        CHECK(dc.energy_change != 0.0);
        CHECK(dg.energy_change != 0.0);
        ParticleState back(d, MemSpace::host);
        ParticleView a = h.view(), b = back.view(), s = host.view();
        double worst = 0, pt_max = 0;
        for (size_type i = 0; i < a.size; ++i) {
            worst = std::max(worst, std::abs(a.pt[i] - b.pt[i]));
            pt_max = std::max(pt_max, std::abs(a.pt[i]));
        }
        // Plus one rounding of pt + kick (two different kicks may round the sum apart by an ulp).
        double const bound = 1e-12 * max_abs(cs.last_dpt()) + 2.3e-16 * pt_max;
        MESSAGE("kick ", kind, ": largest pt difference ", worst, ", bound ", bound);
        CHECK(worst <= bound);
        CHECK(a.pt[0] != s.pt[0]);  // the kick did something
    }
}
