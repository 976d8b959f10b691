// The fixed-capacity struct-of-arrays track state of a detector run, and its view.
//
// A slot is vacant (status 0) or holds a live track (status 1). A step may span several step
// iterations when field propagation reaches its substep cap: in_step stays set and the pre-step
// values stay put until the step is done.
#pragma once

#include <cstdint>

#include "kernels/core/Buffer.hh"
#include "kernels/core/Macros.hh"
#include "kernels/core/Types.hh"
#include "kernels/geometry/Vec3.hh"

namespace gt {

enum class TrackEnd : std::int32_t { none = 0, escaped = 1, stopped = 2, looping = 3 };

struct TrackView {
    std::int32_t* status = nullptr;
    std::uint64_t* track_id = nullptr;
    std::uint64_t* event = nullptr;
    std::int32_t* particle = nullptr;
    Vec3* pos = nullptr;             //!< [m]
    Vec3* dir = nullptr;             //!< unit
    double* energy = nullptr;        //!< kinetic [MeV]
    double* time = nullptr;          //!< [s]
    std::int32_t* volume = nullptr;  //!< placed-volume index
    std::uint32_t* step_count = nullptr;
    // the step in progress
    std::int32_t* in_step = nullptr;
    std::int32_t* step_done = nullptr;
    std::int32_t* on_boundary = nullptr;
    std::int32_t* ending = nullptr;  //!< TrackEnd
    double* remaining = nullptr;     //!< [m]
    double* h_next = nullptr;        //!< [m]
    double* h_limit = nullptr;       //!< [m]
    double* step_length = nullptr;   //!< [m]
    Vec3* pre_pos = nullptr;
    Vec3* pre_dir = nullptr;
    double* pre_energy = nullptr;
    double* pre_time = nullptr;
    double* edep = nullptr;                 //!< in this step [MeV]
    double* msc_depth = nullptr;            //!< path in the current volume in radiation lengths
    std::uint32_t* vacancy_rank = nullptr;  //!< filled by the backend's scan before initialization
    // shower physics (physics.showers)
    double* mfp_left = nullptr;  //!< mean free paths to the next interaction; < 0: draw anew
    double* xs_used = nullptr;   //!< macroscopic cross section the step was limited with [1/m]
    std::int32_t* interacts =
        nullptr;  //!< the step ends in a discrete interaction (1) or an at-rest annihilation (2)
    std::int32_t* held = nullptr;          //!< the interaction waits for room for its secondaries
    double* edep_cut = nullptr;            //!< the part of edep deposited because it fell below a cut [MeV]
    std::uint32_t* secondaries = nullptr;  //!< secondaries of this iteration's interaction
    std::uint32_t* secondary_offset = nullptr;  //!< their exclusive prefix sum in slot order
    std::size_t size = 0;
};

//! Every array of TrackView, pointers and the size: a field added to TrackView fails here until
//! move_track (below) is told whether it moves with its track.
static_assert(sizeof(TrackView) == 32 * sizeof(void*) + sizeof(std::size_t),
              "a TrackView field was added or removed: update move_track");

//! Slot i of `from` to slot k of `to`: everything a track carries across an iteration's boundary
//! (run.track_order "compact" moves the live tracks to the front). Not moved: vacancy_rank and
//! secondary_offset, scratch that their scans fill before each use.
GT_HOST_DEVICE inline void move_track(TrackView const& from, size_type i, TrackView const& to, size_type k)
{
    to.status[k] = from.status[i];
    to.track_id[k] = from.track_id[i];
    to.event[k] = from.event[i];
    to.particle[k] = from.particle[i];
    to.pos[k] = from.pos[i];
    to.dir[k] = from.dir[i];
    to.energy[k] = from.energy[i];
    to.time[k] = from.time[i];
    to.volume[k] = from.volume[i];
    to.step_count[k] = from.step_count[i];
    to.in_step[k] = from.in_step[i];
    to.step_done[k] = from.step_done[i];
    to.on_boundary[k] = from.on_boundary[i];
    to.ending[k] = from.ending[i];
    to.remaining[k] = from.remaining[i];
    to.h_next[k] = from.h_next[i];
    to.h_limit[k] = from.h_limit[i];
    to.step_length[k] = from.step_length[i];
    to.pre_pos[k] = from.pre_pos[i];
    to.pre_dir[k] = from.pre_dir[i];
    to.pre_energy[k] = from.pre_energy[i];
    to.pre_time[k] = from.pre_time[i];
    to.edep[k] = from.edep[i];
    to.msc_depth[k] = from.msc_depth[i];
    to.mfp_left[k] = from.mfp_left[i];
    to.xs_used[k] = from.xs_used[i];
    to.interacts[k] = from.interacts[i];
    to.held[k] = from.held[i];
    to.edep_cut[k] = from.edep_cut[i];
    to.secondaries[k] = from.secondaries[i];
}

class TrackState {
  public:
    TrackState() = default;
    TrackState(std::size_t n, MemSpace s)
        : status_(n, s),
          track_id_(n, s),
          event_(n, s),
          particle_(n, s),
          pos_(n, s),
          dir_(n, s),
          energy_(n, s),
          time_(n, s),
          volume_(n, s),
          step_count_(n, s),
          in_step_(n, s),
          step_done_(n, s),
          on_boundary_(n, s),
          ending_(n, s),
          remaining_(n, s),
          h_next_(n, s),
          h_limit_(n, s),
          step_length_(n, s),
          pre_pos_(n, s),
          pre_dir_(n, s),
          pre_energy_(n, s),
          pre_time_(n, s),
          edep_(n, s),
          msc_depth_(n, s),
          vacancy_rank_(n, s),
          mfp_left_(n, s),
          xs_used_(n, s),
          interacts_(n, s),
          held_(n, s),
          edep_cut_(n, s),
          secondaries_(n, s),
          secondary_offset_(n, s)
    {
    }
    TrackView view()
    {
        return TrackView{
            status_.data(),       track_id_.data(),    event_.data(),       particle_.data(),
            pos_.data(),          dir_.data(),         energy_.data(),      time_.data(),
            volume_.data(),       step_count_.data(),  in_step_.data(),     step_done_.data(),
            on_boundary_.data(),  ending_.data(),      remaining_.data(),   h_next_.data(),
            h_limit_.data(),      step_length_.data(), pre_pos_.data(),     pre_dir_.data(),
            pre_energy_.data(),   pre_time_.data(),    edep_.data(),        msc_depth_.data(),
            vacancy_rank_.data(), mfp_left_.data(),    xs_used_.data(),     interacts_.data(),
            held_.data(),         edep_cut_.data(),    secondaries_.data(), secondary_offset_.data(),
            status_.size()};
    }
    std::size_t size() const { return status_.size(); }
    Buffer<std::int32_t> const& status() const { return status_; }
    Buffer<std::uint32_t>& vacancy_rank() { return vacancy_rank_; }
    //! f(name, buffer) for every array, in a fixed order (saving and restoring the loop's state).
    template <class F>
    void for_each_array(F&& f)
    {
        f("status", status_);
        f("track_id", track_id_);
        f("event", event_);
        f("particle", particle_);
        f("pos", pos_);
        f("dir", dir_);
        f("energy", energy_);
        f("time", time_);
        f("volume", volume_);
        f("step_count", step_count_);
        f("in_step", in_step_);
        f("step_done", step_done_);
        f("on_boundary", on_boundary_);
        f("ending", ending_);
        f("remaining", remaining_);
        f("h_next", h_next_);
        f("h_limit", h_limit_);
        f("step_length", step_length_);
        f("pre_pos", pre_pos_);
        f("pre_dir", pre_dir_);
        f("pre_energy", pre_energy_);
        f("pre_time", pre_time_);
        f("edep", edep_);
        f("msc_depth", msc_depth_);
        f("vacancy_rank", vacancy_rank_);
        f("mfp_left", mfp_left_);
        f("xs_used", xs_used_);
        f("interacts", interacts_);
        f("held", held_);
        f("edep_cut", edep_cut_);
        f("secondaries", secondaries_);
        f("secondary_offset", secondary_offset_);
    }

  private:
    Buffer<std::int32_t> status_;
    Buffer<std::uint64_t> track_id_, event_;
    Buffer<std::int32_t> particle_;
    Buffer<Vec3> pos_, dir_;
    Buffer<double> energy_, time_;
    Buffer<std::int32_t> volume_;
    Buffer<std::uint32_t> step_count_;
    Buffer<std::int32_t> in_step_, step_done_, on_boundary_, ending_;
    Buffer<double> remaining_, h_next_, h_limit_, step_length_;
    Buffer<Vec3> pre_pos_, pre_dir_;
    Buffer<double> pre_energy_, pre_time_, edep_, msc_depth_;
    Buffer<std::uint32_t> vacancy_rank_;
    Buffer<double> mfp_left_, xs_used_;
    Buffer<std::int32_t> interacts_, held_;
    Buffer<double> edep_cut_;
    Buffer<std::uint32_t> secondaries_, secondary_offset_;
};

}  // namespace gt
