// Where the CUDA reductions put their chunk partials: a device buffer and its pinned host copy, kept
// from one reduction to the next, and the event a reduction waits for once its copy is queued. A statistics point then allocates nothing: a cudaMallocAsync per
// call went back to the driver every time, since the default memory pool releases its memory at
// each synchronization (release threshold 0), and a copy into pageable memory is staged by the driver.
#pragma once

#include <cstddef>

#include <cuda_runtime.h>

#include "kernels/cuda/Check.cuh"
#include "kernels/cuda/HostWait.cuh"

namespace gt::cuda {

class ReduceScratch {
  public:
    ReduceScratch() = default;
    ~ReduceScratch() { release(); }
    ReduceScratch(ReduceScratch const&) = delete;
    ReduceScratch& operator=(ReduceScratch const&) = delete;

    //! Room for `count` doubles on the current device and in pinned host memory; grows, never shrinks.
    void reserve(std::size_t count)
    {
        int device = 0;
        GT_CUDA_CHECK(cudaGetDevice(&device));
        if (count <= capacity_ && device == device_) return;
        release();
        std::size_t grown = count > 2 * capacity_ ? count : 2 * capacity_;
        if (grown < k_min_capacity) grown = k_min_capacity;
        GT_CUDA_CHECK(cudaMalloc(&device_data_, grown * sizeof(double)));
        GT_CUDA_CHECK(cudaMallocHost(&host_data_, grown * sizeof(double)));
        GT_CUDA_CHECK(cudaEventCreate(&done_));
        capacity_ = grown;
        device_ = device;
    }

    double* device_data() const { return device_data_; }
    double* host_data() const { return host_data_; }
    //! Recorded after the last reduction's copy and waited for: once it has completed, the partials
    //! are on the host and all work queued before the reduction has finished (a timer may end there).
    cudaEvent_t done() const { return done_; }

  private:
    void release() noexcept
    {
        // Unchecked: at exit the runtime may already be gone, and the memory goes with the process.
        // cudaFree waits for the device (counted, HostWait.cuh): only when the scratch grows.
        if (device_data_ != nullptr) {
            note_host_wait();
            (void)cudaFree(device_data_);
        }
        if (host_data_ != nullptr) (void)cudaFreeHost(host_data_);
        if (done_ != nullptr) (void)cudaEventDestroy(done_);
        device_data_ = host_data_ = nullptr;
        done_ = nullptr;
        capacity_ = 0;
        device_ = -1;
    }

    static constexpr std::size_t k_min_capacity = 64;

    double* device_data_ = nullptr;
    double* host_data_ = nullptr;
    cudaEvent_t done_ = nullptr;
    std::size_t capacity_ = 0;
    int device_ = -1;
};

//! This host thread's scratch: a reduction waits for its copy before it returns, so the next one may
//! reuse the buffers.
inline ReduceScratch& reduce_scratch()
{
    thread_local ReduceScratch scratch;
    return scratch;
}

}  // namespace gt::cuda
