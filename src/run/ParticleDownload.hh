// What comes back from the particles at the end of a run or at a snapshot, a chunk at a time: only
// the particles that are written cross to the host (compacted where they live, BeamKernels::
// gather_to_host), so the host holds a chunk and the lost particles, never the whole beam.
#pragma once

#include <algorithm>

#include "beam/Lattice.hh"
#include "io/TableWriter.hh"
#include "kernels/beam/BeamKernels.hh"
#include "parallel/OrderedWrites.hh"

namespace gt {

//! Particles looked at per gather: 2^21 (126 MB of staging per buffer, two buffers).
inline constexpr size_type k_download_chunk = size_type(1) << 21;

//! Gathers [0, particles.size) `chunk` particles looked at a time, the live ones (`alive`) or the lost
//! ones, and gives each chunk's gathered particles (host memory, valid until the next gather) to `take`.
template <class F>
void for_each_gathered(BeamKernels& kernels, ParticleView particles, bool alive, F&& take,
                       size_type chunk = k_download_chunk)
{
    for (size_type begin = 0; begin < particles.size; begin += chunk)
        take(kernels.gather_to_host(particles, begin, std::min(particles.size, begin + chunk), alive));
}

//! One row per lost particle of this rank, in index order: id, where and when it was lost, its
//! coordinates there.
Table loss_table(BeamKernels& kernels, ParticleView particles, Lattice const& lattice,
                 size_type chunk = k_download_chunk);

//! This rank's live particles for a snapshot, in index order, `chunk` particles looked at per piece.
parallel::PhaseSpaceSource live_particles(BeamKernels& kernels, ParticleView particles,
                                          size_type chunk = k_download_chunk);

}  // namespace gt
