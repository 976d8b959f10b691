// Stream compaction of a particle range: the live (or the lost) particles of [begin, end), in index
// order, copied to a smaller state. Written once for both backends: flags, an exclusive prefix sum of
// them (the backend's: a loop on the CPU, CUB on the GPU), then a scatter to the sums' positions. A
// copy moves values unchanged, so every backend gives the same bits.
#pragma once

#include <cstdint>

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"

namespace gt {

//! Counted bytes of BeamKernels::gather_to_host, both backends and the forecast: per particle looked at
//! (its lost flag read, the flag and its offset written) and per particle selected (its coordinates, id
//! and loss record read from the beam and written out; the GPU's copy to the host is priced by the
//! calibrated download rate, which is measured in these same counted bytes).
inline constexpr double k_gather_bytes_per_particle = 12.0;
inline constexpr double k_gather_bytes_per_selected = 120.0;
//! [B] the flags and offsets per particle looked at, allocated when a gather looks at more than before.
inline constexpr double k_gather_grow_bytes_per_particle = 8.0;
//! [B] host staging per selected particle (x, px, y, py, t, pt, id, lost_element, lost_turn).
inline constexpr double k_staging_bytes_per_particle = 6 * 8 + 8 + 4 + 4;

//! flags[i] = 1 when particle begin + i is of the wanted kind (alive or lost), else 0.
struct SelectFlags {
    ParticleView p;
    size_type begin;
    bool want_alive;
    std::uint32_t* flags;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        flags[i] = p.alive(begin + i) == want_alive ? 1u : 0u;
    }
};

//! Copies particle begin + i to out[offsets[i]] when flags[i] is set (offsets: the exclusive prefix
//! sum of flags, so the selected particles keep their order).
struct ScatterSelected {
    ParticleView p;
    size_type begin;
    std::uint32_t const* flags;
    std::uint32_t const* offsets;
    ParticleView out;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        if (flags[i] == 0u) return;
        size_type const k = begin + i, j = offsets[i];
        out.x[j] = p.x[k];
        out.px[j] = p.px[k];
        out.y[j] = p.y[k];
        out.py[j] = p.py[k];
        out.t[j] = p.t[k];
        out.pt[j] = p.pt[k];
        out.id[j] = p.id[k];
        out.lost_element[j] = p.lost_element[k];
        out.lost_turn[j] = p.lost_turn[k];
    }
};

//! 1 for each particle of the wanted kind: a count as a reduction (exact in doubles below 2^53).
struct CountSelected {
    ParticleView p;
    bool want_alive;

    GT_HOST_DEVICE void operator()(size_type i, double* v) const
    {
        v[0] = p.alive(i) == want_alive ? 1.0 : 0.0;
    }
};

}  // namespace gt
