// The host waiting for the GPU: every wait of gtrack's CUDA layer (an event waited on, a blocking
// copy, a device synchronization) goes through here and is counted, so that a test can hold a
// statistics point to one wait (tests/gpu/StatisticsPointTest.cc, device::host_waits()).
#pragma once

#include <atomic>
#include <stdexcept>
#include <string>

#include <cuda_runtime.h>

namespace gt::cuda {

//! Waits of this process so far.
inline std::atomic<long>& host_wait_count()
{
    static std::atomic<long> count{0};
    return count;
}

//! Counts a blocking CUDA call made elsewhere (cudaMemcpy to or from pageable memory, cudaFree,
//! cudaDeviceSynchronize).
inline void note_host_wait() { host_wait_count().fetch_add(1, std::memory_order_relaxed); }

//! Waits until `event` has completed. A kernel queued before it that failed reports here: its
//! launch returned at once, so the error names this wait, `what`, and says where it may come from.
inline void wait(cudaEvent_t event, char const* what)
{
    note_host_wait();
    cudaError_t const err = cudaEventSynchronize(event);
    if (err != cudaSuccess)
        throw std::runtime_error(std::string("CUDA error ") + cudaGetErrorName(err) + " (" +
                                 cudaGetErrorString(err) + ") while waiting for " + what +
                                 " (any kernel queued since the previous wait may have caused it)");
}

}  // namespace gt::cuda
