// Host-callable GPU helpers for the core GPU tests (implemented in CoreKernels.cu).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace gt::gpu_test {

//! One normal and one uniform from stream (seed, i, step) per item, computed on the GPU.
std::vector<double> random_values(std::uint64_t seed, std::uint32_t step, std::size_t n);
//! f(i) = a transcendental-heavy expression of i, computed on the GPU by cuda::for_each.
std::vector<double> for_each_values(std::size_t n);
//! Sum, min and max of the same expression, reduced on the GPU.
std::array<double, 3> reduce_values(std::size_t n);

}  // namespace gt::gpu_test
