// The GPU entry points for a build without the CUDA backend: there is never a GPU.
#include <stdexcept>

#include "kernels/core/Device.hh"

namespace gt {
namespace {
[[noreturn]] void no_cuda()
{
    throw std::runtime_error("this gtrack was built without CUDA (GTRACK_CUDA=OFF): no GPU backend");
}
}  // namespace

namespace device {
bool compiled_in() { return false; }
int count() { return 0; }
void select(int) { no_cuda(); }
int current() { return 0; }
std::string name() { return "no GPU"; }
std::string runtime_description() { return "built without CUDA"; }
MemoryInfo memory_info() { return {}; }
void* allocate(std::size_t) { no_cuda(); }
void release(void*) noexcept {}
void* allocate_pinned(std::size_t) { no_cuda(); }
void release_pinned(void*) noexcept {}
void copy_to_device(void*, void const*, std::size_t) { no_cuda(); }
void copy_to_host(void*, void const*, std::size_t) { no_cuda(); }
void copy_on_device(void*, void const*, std::size_t) { no_cuda(); }
void fill_zero(void*, std::size_t) { no_cuda(); }
void synchronize() {}
long host_waits() { return 0; }
}  // namespace device

}  // namespace gt
