// Philox streams: fixed reference values, the right moments, and independence of the thread count.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "Relative.hh"
#include "kernels/core/RandomStream.hh"
#include "kernels/cpu/Executor.hh"

TEST_CASE("Philox4x32-10 known-answer test")
{
    // Known-answer vector of Random123 (kat_vectors: philox4x32_10, counter and key all zero).
    gt::RandomStream s(0, 0, 0);
    auto const w = s.block(0);
    CHECK(w.v[0] == 0x6627e8d5u);
    CHECK(w.v[1] == 0xe169c58du);
    CHECK(w.v[2] == 0xbc57ac4cu);
    CHECK(w.v[3] == 0x9b00dbd8u);
}

TEST_CASE("uniform variates are a fixed function of (seed, id, step, draw)")
{
    gt::RandomStream a(12345, 7, 3);
    gt::RandomStream b(12345, 7, 3);
    for (int i = 0; i < 100; ++i) CHECK(a.uniform() == b.uniform());
    gt::RandomStream other_id(12345, 8, 3);
    gt::RandomStream other_step(12345, 7, 4);
    gt::RandomStream first(12345, 7, 3);
    double const u = first.uniform();
    CHECK(u != other_id.uniform());
    CHECK(u != other_step.uniform());
    CHECK(u > 0.0);
    CHECK(u < 1.0);
}

TEST_CASE("uniform and normal moments")
{
    // 10^6 samples: the standard error of a mean is 1e-3 (normal) or 2.9e-4 (uniform);
    // tolerances are 5 standard errors so the test fails only on a real bias.
    int const n = 1000000;
    double su = 0, suu = 0, sn = 0, snn = 0, snnnn = 0;
    for (int i = 0; i < n; ++i) {
        gt::RandomStream s(99, static_cast<std::uint64_t>(i));
        double const u = s.uniform();
        double const g = s.normal();
        su += u;
        suu += u * u;
        sn += g;
        snn += g * g;
        snnnn += g * g * g * g;
    }
    CHECK(su / n == gt::test::relative(0.5, 0.0015));
    CHECK(suu / n - (su / n) * (su / n) == gt::test::relative(1.0 / 12, 0.005));
    CHECK(std::abs(sn / n) < 5e-3);
    CHECK(snn / n == gt::test::relative(1.0, 0.007));
    CHECK(snnnn / n == gt::test::relative(3.0, 0.02));  // kurtosis of a normal
}

TEST_CASE("streams are identical for 1 and N threads")
{
    std::size_t const n = 100003;  // not a multiple of anything
    auto fill = [&](int threads) {
        gt::cpu::set_thread_count(threads);
        std::vector<double> out(n);
        double* data = out.data();
        gt::cpu::for_each(n, [data](std::size_t i) {
            gt::RandomStream s(2024, i, 1);
            data[i] = s.normal() + s.uniform();
        });
        return out;
    };
    int const original = gt::cpu::thread_count();
    auto const one = fill(1);
    auto const many = fill(4);
    gt::cpu::set_thread_count(original);
    for (std::size_t i = 0; i < n; ++i) REQUIRE(one[i] == many[i]);
}
