// One rank per GPU: each rank of a node takes the GPU of its node-local rank.
#pragma once

#include <string>

namespace gt::parallel {

//! Selects GPU (node rank mod GPUs on the node) for this rank when the node has GPUs; does nothing
//! otherwise. Ranks beyond the GPU count share GPUs round-robin (docs/cluster.md says to avoid it).
void bind_gpu_to_node_rank();

//! "rank 0: gpu 1 (NVIDIA H200 ...)" or "rank 2: cpu": what this rank computes on, for provenance.
std::string describe_rank_device(bool on_gpu, std::string const& backend_description);

}  // namespace gt::parallel
