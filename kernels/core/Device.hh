// The host's handle on the GPU: discovery and raw memory. Implemented by kernels/cuda/Device.cu,
// or by kernels/cuda/NoCuda.cc in a build without CUDA (every call then reports "no GPU").
#pragma once

#include <cstddef>
#include <string>

namespace gt::device {

//! Number of usable CUDA devices (0 without CUDA, without a driver or without a GPU).
int count();
//! Makes device `index` (0 <= index < count()) the one this process's CUDA calls use.
void select(int index);
//! The device this process's CUDA calls use (0 unless select() chose another).
int current();
//! Name of the current device, e.g. "NVIDIA H100 80GB HBM3", or "no GPU".
std::string name();
//! "CUDA runtime 13.0, driver 13.0", or why there is none.
std::string runtime_description();
//! True when gtrack was compiled with its CUDA backend.
bool compiled_in();

struct MemoryInfo {
    std::size_t free_bytes = 0;   //!< [B] free on device 0 now
    std::size_t total_bytes = 0;  //!< [B] its capacity
};
//! Device 0's free and total memory (cudaMemGetInfo); zeros without a GPU.
MemoryInfo memory_info();

void* allocate(std::size_t bytes);
void release(void* ptr) noexcept;
//! Page-locked host memory, which the GPU copies to and from at full link speed.
void* allocate_pinned(std::size_t bytes);
void release_pinned(void* ptr) noexcept;
void copy_to_device(void* dst, void const* src, std::size_t bytes);
void copy_to_host(void* dst, void const* src, std::size_t bytes);
void copy_on_device(void* dst, void const* src, std::size_t bytes);
void fill_zero(void* dst, std::size_t bytes);
void synchronize();
//! How often this process's host has waited for the GPU in gtrack's CUDA layer so far: events
//! waited on, blocking copies, cudaFree, synchronize() (kernels/cuda/HostWait.cuh). 0 without CUDA.
long host_waits();

}  // namespace gt::device
