// The GPU core against the CPU core: random numbers, for_each and reductions, bit for bit.
#include <doctest/doctest.h>

#include <vector>

#include "kernels/cpu/Executor.hh"
#include "tests/gpu/CoreFunctors.hh"
#include "tests/gpu/CoreKernels.hh"

using namespace gt::gpu_test;

TEST_CASE("CPU and GPU give bit-identical random numbers")
{
    std::size_t const n = 1000003;
    auto const gpu = random_values(777, 5, n);
    std::vector<double> cpu(2 * n);
    gt::cpu::for_each(n, RandomFill{777, 5, cpu.data()});
    std::size_t differ = 0;
    for (std::size_t i = 0; i < 2 * n; ++i) differ += (gpu[i] != cpu[i]);
    CHECK(differ == 0);
}

TEST_CASE("CPU and GPU for_each give bit-identical results")
{
    std::size_t const n = 777777;
    auto const gpu = for_each_values(n);
    std::vector<double> cpu(n);
    gt::cpu::for_each(n, ExpressionFill{cpu.data()});
    std::size_t differ = 0;
    for (std::size_t i = 0; i < n; ++i) differ += (gpu[i] != cpu[i]);
    CHECK(differ == 0);
}

TEST_CASE("CPU and GPU reductions give bit-identical results")
{
    // The last size reuses the scratch grown for the one before it (ReduceScratch.cuh): stale partials
    // past its chunks must not leak in.
    for (std::size_t n : {std::size_t(1), std::size_t(2049), std::size_t(1234567), std::size_t(2049)}) {
        CAPTURE(n);
        auto const gpu = reduce_values(n);
        auto const f = [](std::size_t i, double* v) { v[0] = expression(i); };
        CHECK(gpu[0] == gt::cpu::reduce<1, gt::reduce::Sum>(n, f)[0]);
        CHECK(gpu[1] == gt::cpu::reduce<1, gt::reduce::Min>(n, f)[0]);
        CHECK(gpu[2] == gt::cpu::reduce<1, gt::reduce::Max>(n, f)[0]);
    }
}
