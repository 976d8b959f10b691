// Pushes each particle through a whole segment of the element table in registers: one load, every
// element, one store. A lost particle keeps its coordinates at the loss and records where it was lost.
#pragma once

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/elements/Element.hh"

namespace gt {

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
        for (size_type e = begin; e < end; ++e) {
            if (!track_element(elements[e], p)) {
                particles.lost_element[i] = elements[e].index;
                particles.lost_turn[i] = turn;
                break;
            }
        }
        particles.store(i, p);
    }
};

}  // namespace gt
