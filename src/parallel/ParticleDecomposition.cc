// Particle decomposition: contiguous, chunk-aligned shares of the beam, one per rank.
#include "parallel/ParticleDecomposition.hh"

#include <algorithm>

#include "kernels/core/Reduction.hh"
#include "parallel/Communicator.hh"

namespace gt::parallel {

ParticleShare particle_share(std::uint64_t total, int rank, int ranks)
{
    std::uint64_t const chunk = reduce::k_chunk;
    std::uint64_t const chunks = (total + chunk - 1) / chunk;
    auto const r = static_cast<std::uint64_t>(rank), n = static_cast<std::uint64_t>(ranks);
    std::uint64_t const begin = std::min(total, chunks * r / n * chunk);
    std::uint64_t const end = std::min(total, chunks * (r + 1) / n * chunk);
    return ParticleShare{begin, end - begin};
}

ParticleShare even_share(std::uint64_t total, int rank, int ranks)
{
    auto const r = static_cast<std::uint64_t>(rank), n = static_cast<std::uint64_t>(ranks);
    std::uint64_t const begin = total / n * r + std::min(r, total % n);
    return ParticleShare{begin, total / n + (r < total % n ? 1 : 0)};
}

ParticleShare my_particle_share(std::uint64_t total)
{
    Communicator const& w = Communicator::world();
    return particle_share(total, w.rank(), w.size());
}

}  // namespace gt::parallel
