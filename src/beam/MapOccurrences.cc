// Occurrences built by tracking the reference through a field (see MapOccurrences.hh).
#include "beam/MapOccurrences.hh"

#include <cmath>

#include <fmt/format.h>

#include "beam/AxialFieldMapBuilder.hh"
#include "beam/FieldMap3DBuilder.hh"
#include "beam/OnAxisProfile.hh"
#include "deck/DeckError.hh"

namespace gt {

MapParams map_params(ElementKeys const& keys)
{
    ElementConfig const& cfg = keys.config();
    MapParams p;
    p.profile = cfg.get_string("profile", "");
    p.length = cfg.get("length", 0.0);
    p.slices = static_cast<int>(keys.value("slices"));
    p.dx = keys.value("dx");
    p.dy = keys.value("dy");
    p.tilt = keys.value("tilt");
    p.frequency = cfg.get("frequency", 0.0);
    p.phase = cfg.get("phase", 0.0);
    p.scale = cfg.get("scale", 1.0);
    p.amplitude = cfg.get("amplitude", 0.0);
    p.substeps = static_cast<int>(cfg.get("substeps", 0.0));
    p.tracking = cfg.get_string("tracking", "");
    p.time_step = cfg.get("time_step", 0.0);
    p.time_integrator = cfg.get_string("time_integrator", "");
    p.e_scale = cfg.get("e_scale", 1.0);
    p.b_scale = cfg.get("b_scale", 1.0);
    p.layout = cfg.get_string("layout", field_layout_name(k_default_field_layout)) == "planar"
                   ? FieldLayout::planar
                   : FieldLayout::interleaved;
    return p;
}

namespace {

//! How a field map or on-axis profile is tracked: the mode (the element's, else [run] tracking) and
//! what it resolves to.
struct MapTracking {
    std::string mode;
    TrackingChoice choice;
};

//! The auto rule's field scale is the map's length [m], and for RF of `frequency` [Hz] > 0 at most a
//! cell: half the distance the reference travels in one RF period (beta lambda / 2).
MapTracking map_tracking(ReferenceParticle const& entry, MapParams const& p, TrackingContext const& tracking,
                         double length, double frequency)
{
    MapTracking how;
    how.mode = p.tracking.empty() ? tracking.mode : p.tracking;
    double field_scale = length;
    if (frequency > 0.0)
        field_scale = std::min(field_scale, 0.5 * entry.beta * constants::c_light / frequency);
    how.choice = choose_tracking(how.mode, field_scale, entry.beta * tracking.sigma_t);
    return how;
}

//! A built map's entries, each ending with the reference its build tracked: one t-code entry of
//! `time_request()`, or one per slice, the prototype with `set_slice(element, slice)`.
template <class TimeRequest, class SetSlice>
void add_map_entries(TableBuilder& table, ElementConfig const& cfg, MapParams const& p,
                     Element const& prototype, std::function<ElementInfo(int, int)> const& info,
                     MapTracking const& how, std::vector<ReferenceParticle> const& reference_after,
                     TimeRequest const& time_request, SetSlice const& set_slice)
{
    if (how.choice.time) {
        ElementInfo i = info(0, 1);
        i.tracking = tracking_note(how.mode, how.choice);
        add_time_code(table, cfg, p, prototype, std::move(i), time_request(), &reference_after[0]);
        return;
    }
    for (int i = 0; i < p.slices; ++i) {
        Element e = prototype;
        set_slice(e, static_cast<std::size_t>(i));
        ElementInfo in = info(i, p.slices);
        in.tracking = tracking_note(how.mode, how.choice);
        table.add_with_reference(e, std::move(in), reference_after[static_cast<std::size_t>(i)]);
    }
}

//! The on-axis profile of a solenoid or (`rf`) cavity read from `path` and checked, with its scale:
//! the element's amplitude over the profile's peak when given, else its scale.
AxialMapRequest profile_request(ElementConfig const& cfg, MapParams const& p, std::string const& path,
                                bool rf)
{
    AxialMapRequest request;
    request.profile = read_on_axis_profile(path, rf ? ProfileQuantity::electric : ProfileQuantity::magnetic,
                                           "elements." + cfg.name + ".profile", cfg.where);
    double const peak = request.profile.peak();
    if (p.amplitude > 0.0) {
        if (!(peak > 0.0))
            throw DeckError(cfg.where, "elements." + cfg.name + ".amplitude",
                            "the profile is zero everywhere: it cannot be scaled to an amplitude");
        request.scale = p.amplitude / peak;
    } else {
        request.scale = p.scale;
    }
    return request;
}

}  // namespace

std::string tracking_note(std::string const& mode, TrackingChoice const& c)
{
    return mode == "auto" ? c.why : std::string{};
}

//! Appends one t-code entry (the whole element: its space-charge kicks are at time steps).
void add_time_code(TableBuilder& table, ElementConfig const& cfg, MapParams const& p, Element prototype,
                   ElementInfo info, TimeCodeRequest request, ReferenceParticle const* after)
{
    request.time_step = p.time_step;
    request.integrator = p.time_integrator;
    try {
        prototype.kind = ElementKind::time_code;
        prototype.time_code = make_time_code(request, table.reference());
    } catch (std::invalid_argument const& e) {
        throw DeckError(cfg.where,
                        "elements." + cfg.name + (p.time_step > 0.0 ? ".time_step" : ".time_integrator"),
                        e.what());
    }
    if (after)
        table.add_with_reference(prototype, std::move(info), *after);
    else
        table.add(prototype, std::move(info), request.length);
}

//! A 3D field map: the file read and checked (once per file), the slices built by tracking the
//! reference through them (one entry, when it is tracked in time).
void add_field_map_occurrence(TableBuilder& table, ElementConfig const& cfg, MapParams const& p,
                              std::string const& path, Element const& prototype,
                              std::function<ElementInfo(int, int)> const& info,
                              TrackingContext const& tracking)
{
    FieldMap3DRequest request;
    request.length = p.length;
    request.phase = p.phase;
    request.steps_per_slice = p.substeps;
    EmFieldGrid grid;
    try {
        grid = table.field_grid(path, p.e_scale, p.b_scale, p.layout, request.dz);
    } catch (FieldMapFileError const& e) {
        throw DeckError(cfg.where, "elements." + cfg.name + ".file", e.what());
    }
    request.frequency = p.frequency > 0.0 ? p.frequency : 0.0;
    if (request.frequency == 0.0) request.frequency = table.field_map_frequency(path);
    ReferenceParticle const& entry = table.reference();
    MapTracking const how = map_tracking(entry, p, tracking, p.length, request.frequency);
    request.slices = how.choice.time ? 1 : p.slices;
    FieldMap3DSlices built;
    try {
        built = build_field_map_3d(request, grid, entry);
    } catch (FieldMap3DError const& e) {
        throw DeckError(
            cfg.where, "elements." + cfg.name,
            fmt::format("{} ('{}', e_scale {:.6g}, b_scale {:.6g})", e.what(), path, p.e_scale, p.b_scale));
    }
    auto const in_time = [&] {
        GridPeaks const peaks = grid_peaks(grid);
        TimeCodeRequest t;
        t.field = TimeField::grid_map;
        t.length = p.length;
        t.grid_map = built.slices[0];
        t.peak_e = peaks.e;
        t.peak_b = peaks.b;
        t.profile_dz = request.dz;
        return t;
    };
    add_map_entries(table, cfg, p, prototype, info, how, built.reference_after, in_time,
                    [&](Element& e, std::size_t i) { e.field_map_3d = built.slices[i]; });
}

//! A solenoid or cavity given by its on-axis profile: the file read and checked, the slices built
//! by tracking the reference through them (one entry, when it is tracked in time).
void add_profile_occurrence(TableBuilder& table, ElementConfig const& cfg, MapParams const& p,
                            std::string const& path, Element const& prototype,
                            std::function<ElementInfo(int, int)> const& info, TrackingContext const& tracking)
{
    bool const rf = cfg.type == "rfcavity";
    std::string const key = "elements." + cfg.name + ".profile";
    AxialMapRequest request = profile_request(cfg, p, path, rf);
    double const peak = request.profile.peak();
    request.rf = rf;
    request.frequency = p.frequency;
    request.phase = p.phase;
    MapTracking const how =
        map_tracking(table.reference(), p, tracking, request.profile.length(), rf ? p.frequency : 0.0);
    request.slices = how.choice.time ? 1 : p.slices;
    request.steps_per_slice = p.substeps;
    AxialMapSlices built;
    try {
        built = build_axial_field_map(request, table.reference(), table.field_data());
    } catch (AxialMapError const& e) {
        throw DeckError(cfg.where, key,
                        fmt::format("{} ('{}', scale {:.6g})", e.what(), path, request.scale));
    }
    auto const in_time = [&] {
        TimeCodeRequest t;
        t.field = TimeField::axial_map;
        t.length = built.slices[0].length;
        t.map = built.slices[0];
        t.peak_field = peak * std::abs(request.scale);
        t.profile_dz = request.profile.dz;
        return t;
    };
    add_map_entries(table, cfg, p, prototype, info, how, built.reference_after, in_time,
                    [&](Element& e, std::size_t i) { e.axial_field_map = built.slices[i]; });
}

//! The first element of a beam emitted from a cathode (docs/physics.md, "Beams emitted from a
//! cathode"): a cavity or solenoid given by its on-axis profile, or a 3D field map, tracked in time, with the
//! reference emitted at rest at its entrance plane. Anything else is refused: the z-code divides by the
//! reference momentum, which is zero at the cathode.
void add_cathode_occurrence(TableBuilder& table, ElementConfig const& cfg, MapParams const& p, int deck_index,
                            std::string const& path, TrackingContext const& tracking)
{
    std::string const key = "elements." + cfg.name;
    bool const grid = cfg.type == "field_map";
    if (p.profile.empty() && !grid)
        throw DeckError(
            cfg.where, key + ".type",
            fmt::format("the beam is emitted from a cathode (beam.distribution = \"cathode\") at the "
                        "entrance of the first element, '{}' ({}): it must be an rfcavity (a gun) or "
                        "solenoid given by its on-axis profile, or a field_map, tracked in time "
                        "(tracking = \"t\")",
                        cfg.name, cfg.type));
    std::string const mode = p.tracking.empty() ? tracking.mode : p.tracking;
    if (mode == "z")
        throw DeckError(
            cfg.where, key + ".tracking",
            fmt::format("the beam is emitted from a cathode at rest (p = 0) at the entrance of '{}', "
                        "where the z-code (which divides by the reference momentum) cannot start: "
                        "track it in time (tracking = \"t\" or \"auto\"; [run] tracking is \"{}\")",
                        cfg.name, tracking.mode));
    ReferenceParticle const& normalization = table.reference();
    double const kappa = normalization.charge_e / (normalization.mass_mev * 1e6);  // q / (m c^2) [1/V]
    TimeCodeRequest t;
    t.time_step = p.time_step;
    t.integrator = p.time_integrator;
    bool rf = false;
    if (grid) {
        FieldMap3D m{};
        double dz = 0.0;
        try {
            m.grid = table.field_grid(path, p.e_scale, p.b_scale, p.layout, dz);
        } catch (FieldMapFileError const& e) {
            throw DeckError(cfg.where, key + ".file", e.what());
        }
        double const frequency = p.frequency > 0.0 ? p.frequency : table.field_map_frequency(path);
        rf = frequency > 0.0;
        m.rf = rf;
        m.z_begin = 0.0;
        m.length = p.length;
        m.steps = 1;
        m.k_rf = constants::two_pi * frequency / constants::c_light;
        m.kappa = kappa;
        m.inv_beta0 = std::sqrt(2.0);
        GridPeaks const peaks = grid_peaks(m.grid);
        t.field = TimeField::grid_map;
        t.length = p.length;
        t.grid_map = m;
        t.peak_e = peaks.e;
        t.peak_b = peaks.b;
        t.profile_dz = dz;
    } else {
        rf = cfg.type == "rfcavity";
        AxialMapRequest const request = profile_request(cfg, p, path, rf);
        double const peak = request.profile.peak();
        AxialFieldMap m{};
        m.profile = append_axial_profile(request, table.field_data());
        m.rf = rf;
        m.z_begin = request.profile.z_first;
        m.length = request.profile.length();
        m.steps = 1;
        m.k_rf = constants::two_pi * p.frequency / constants::c_light;
        m.kappa = kappa;
        m.inv_beta0 = std::sqrt(2.0);
        t.field = TimeField::axial_map;
        t.length = m.length;
        t.map = m;
        t.peak_field = peak * std::abs(request.scale);
        t.profile_dz = request.profile.dz;
    }
    CathodeTimeCode built;
    try {
        built = make_cathode_time_code(t, normalization, p.phase);
    } catch (std::invalid_argument const& e) {
        throw DeckError(cfg.where,
                        key + (p.time_step > 0.0 ? ".time_step"
                               : rf              ? ".phase"
                               : grid            ? ".file"
                                                 : ".profile"),
                        e.what());
    }
    Element e = Element::make(ElementKind::time_code);
    e.misaligned = p.dx != 0.0 || p.dy != 0.0 || p.tilt != 0.0;
    e.misalignment = Misalignment::make(p.dx, p.dy, p.tilt);
    e.time_code = built.code;
    ElementInfo i;
    i.name = cfg.name;
    i.type = cfg.type;
    i.deck_index = deck_index;
    i.tracking = "t-code (emission from the cathode)";
    table.add_with_reference(e, std::move(i), built.after);
}

}  // namespace gt
