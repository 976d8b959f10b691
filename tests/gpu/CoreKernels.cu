// GPU side of the core tests: runs the shared functors with the CUDA executor.
#include "tests/gpu/CoreFunctors.hh"
#include "tests/gpu/CoreKernels.hh"

#include "kernels/core/Buffer.hh"
#include "kernels/cuda/Executor.cuh"

namespace gt::gpu_test {

std::vector<double> random_values(std::uint64_t seed, std::uint32_t step, std::size_t n)
{
    Buffer<double> d(2 * n, MemSpace::device);
    cuda::for_each(n, RandomFill{seed, step, d.data()});
    Buffer<double> h(2 * n, MemSpace::host);
    h.copy_from(d);
    return std::vector<double>(h.data(), h.data() + 2 * n);
}

std::vector<double> for_each_values(std::size_t n)
{
    Buffer<double> d(n, MemSpace::device);
    cuda::for_each(n, ExpressionFill{d.data()});
    Buffer<double> h(n, MemSpace::host);
    h.copy_from(d);
    return std::vector<double>(h.data(), h.data() + n);
}

std::array<double, 3> reduce_values(std::size_t n)
{
    auto const f = [] __device__(std::size_t i, double* v) { v[0] = expression(i); };
    auto const sum = cuda::reduce<1, reduce::Sum>(n, f);
    auto const lo = cuda::reduce<1, reduce::Min>(n, f);
    auto const hi = cuda::reduce<1, reduce::Max>(n, f);
    return {sum[0], lo[0], hi[0]};
}

}  // namespace gt::gpu_test
