// The host's copy of every read-only table of a detector run, as built from a deck
// (src/detector/DetectorSetup.cc); a backend copies it into its memory once.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/detector/DetectorParams.hh"
#include "kernels/detector/EmTableData.hh"
#include "kernels/detector/ParticleGun.hh"

namespace gt {

//! Which slots the step actions run over, and in which order (run.track_order). Results are the
//! same bits for each (the step loop does not depend on the order, DetectorBackend.hh).
enum class TrackOrder : std::int32_t {
    slots = 0,   //!< every slot, in slot order
    alive = 1,   //!< the live slots only, in slot order
    charge = 2,  //!< the live slots only: charged ones first, then neutral (Celeritas' partitioning)
    //! the tracks moved every iteration so that the live ones are slots [0, alive), charged ones
    //! first: the charge order's groups in contiguous slots (a scheduling choice: the secondaries
    //! enter the stack in the new slot order, so the iteration count, the stack peak and the
    //! interactions held back may differ from the other orders; hits, tallies, the other counters
    //! and energy balances do not)
    compact = 3,
};

struct DetectorTables {
    std::vector<PlacedVolume> volumes;  //!< [0] is the world
    std::vector<BvhNode> nodes;
    std::vector<std::int32_t> items;
    std::vector<PolyconeSection> sections;  //!< the polycones' sections (GeometryView::sections)
    std::vector<MaterialParams> materials;
    std::vector<ParticleType> particles;
    MagneticField field;            //!< map pointers are filled in by the backend
    std::vector<double> field_map;  //!< the values of a map field (empty otherwise)
    PropagationParams propagation;
    PhysicsParams physics;
    GunParams gun;
    //! given primaries: gun.first_primary + i is primary_list[i] (empty: the gun draws them)
    std::vector<Primary> primary_list;
    //! events [0, end_event) hold this rank's events (per-event sums are indexed by the global event number);
    //! 0: gun.primaries / gun.per_event (the gun's fixed count a event)
    std::uint64_t end_event = 0;
    std::uint64_t seed = 0;
    std::int32_t num_logical = 1;        //!< logical volumes (tally bins), the world included
    EmTableData em;                      //!< the shower tables (physics.showers)
    std::uint64_t secondary_buffer = 0;  //!< secondaries an iteration may create; more are held back
    TrackOrder track_order = TrackOrder::slots;
    bool track_lengths = false;  //!< record per-event track lengths (EventTrackLength.hh; showers only)
};

}  // namespace gt
