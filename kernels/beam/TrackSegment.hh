// Pushes each particle through a whole segment of the element table in registers: one load, every
// element, one store. A lost particle keeps its coordinates at the loss and records where it was lost.
#pragma once

#include "kernels/core/Macros.hh"
#include "kernels/core/Opaque.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/elements/Element.hh"

namespace gt {

//! `Cases`: the element switch compiled into the kernel (SegmentCaseTable picks it per segment).
template <ElementCases Cases>
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
        // A pointer and a 32-bit count, and pt made opaque per element (Opaque.hh): the register budget
        // of the optics switch (64 at four blocks per SM, BeamDriver.hh) held, where a 64-bit index and
        // hoisted pt-only products were spilled to local memory on every element (ptxas -v; the same
        // loads and the same order of elements, so the same bits).
        Element const* e = elements + begin;
        for (auto left = static_cast<std::uint32_t>(end > begin ? end - begin : 0); left != 0; --left, ++e) {
            opaque_in_place(p.pt);
            if (!track_element<Cases>(*e, p)) {
                particles.lost_element[i] = e->index;
                particles.lost_turn[i] = turn;
                break;
            }
        }
        particles.store(i, p);
    }
};

//! The CPU's form of TrackSegment: W neighbouring particles pushed through the segment together,
//! element by element. Each particle sees exactly the operations TrackSegment applies to it (the
//! same bits), but W independent dependency chains (square roots, divisions, polynomial series)
//! stand side by side in the instruction stream, so an out-of-order core overlaps them instead of
//! waiting on one particle's chain. Item b covers particles [b W, b W + W).
template <int W, ElementCases Cases>
struct TrackSegmentBlock {
    ParticleView particles;
    Element const* elements;
    size_type begin;
    size_type end;
    std::int32_t turn;

    static size_type blocks(size_type n) { return (n + W - 1) / W; }

    void operator()(size_type b) const
    {
        size_type const first = b * W;
        int const count = first + W <= particles.size ? W : int(particles.size - first);
        Particle p[W];
        bool live[W], was_live[W];
        for (int k = 0; k < W; ++k) {
            live[k] = k < count && particles.alive(first + k);
            was_live[k] = live[k];
            if (live[k]) p[k] = particles.load(first + k);
        }
        for (size_type e = begin; e < end; ++e) {
            Element const& element = elements[e];
            for (int k = 0; k < W; ++k) {
                if (!live[k] || track_element<Cases>(element, p[k])) continue;
                particles.lost_element[first + k] = element.index;
                particles.lost_turn[first + k] = turn;
                live[k] = false;
            }
        }
        for (int k = 0; k < W; ++k)
            if (was_live[k]) particles.store(first + k, p[k]);
    }
};

}  // namespace gt
