// Pushes each particle through a whole segment of the element table in registers: one load, every
// element, one store. A lost particle keeps its coordinates at the loss and records where it was lost.
#pragma once

#include "kernels/core/Macros.hh"
#include "kernels/core/Opaque.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/elements/Element.hh"

namespace gt {

//! `Cases`: the element switch compiled into the kernel (SegmentCaseTable picks it per segment). `Photons`:
//! the segment holds entries that emit photons (quantum excitation, SegmentCaseTable::emits_photons): each
//! particle's clock (id, turn) goes to track_element, which draws the photons of those entries; the kernels
//! without it are the code of a lattice without quantum excitation, unchanged.
template <ElementCases Cases, bool Photons = false>
struct TrackSegment {
    ParticleView particles;
    Element const* elements;  //!< the table in the executor's memory
    size_type begin;          //!< first element of the segment
    size_type end;            //!< one past the last
    std::int32_t turn;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        if (!particles.alive(i)) return;
        Particle p = particles.load(i);
        [[maybe_unused]] PhotonClock clock{};
        if constexpr (Photons) clock = PhotonClock{particles.id[i], turn};
        // A pointer and a 32-bit count, and pt made opaque per element (Opaque.hh): the register budget
        // of the optics switch (64 at four blocks per SM, BeamDriver.hh) held, where a 64-bit index and
        // hoisted pt-only products were spilled to local memory on every element (ptxas -v; the same
        // loads and the same order of elements, so the same bits).
        Element const* e = elements + begin;
        for (auto left = static_cast<std::uint32_t>(end > begin ? end - begin : 0); left != 0; --left, ++e) {
            opaque_in_place(p.pt);
            bool ok = false;
            if constexpr (Photons)
                ok = track_element<Cases>(*e, p, clock);
            else
                ok = track_element<Cases>(*e, p);
            if (!ok) {
                particles.lost_element[i] = e->index;
                particles.lost_turn[i] = turn;
                break;
            }
        }
        particles.store(i, p);
    }
};

}  // namespace gt
