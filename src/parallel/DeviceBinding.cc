// One rank per GPU: each rank of a node takes the GPU of its node-local rank.
#include "parallel/DeviceBinding.hh"

#include <fmt/format.h>

#include "kernels/core/Device.hh"
#include "parallel/Communicator.hh"

namespace gt::parallel {

void bind_gpu_to_node_rank()
{
    int const gpus = device::count();
    if (gpus == 0) return;
    device::select(Communicator::world().node_rank() % gpus);
}

std::string describe_rank_device(bool on_gpu, std::string const& backend_description)
{
    int const rank = Communicator::world().rank();
    if (!on_gpu) return fmt::format("rank {}: {}", rank, backend_description);
    return fmt::format("rank {}: gpu {}, {}", rank, device::current(), backend_description);
}

}  // namespace gt::parallel
