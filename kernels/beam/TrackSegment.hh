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
//! without it are the code of a lattice without quantum excitation, unchanged. `Misalignments`: false for a
//! segment without a misaligned entry (SegmentCaseTable::misaligned), whose kernels then carry no shift or
//! roll at all: on the GPU the misalignment of every entry was predicated code (about 45 issued instructions
//! per push, whether or not the entry is misaligned; docs/performance.md, "Instructions per push").
template <ElementCases Cases, bool Photons = false, bool Misalignments = true>
struct TrackSegment {
    ParticleView particles;
    Element const* elements;  //!< the table in the executor's memory
    size_type begin;          //!< first element of the segment
    size_type end;            //!< one past the last
    std::int32_t turn;
    //! The many-turn executor (BeamKernels::track_turns): [begin, end) is the whole table, pushed `turns`
    //! times (turns turn, turn + 1, ...) with the particle in registers; a lost particle stops. 1: a segment.
    std::int32_t turns = 1;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        if (!particles.alive(i)) return;
        Particle p = particles.load(i);
        for (std::int32_t k = 0; k < turns; ++k) {
            std::int32_t const t = turn + k;
            bool alive = false;
            if constexpr (Photons) {
                alive = push_through<Push::photons>(i, p, PhotonClock{particles.id[i], t}, t);
            } else if constexpr (Cases == ElementCases::linear_maps && !Misalignments) {
                // A particle finite at the start stays finite through an entry whose written coordinates are
                // (track_linear_map_finite_entry); one that is not takes track_element's full check, so is
                // lost at the first entry, as before.
                if (is_finite(p))
                    alive = push_through<Push::finite_entry>(i, p, PhotonClock{}, t);
                else
                    alive = push_through<Push::checked>(i, p, PhotonClock{}, t);
            } else {
                alive = push_through<Push::checked>(i, p, PhotonClock{}, t);
            }
            if (!alive) break;
        }
        particles.store(i, p);
    }

  private:
    enum class Push { checked, finite_entry, photons };

    //! Pushes p through [begin, end) (false from an entry: lost there, the loss recorded). `How`:
    //! track_element (with the clock for `photons`) or, for a particle finite at the start,
    //! track_linear_map_finite_entry.
    //! Returns false when the particle is lost (at turn `t`).
    template <Push How>
    GT_HOST_DEVICE GT_FORCEINLINE bool push_through(size_type i, Particle& p,
                                                    [[maybe_unused]] PhotonClock const& clock,
                                                    std::int32_t t) const
    {
        // A pointer and a 32-bit count, and pt made opaque per element (Opaque.hh): the register budget
        // of the optics switch (64 at four blocks per SM, BeamDriver.hh) held, where a 64-bit index and
        // hoisted pt-only products were spilled to local memory on every element (ptxas -v; the same
        // loads and the same order of elements, so the same bits).
        Element const* e = elements + begin;
        for (auto left = static_cast<std::uint32_t>(end > begin ? end - begin : 0); left != 0; --left, ++e) {
            opaque_in_place(p.pt);
            bool ok = false;
            if constexpr (How == Push::photons)
                ok = track_element<Cases>(*e, p, clock);
            else if constexpr (How == Push::finite_entry)
                ok = track_linear_map_finite_entry(*e, p);
            else
                ok = track_element<Cases, Misalignments>(*e, p);
            if (!ok) {
                particles.lost_element[i] = e->index;
                particles.lost_turn[i] = t;
                return false;
            }
        }
        return true;
    }
};

}  // namespace gt
