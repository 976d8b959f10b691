// Functors used identically by the CPU and GPU sides of the core tests.
#pragma once

#include <cstdint>

#include "kernels/core/PortableMath.hh"
#include "kernels/core/RandomStream.hh"

namespace gt::gpu_test {

struct RandomFill {
    std::uint64_t seed;
    std::uint32_t step;
    double* out;
    GT_HOST_DEVICE void operator()(std::size_t i) const
    {
        RandomStream s(seed, i, step);
        out[2 * i] = s.normal();
        out[2 * i + 1] = s.uniform();
    }
};

GT_HOST_DEVICE inline double expression(std::size_t i)
{
    double const x = 1e-3 * static_cast<double>(i) + 0.5;
    return pmath::sin(x) * pmath::exp(-1e-4 * x) + pmath::log(x) / (1.0 + x * x);
}

struct ExpressionFill {
    double* out;
    GT_HOST_DEVICE void operator()(std::size_t i) const { out[i] = expression(i); }
};

}  // namespace gt::gpu_test
