// The one-pass beam moments (moments::Merge) against a two-pass long-double reference, on a beam whose
// centroid is far from zero compared with its size, with lost particles; and independent of threads.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels/beam/BeamKernels.hh"
#include "kernels/cpu/Executor.hh"

using namespace gt;

namespace {

//! A deterministic, correlated beam: centroid 1e4 sigma off zero in every coordinate, every 7th
//! particle lost.
void fill(ParticleView v)
{
    for (size_type i = 0; i < v.size; ++i) {
        double const a = std::sin(0.731 * double(i)), b = std::cos(1.37 * double(i) + 0.2);
        double const c = std::sin(2.13 * double(i) + 1.0);
        double* z[6] = {v.x, v.px, v.y, v.py, v.t, v.pt};
        for (int k = 0; k < 6; ++k)
            z[k][i] = 1e-2 * (k + 1) + 1e-6 * (a + 0.3 * (k % 2 ? b : c) + 0.01 * k * a * b);
        v.id[i] = i;
        v.lost_element[i] = i % 7 == 3 ? 5 : -1;
        v.lost_turn[i] = i % 7 == 3 ? 0 : -1;
    }
}

}  // namespace

TEST_CASE("one-pass moments equal a two-pass long-double reference without cancellation")
{
    for (size_type n : {size_type(1), size_type(5), size_type(2049), size_type(100003)}) {
        CAPTURE(n);
        ParticleState state(n, MemSpace::host);
        ParticleView v = state.view();
        fill(v);
        BeamMoments const m = make_cpu_beam_kernels()->moments(v);

        // Reference: mean first, then moments about it, in long double (64-bit mantissa here).
        long double count = 0, mean[6] = {}, cov[6][6] = {};
        double amax[4] = {};
        double* z[6] = {v.x, v.px, v.y, v.py, v.t, v.pt};
        for (size_type i = 0; i < n; ++i) {
            if (!v.alive(i)) continue;
            count += 1;
            for (int a = 0; a < 6; ++a) mean[a] += z[a][i];
            int const planes[4] = {0, 2, 4, 5};
            for (int j = 0; j < 4; ++j) amax[j] = std::fmax(amax[j], std::fabs(z[planes[j]][i]));
        }
        for (auto& x : mean) x /= count;
        for (size_type i = 0; i < n; ++i) {
            if (!v.alive(i)) continue;
            for (int a = 0; a < 6; ++a)
                for (int b = 0; b < 6; ++b) cov[a][b] += (z[a][i] - mean[a]) * (z[b][i] - mean[b]);
        }
        CHECK(m.alive == double(count));
        for (int a = 0; a < 6; ++a) {
            // Half an ulp of |mean| per merge, < 40 merges on a path through the tree.
            CHECK(std::fabs(m.mean[a] - double(mean[a])) <= 20 * 1.1e-16 * std::fabs(double(mean[a])));
            for (int b = 0; b < 6; ++b) {
                double const ref = double(cov[a][b] / count);
                double const sa = std::sqrt(double(cov[a][a] / count)), sb = std::sqrt(double(cov[b][b] / count));
                // Each merge rounds the running mean by up to half an ulp of |mean|, which a deviation
                // then carries relative to the rms: eps |mean| / rms per merge, entering the moment
                // linearly; a path through the tree has < 40 merges, whose roundings add like a
                // random walk, so 10 eps (|mean_a| / s_a + |mean_b| / s_b) bounds it (measured here:
                // 2e-13 of s_a s_b at |mean| / s ~ 1e4). A single pass of <z^2> - <z>^2 would lose
                // eps (|mean| / s)^2 ~ 1e-8 of s_a s_b here.
                double const bound = 10 * 1.1e-16 * (std::fabs(m.mean[a]) * sb + std::fabs(m.mean[b]) * sa);
                CHECK(std::fabs(m.cov[a][b] - ref) <= bound + 1e-15 * sa * sb);
            }
        }
        for (int j = 0; j < 4; ++j) CHECK(m.max_abs[j] == amax[j]);
    }
}

TEST_CASE("one-pass moments are the same bits for any thread count")
{
    size_type const n = 300001;
    ParticleState state(n, MemSpace::host);
    fill(state.view());
    int const threads = cpu::thread_count();
    cpu::set_thread_count(1);
    BeamMoments const one = make_cpu_beam_kernels()->moments(state.view());
    cpu::set_thread_count(threads);
    BeamMoments const all = make_cpu_beam_kernels()->moments(state.view());
    CHECK(one.alive == all.alive);
    for (int a = 0; a < 6; ++a) {
        CHECK(one.mean[a] == all.mean[a]);
        for (int b = 0; b < 6; ++b) CHECK(one.cov[a][b] == all.cov[a][b]);
    }
}

TEST_CASE("no live particle: zero moments")
{
    ParticleState state(300, MemSpace::host);
    ParticleView v = state.view();
    fill(v);
    for (size_type i = 0; i < v.size; ++i) v.lost_element[i] = 1;
    BeamMoments const m = make_cpu_beam_kernels()->moments(v);
    CHECK(m.alive == 0.0);
    CHECK(m.mean[0] == 0.0);
    CHECK(m.cov[0][0] == 0.0);
    CHECK(m.max_abs[0] == 0.0);
}
