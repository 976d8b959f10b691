// Measures the GPU's memory-bandwidth ceiling in the same run as the benchmarks that are compared
// with it: a large device-to-device copy and a read-modify-write of double arrays, timed with events.
#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include <cuda_runtime.h>

#include "kernels/cuda/Check.cuh"

namespace {

__global__ void scale_add(double* a, double const* b, std::size_t n)
{
    std::size_t const i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 1.000001 * a[i] + b[i];
}

//! Median of `reps` timed launches of f, in seconds.
template <class F>
double median_seconds(F&& f, int reps)
{
    cudaEvent_t start, stop;
    GT_CUDA_CHECK(cudaEventCreate(&start));
    GT_CUDA_CHECK(cudaEventCreate(&stop));
    f();  // warm-up
    GT_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> ms(static_cast<std::size_t>(reps));
    for (auto& t : ms) {
        GT_CUDA_CHECK(cudaEventRecord(start));
        f();
        GT_CUDA_CHECK(cudaEventRecord(stop));
        GT_CUDA_CHECK(cudaEventSynchronize(stop));
        GT_CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
    }
    GT_CUDA_CHECK(cudaEventDestroy(start));
    GT_CUDA_CHECK(cudaEventDestroy(stop));
    std::sort(ms.begin(), ms.end());
    return 1e-3 * double(ms[ms.size() / 2]);
}

}  // namespace

int main()
{
    try {
        std::size_t const n = std::size_t(1) << 29;  // 4 GiB of doubles per array
        double *a = nullptr, *b = nullptr;
        GT_CUDA_CHECK(cudaMalloc(&a, n * sizeof(double)));
        GT_CUDA_CHECK(cudaMalloc(&b, n * sizeof(double)));
        GT_CUDA_CHECK(cudaMemset(a, 0, n * sizeof(double)));
        GT_CUDA_CHECK(cudaMemset(b, 0, n * sizeof(double)));
        double const bytes = 2.0 * double(n) * sizeof(double);
        double const copy = median_seconds(
            [&] { GT_CUDA_CHECK(cudaMemcpy(a, b, n * sizeof(double), cudaMemcpyDeviceToDevice)); }, 10);
        double const rmw = median_seconds(
            [&] {
                scale_add<<<unsigned((n + 255) / 256), 256>>>(a, b, n);
                GT_CUDA_CHECK(cudaGetLastError());
            },
            10);
        // The copy reads and writes n doubles; scale_add reads two arrays and writes one.
        std::printf("copy_bandwidth %.6g B/s\n", bytes / copy);
        std::printf("rmw_bandwidth %.6g B/s\n", 1.5 * bytes / rmw);
        GT_CUDA_CHECK(cudaFree(a));
        GT_CUDA_CHECK(cudaFree(b));
    } catch (std::exception const& e) {
        std::fprintf(stderr, "memory ceiling: %s\n", e.what());
        return 1;
    }
    return 0;
}
