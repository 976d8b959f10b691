// The GPU's FP64 peak and launch latency, for `gtrack calibrate`.
#include <algorithm>

#include "kernels/core/DeviceCeilings.hh"
#include "kernels/core/PeakFlops.hh"
#include "kernels/cuda/Check.cuh"
#include "kernels/cuda/EventTimer.cuh"
#include "kernels/cuda/Executor.cuh"

namespace gt::device {

namespace {
__global__ void empty_kernel() {}
}  // namespace

int multiprocessors()
{
    int n = 0;
    GT_CUDA_CHECK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, 0));
    return n;
}

double measure_fp64_peak()
{
    size_type const items = size_type(multiprocessors()) * 2048 * 4;
    int const rounds = 4096;
    double* out = nullptr;
    GT_CUDA_CHECK(cudaMalloc(&out, items * sizeof(double)));
    cuda::EventTimer timer;
    double best = 0;
    for (int rep = 0; rep < 5; ++rep) {
        timer.start();
        cuda::Policy::for_each(items, PeakFlops{out, rounds});
        double const s = timer.seconds();
        if (rep > 0) best = std::max(best, double(items) * rounds * PeakFlops::k_flops_per_round / s);
    }
    GT_CUDA_CHECK(cudaFree(out));
    return best;
}

double measure_launch_latency()
{
    int const launches = 1000;
    empty_kernel<<<1, 1>>>();
    GT_CUDA_CHECK(cudaDeviceSynchronize());
    cuda::EventTimer timer;
    timer.start();
    for (int i = 0; i < launches; ++i) empty_kernel<<<1, 1>>>();
    GT_CUDA_CHECK(cudaGetLastError());
    return timer.seconds() / launches;
}

}  // namespace gt::device
