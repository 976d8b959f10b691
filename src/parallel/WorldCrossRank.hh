// The backends' view of the other ranks (kernels/core/CrossRank.hh), over the world communicator.
#pragma once

#include "kernels/core/CrossRank.hh"

namespace gt::parallel {

//! The world's ranks as the backends' collective steps see them; single_process() with one rank.
CrossRank const& world_cross_rank();

}  // namespace gt::parallel
