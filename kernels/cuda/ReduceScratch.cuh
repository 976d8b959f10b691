// Where the CUDA reductions put their chunk partials: a device buffer and its pinned host copy, kept
// from one reduction to the next. A statistics point then allocates nothing: a cudaMallocAsync per
// call went back to the driver every time, since the default memory pool releases its memory at
// each synchronization (release threshold 0), and a copy into pageable memory is staged by the driver.
#pragma once

#include <cstddef>

#include <cuda_runtime.h>

#include "kernels/cuda/Check.cuh"

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
        std::size_t const grown = count > 2 * capacity_ ? count : 2 * capacity_;
        GT_CUDA_CHECK(cudaMalloc(&device_data_, grown * sizeof(double)));
        GT_CUDA_CHECK(cudaMallocHost(&host_data_, grown * sizeof(double)));
        capacity_ = grown;
        device_ = device;
    }

    double* device_data() const { return device_data_; }
    double* host_data() const { return host_data_; }

  private:
    void release() noexcept
    {
        // Unchecked: at exit the runtime may already be gone, and the memory goes with the process.
        if (device_data_ != nullptr) (void)cudaFree(device_data_);
        if (host_data_ != nullptr) (void)cudaFreeHost(host_data_);
        device_data_ = host_data_ = nullptr;
        capacity_ = 0;
        device_ = -1;
    }

    double* device_data_ = nullptr;
    double* host_data_ = nullptr;
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
