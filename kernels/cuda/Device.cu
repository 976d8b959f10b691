// GPU discovery and raw memory for the host (kernels/core/Device.hh), with every call checked.
#include "kernels/core/Device.hh"
#include "kernels/cuda/Check.cuh"
#include "kernels/cuda/HostWait.cuh"

namespace gt::device {

bool compiled_in() { return true; }

int count()
{
    int n = 0;
    // No driver or no device is not an error here: it means "no GPU".
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();  // clear the sticky error state
        return 0;
    }
    return n;
}

void select(int index) { GT_CUDA_CHECK(cudaSetDevice(index)); }

int current()
{
    int index = 0;
    GT_CUDA_CHECK(cudaGetDevice(&index));
    return index;
}

std::string name()
{
    if (count() == 0) return "no GPU";
    cudaDeviceProp prop{};
    GT_CUDA_CHECK(cudaGetDeviceProperties(&prop, current()));
    return std::string(prop.name) + " (sm_" + std::to_string(prop.major) + std::to_string(prop.minor) +
           ", " + std::to_string(prop.multiProcessorCount) + " SMs, " +
           std::to_string(prop.totalGlobalMem >> 20) + " MiB)";
}

std::string runtime_description()
{
    int runtime = 0, driver = 0;
    GT_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    auto const version = [](int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); };
    std::string text = "CUDA runtime " + version(runtime);
    if (cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0) {
        text += ", driver " + version(driver);
    } else {
        cudaGetLastError();
        text += ", no driver";
    }
    return text;
}

MemoryInfo memory_info()
{
    MemoryInfo info;
    GT_CUDA_CHECK(cudaMemGetInfo(&info.free_bytes, &info.total_bytes));
    return info;
}

void* allocate(std::size_t bytes)
{
    void* ptr = nullptr;
    GT_CUDA_CHECK(cudaMalloc(&ptr, bytes));
    return ptr;
}

void release(void* ptr) noexcept
{
    // Destructors must not throw; a failure here means the context is already broken and the
    // next checked call reports it. cudaFree waits for the device.
    cuda::note_host_wait();
    (void)cudaFree(ptr);
}

void* allocate_pinned(std::size_t bytes)
{
    void* ptr = nullptr;
    GT_CUDA_CHECK(cudaMallocHost(&ptr, bytes));
    return ptr;
}

void release_pinned(void* ptr) noexcept { (void)cudaFreeHost(ptr); }

// From and to pageable host memory cudaMemcpy waits for the work queued before it (device to device
// it does not).
void copy_to_device(void* dst, void const* src, std::size_t bytes)
{
    cuda::note_host_wait();
    GT_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
}

void copy_to_host(void* dst, void const* src, std::size_t bytes)
{
    cuda::note_host_wait();
    GT_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
}

void copy_on_device(void* dst, void const* src, std::size_t bytes)
{
    GT_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
}

void fill_zero(void* dst, std::size_t bytes) { GT_CUDA_CHECK(cudaMemset(dst, 0, bytes)); }

void synchronize()
{
    cuda::note_host_wait();
    GT_CUDA_CHECK(cudaDeviceSynchronize());
}

long host_waits() { return cuda::host_wait_count().load(); }

}  // namespace gt::device
