// Occurrences built by tracking the reference through a field: t-code entries, solenoids and
// cavities given by an on-axis profile, 3D field maps, and the first element of a beam emitted from a
// cathode.
#pragma once

#include <functional>
#include <string>

#include "beam/TableBuilder.hh"
#include "beam/TimeCodeBuilder.hh"

namespace gt {

//! The keys of an element tracked through a field (its registry's defaults where the deck is silent).
struct MapParams {
    std::string profile;  //!< an on-axis profile file as the deck gives it; empty: none
    double length = 0;    //!< [m] (0 for a profile element: the file's span)
    int slices = 1;
    double dx = 0, dy = 0, tilt = 0;
    double frequency = 0, phase = 0;  //!< [Hz] (0: not given), [rad]
    double scale = 1.0, amplitude = 0.0;
    int substeps = 0;      //!< 0: one per map interval
    std::string tracking;  //!< z, t, auto; empty: [run] tracking
    double time_step = 0;  //!< [s] 0: the accuracy rule
    std::string time_integrator;
    double e_scale = 1.0, b_scale = 1.0;
    FieldLayout layout = k_default_field_layout;
};

//! The map keys of a checked element.
MapParams map_params(ElementKeys const& keys);

//! The note `gtrack check` prints for a choice: why, for `auto` (the kind column says which).
std::string tracking_note(std::string const& mode, TrackingChoice const& c);

//! Appends one t-code entry (the whole element: its space-charge kicks are at time steps); with
//! `after`, the reference the caller tracked, else the reference advanced at constant energy.
void add_time_code(TableBuilder& table, ElementConfig const& cfg, MapParams const& p, Element prototype,
                   ElementInfo info, TimeCodeRequest request, ReferenceParticle const* after);

//! A 3D field map: the file read and checked (once per file), the slices built by tracking the
//! reference through them (one entry, when it is tracked in time).
void add_field_map_occurrence(TableBuilder& table, ElementConfig const& cfg, MapParams const& p,
                              std::string const& path, Element const& prototype,
                              std::function<ElementInfo(int, int)> const& info,
                              TrackingContext const& tracking);

//! A solenoid or cavity given by its on-axis profile: the file read and checked, the slices built
//! by tracking the reference through them (one entry, when it is tracked in time).
void add_profile_occurrence(TableBuilder& table, ElementConfig const& cfg, MapParams const& p,
                            std::string const& path, Element const& prototype,
                            std::function<ElementInfo(int, int)> const& info,
                            TrackingContext const& tracking);

//! The first element of a beam emitted from a cathode (docs/physics.md, "Beams emitted from a
//! cathode"): a cavity or solenoid given by its on-axis profile, or a 3D field map, tracked in time, with
//! the reference emitted at rest at its entrance plane. Anything else is refused: the z-code divides by
//! the reference momentum, which is zero at the cathode.
void add_cathode_occurrence(TableBuilder& table, ElementConfig const& cfg, MapParams const& p, int deck_index,
                            std::string const& path, TrackingContext const& tracking);

}  // namespace gt
