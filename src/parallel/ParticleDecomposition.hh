// Particle decomposition: which particles of the beam each rank holds.
//
// Rank r holds a contiguous range of particle ids, beginning on a reduction-chunk boundary
// (kernels/core/Reduction.hh): the ranks' chunk partials, taken in rank order, are then exactly the
// partials of one process, folded in the same order (CrossRank::fold_in_rank_order), and every
// statistic comes out with the same bits for any rank count. Ranks differ by at most one chunk (2048 particles); with fewer chunks than ranks the
// last ranks hold none.
#pragma once

#include <cstdint>

namespace gt::parallel {

struct ParticleShare {
    std::uint64_t first = 0;  //!< id (and index in the whole beam) of this rank's first particle
    std::uint64_t count = 0;  //!< particles this rank holds
};

//! The share of `rank` (of `ranks`) in a beam of `total` particles.
ParticleShare particle_share(std::uint64_t total, int rank, int ranks);

//! A contiguous share of `total` items (detector events) for `rank`: ranks differ by at most one.
ParticleShare even_share(std::uint64_t total, int rank, int ranks);

//! This process's share in the world communicator.
ParticleShare my_particle_share(std::uint64_t total);

}  // namespace gt::parallel
