// One step of a track in a sensitive volume, and the order hits are written in.
#pragma once

#include <cstdint>

#include "kernels/geometry/Vec3.hh"

namespace gt {

struct Hit {
    std::uint64_t event = 0;
    std::uint64_t track = 0;
    std::int32_t volume = 0;   //!< logical volume ([[geometry.volume]] index + 1; the world is 0)
    std::int32_t replica = 0;  //!< copy number within the volume's replicas
    std::uint32_t step = 0;    //!< the track's step number
    std::int32_t particle = 0;
    Vec3 pre;         //!< pre-step position [m]
    Vec3 post;        //!< post-step position [m]
    double time = 0;  //!< pre-step time [s]
    double edep = 0;  //!< energy deposited in the step [MeV]
    Vec3 momentum;    //!< pre-step momentum [MeV/c]
};

//! (event, volume, time), then (replica, track, step) so that the order is total and every backend
//! writes the same file.
struct HitOrder {
    GT_HOST_DEVICE bool operator()(Hit const& a, Hit const& b) const
    {
        if (a.event != b.event) return a.event < b.event;
        if (a.volume != b.volume) return a.volume < b.volume;
        if (a.time != b.time) return a.time < b.time;
        if (a.replica != b.replica) return a.replica < b.replica;
        if (a.track != b.track) return a.track < b.track;
        return a.step < b.step;
    }
};

//! Every field the same, bit for bit (what CPU and GPU runs of one deck must give).
GT_HOST_DEVICE inline bool identical_hits(Hit const& a, Hit const& b)
{
    return a.event == b.event && a.track == b.track && a.volume == b.volume && a.replica == b.replica &&
           a.step == b.step && a.particle == b.particle && a.pre.x == b.pre.x && a.pre.y == b.pre.y &&
           a.pre.z == b.pre.z && a.post.x == b.post.x && a.post.y == b.post.y && a.post.z == b.post.z &&
           a.time == b.time && a.edep == b.edep && a.momentum.x == b.momentum.x &&
           a.momentum.y == b.momentum.y && a.momentum.z == b.momentum.z;
}

}  // namespace gt
