// Longitudinal histograms: charge conservation, order and thread independence of the deterministic
// variant, agreement of the per-block variant, and the Savitzky-Golay filters.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "CollectiveTestSupport.hh"
#include "collective/LineSmoothing.hh"
#include "kernels/collective/CollectiveKernels.hh"
#include "kernels/cpu/Executor.hh"

using namespace gt;

namespace {

LineChannels three_channels(LineBunchShape const& b)
{
    LineChannels ch;
    ch.count = 3;
    ch.x_scale = std::exp2(std::ceil(std::log2(b.max_abs_x)));
    ch.y_scale = std::exp2(std::ceil(std::log2(b.max_abs_y)));
    return ch;
}

LineGrid grid_over(LineBunchShape const& b, int n)
{
    LineGrid g;
    g.n = n;
    g.h = (b.t_max - b.t_min) / double(n - 3);
    g.t0 = b.t_min - g.h;
    return g;
}

}  // namespace

TEST_CASE("line histograms conserve charge and the x, y sums; the deterministic one exactly")
{
    auto kernels = make_cpu_collective();
    ParticleState state = test::noisy_bunch(200000, 7);
    ParticleView v = state.view();
    LineBunchShape const b = kernels->shape(v);
    CHECK(b.alive == 180000);
    double sx = 0, sy = 0;
    for (size_type i = 0; i < v.size; ++i)
        if (v.alive(i)) sx += v.x[i], sy += v.y[i];
    for (int n : {1000, 4000}) {
        LineGrid const g = grid_over(b, n);
        LineChannels const ch = three_channels(b);
        for (auto method : {LineHistogramMethod::deterministic, LineHistogramMethod::per_block}) {
            CAPTURE(n);
            CAPTURE(int(method));
            auto const h = kernels->histogram(v, g, ch, method);
            REQUIRE(h.size() == 3u * std::size_t(n));
            double count = 0, x = 0, y = 0;
            for (int i = 0; i < n; ++i) count += h[i], x += h[n + i], y += h[2 * n + i];
            // Deterministic: every particle deposits exactly 2^32 units, so the sum is the count exactly.
            // Per block: 180000 double additions of weights <= 1, rounding ~1e-16 each.
            if (method == LineHistogramMethod::deterministic)
                CHECK(count == 180000.0);
            else
                CHECK(std::abs(count - 180000.0) < 1e-9);
            // x sums: each particle's w x / x_scale rounded to 2^-32 (deterministic), i.e. 2^-32 x_scale
            // per particle at most: 180000 * 2^-32 * 4e-3 m ~ 2e-7 m in the worst case, 1e-9 typical.
            CHECK(std::abs(x - sx) < 2e-7);
            CHECK(std::abs(y - sy) < 2e-7);
        }
    }
}

TEST_CASE("the deterministic histogram does not depend on particle order or thread count")
{
    auto kernels = make_cpu_collective();
    ParticleState state = test::noisy_bunch(100000, 11);
    ParticleView v = state.view();
    LineBunchShape const b = kernels->shape(v);
    LineGrid const g = grid_over(b, 1000);
    LineChannels const ch = three_channels(b);
    auto const reference = kernels->histogram(v, g, ch, LineHistogramMethod::deterministic);

    int const threads = cpu::thread_count();
    cpu::set_thread_count(1);
    auto const one_thread = kernels->histogram(v, g, ch, LineHistogramMethod::deterministic);
    cpu::set_thread_count(threads);
    CHECK(one_thread == reference);

    // Reverse the particles: another order of the integer additions, the same bits.
    ParticleState reversed(v.size, MemSpace::host);
    ParticleView r = reversed.view();
    for (size_type i = 0; i < v.size; ++i) {
        size_type const j = v.size - 1 - i;
        r.x[i] = v.x[j], r.y[i] = v.y[j], r.t[i] = v.t[j], r.px[i] = r.py[i] = r.pt[i] = 0;
        r.id[i] = v.id[j], r.lost_element[i] = v.lost_element[j], r.lost_turn[i] = v.lost_turn[j];
    }
    CHECK(kernels->histogram(r, g, ch, LineHistogramMethod::deterministic) == reference);

    // The per-block variant agrees to the fixed-point resolution (2^-32 per particle).
    auto const block = kernels->histogram(v, g, ch, LineHistogramMethod::per_block);
    double worst = 0;
    for (std::size_t k = 0; k < 1000; ++k) worst = std::max(worst, std::abs(block[k] - reference[k]));
    CHECK(worst < 1e-6);
}

TEST_CASE("a fixed-point node split in two 32-bit words sums exactly in any order (the GPU's shared nodes)")
{
    // The values a node receives: channel-0 weights in [0, 2^32] (2^32 itself when w = 1), and signed
    // x, y moments; a 64-bit add is the reference. Several orders, plain 32-bit fetch-and-add.
    std::vector<std::int64_t> values;
    std::uint64_t state = 12345;
    auto next = [&] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return state >> 1;
    };
    for (int i = 0; i < 20000; ++i) {
        auto const r = static_cast<std::int64_t>(next() % 4294967297ull);  // [0, 2^32]
        values.push_back(i % 3 == 0 ? r : i % 3 == 1 ? -r : static_cast<std::int64_t>(next() >> 20) - (std::int64_t(1) << 42));
    }
    values.push_back(std::int64_t(1) << 32);
    values.push_back(0);
    std::int64_t reference = 0;
    for (std::int64_t v : values) reference += v;
    auto const add = [](std::uint32_t* w, std::uint32_t v) {
        std::uint32_t const old = *w;
        *w = old + v;
        return old;
    };
    for (int order = 0; order < 3; ++order) {
        if (order == 1) std::reverse(values.begin(), values.end());
        if (order == 2) std::sort(values.begin(), values.end());
        std::uint32_t lo = 0, hi = 0;
        for (std::int64_t v : values) add_split(&lo, &hi, v, add);
        CHECK(joined(lo, hi) == reference);
    }
}

TEST_CASE("the histogram of a quiet Gaussian converges to the Gaussian line density with the bin count")
{
    // The CIC histogram of a smooth density is its node value times h, to O(h^2): the rms error
    // against N h phi(t)/sigma falls 4x per halving of h (h^2 rho''/12), here from h = 0.2 sigma to
    // 0.05 sigma, where the quiet sample's discreteness (~1 particle in N h rho ~ 2e4) is still
    // 10x below it; a factor 3 per halving is required.
    auto kernels = make_cpu_collective();
    double const sigma = 1e-3;
    ParticleState state = test::quiet_gaussian_bunch(1000000, sigma);
    ParticleView v = state.view();
    LineBunchShape const b = kernels->shape(v);
    std::vector<double> errors;
    for (int n : {50, 100, 200}) {
        LineGrid const g = grid_over(b, n);
        LineChannels ch;
        auto const h = kernels->histogram(v, g, ch, LineHistogramMethod::deterministic);
        double err = 0, peak = 0;
        for (int i = 0; i < n; ++i) {
            double const u = g.node_t(i) / sigma;
            double const expect = 1e6 * g.h / sigma * std::exp(-0.5 * u * u) / std::sqrt(constants::two_pi);
            err = std::max(err, std::abs(h[i] - expect));
            peak = std::max(peak, expect);
        }
        errors.push_back(err / peak);
    }
    CAPTURE(errors[0]);
    CAPTURE(errors[1]);
    CAPTURE(errors[2]);
    CHECK(errors[0] < 1e-2);
    CHECK(errors[1] < errors[0] / 3.0);
    CHECK(errors[2] < errors[1] / 3.0);
}

TEST_CASE("Savitzky-Golay filters keep quadratics (values) and cubics (slopes) and conserve the sum")
{
    std::vector<double> v(50);
    double const h = 0.1;
    for (std::size_t i = 0; i < v.size(); ++i) {
        double const t = double(i) * h;
        v[i] = 1.0 + 2.0 * t - 0.5 * t * t;
    }
    auto const s = savitzky_golay(v, 3);
    auto const d = savitzky_golay_slope(v, h, 3);
    for (std::size_t i = 3; i + 3 < v.size(); ++i) {
        double const t = double(i) * h;
        CHECK(s[i] == test::relative(v[i], 1e-13));
        CHECK(std::abs(d[i] - (2.0 - t)) < 1e-12);
    }
    // A bump that is zero near the edges: the smoothed sum equals the sum (the coefficients sum to 1).
    std::vector<double> bump(80, 0.0);
    for (std::size_t i = 20; i < 60; ++i) bump[i] = std::sin(constants::pi * double(i - 20) / 40.0);
    auto const sb = savitzky_golay(bump, 4);
    CHECK(std::accumulate(sb.begin(), sb.end(), 0.0) ==
          test::relative(std::accumulate(bump.begin(), bump.end(), 0.0), 1e-13));
}
