// The CPU executor against serial loops, on sizes that are multiples of nothing.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/cpu/Executor.hh"

namespace {
double value(std::size_t i) { return std::sin(0.37 * static_cast<double>(i)) * (1.0 + 1e-3 * static_cast<double>(i % 97)); }
}  // namespace

TEST_CASE("for_each visits every item exactly once")
{
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(127), std::size_t(2049), std::size_t(1000003)}) {
        std::vector<int> hits(n, 0);
        int* h = hits.data();
        gt::cpu::for_each(n, [h](std::size_t i) { h[i] += 1; });
        CHECK(std::all_of(hits.begin(), hits.end(), [](int c) { return c == 1; }));
    }
}

TEST_CASE("sum, min and max reductions against a serial loop")
{
    for (std::size_t n : {std::size_t(1), std::size_t(129), std::size_t(2047), std::size_t(2049), std::size_t(777777)}) {
        CAPTURE(n);
        auto const sums = gt::cpu::reduce<2, gt::reduce::Sum>(n, [](std::size_t i, double* v) {
            v[0] = value(i);
            v[1] = 1.0;
        });
        auto const mins = gt::cpu::reduce<1, gt::reduce::Min>(n, [](std::size_t i, double* v) { v[0] = value(i); });
        auto const maxs = gt::cpu::reduce<1, gt::reduce::Max>(n, [](std::size_t i, double* v) { v[0] = value(i); });
        double serial = 0, lo = INFINITY, hi = -INFINITY;
        for (std::size_t i = 0; i < n; ++i) {
            serial += value(i);
            lo = std::min(lo, value(i));
            hi = std::max(hi, value(i));
        }
        // Different summation orders: the difference is bounded by n eps sum|v| (here |v| <= 1.1).
        CHECK(std::abs(sums[0] - serial) <= 1.1 * static_cast<double>(n) * 2.3e-16);
        CHECK(sums[1] == static_cast<double>(n));
        CHECK(mins[0] == lo);
        CHECK(maxs[0] == hi);
    }
}

TEST_CASE("the reduction gives the same bits for any thread count")
{
    std::size_t const n = 500001;
    auto run = [&](int threads) {
        gt::cpu::set_thread_count(threads);
        return gt::cpu::reduce<1, gt::reduce::Sum>(n, [](std::size_t i, double* v) { v[0] = value(i); })[0];
    };
    int const original = gt::cpu::thread_count();
    double const one = run(1);
    double const three = run(3);
    gt::cpu::set_thread_count(original);
    CHECK(one == three);
}

TEST_CASE("an empty reduction gives the identity")
{
    auto const s = gt::cpu::reduce<1, gt::reduce::Sum>(0, [](std::size_t, double* v) { v[0] = 1.0; });
    CHECK(s[0] == 0.0);
}
