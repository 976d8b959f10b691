// Every CUDA call's status is checked: a failure throws with the call, file and line.
#pragma once

#include <stdexcept>
#include <string>

#include <cuda_runtime.h>

namespace gt::cuda {

[[noreturn]] inline void throw_cuda_error(cudaError_t err, char const* call, char const* file, int line)
{
    throw std::runtime_error(std::string("CUDA error ") + cudaGetErrorName(err) + " (" +
                             cudaGetErrorString(err) + ") in " + call + " at " + file + ":" +
                             std::to_string(line));
}

}  // namespace gt::cuda

#define GT_CUDA_CHECK(call)                                                           \
    do {                                                                              \
        cudaError_t const gt_cuda_err_ = (call);                                      \
        if (gt_cuda_err_ != cudaSuccess)                                              \
            ::gt::cuda::throw_cuda_error(gt_cuda_err_, #call, __FILE__, __LINE__);    \
    } while (0)

//! After a kernel launch: launch-configuration errors surface here, execution errors at the next sync.
#define GT_CUDA_CHECK_LAUNCH() GT_CUDA_CHECK(cudaGetLastError())
