// The element table while it is built, and a deck element's occurrence in it (see TableBuilder.hh).
#include "beam/TableBuilder.hh"

#include <memory>

#include "beam/FieldMap3DBuilder.hh"
#include "beam/MapOccurrences.hh"

namespace gt {

TableBuilder::TableBuilder(ReferenceParticle const& begin)
{
    lattice_.reference_begin = begin;
    ref_ = begin;
}

void TableBuilder::add(Element e, ElementInfo info, double length)
{
    info.s_begin = ref_.s;
    ref_.s += length;
    ref_.t += length / (ref_.beta * constants::c_light);
    info.s_end = ref_.s;
    push(e, std::move(info));
}

void TableBuilder::add_with_reference(Element e, ElementInfo info, ReferenceParticle const& after)
{
    info.s_begin = ref_.s;
    ref_ = after;
    info.s_end = ref_.s;
    push(e, std::move(info));
}

EmFieldGrid TableBuilder::field_grid(std::string const& path, double e_scale, double b_scale,
                                     FieldLayout layout, double& dz)
{
    auto file = files_.find(path);
    if (file == files_.end()) file = files_.emplace(path, read_field_map_3d(path)).first;
    dz = file->second.spacing[2];
    auto const key = std::make_tuple(path, e_scale, b_scale, static_cast<int>(layout));
    auto grid = grids_.find(key);
    if (grid == grids_.end())
        grid =
            grids_.emplace(key, append_field_grid(file->second, e_scale, b_scale, layout, field_data_)).first;
    EmFieldGrid g = grid->second;
    g.values = field_data_.data() + g.offset;
    return g;
}

Lattice TableBuilder::finish()
{
    lattice_.length = ref_.s - lattice_.reference_begin.s;
    auto data = std::make_shared<std::vector<double> const>(std::move(field_data_));
    for (Element& e : lattice_.elements) bind_field_data(e, data->data());
    lattice_.field_data = std::move(data);
    return std::move(lattice_);
}

void TableBuilder::push(Element e, ElementInfo info)
{
    e.index = static_cast<std::int32_t>(lattice_.elements.size());
    lattice_.elements.push_back(e);
    lattice_.info.push_back(std::move(info));
    lattice_.reference_after.push_back(ref_);
}

// ---- one occurrence ---------------------------------------------------------------------------------

OccurrenceBuilder::OccurrenceBuilder(TableBuilder& table, ElementConfig const& cfg, int deck_index,
                                     std::string path, TrackingContext const& tracking)
    : ElementBuild(cfg), table_(table), deck_index_(deck_index), path_(std::move(path)), tracking_(tracking)
{
}

ElementInfo OccurrenceBuilder::info(int slice, int slices) const
{
    ElementInfo i;
    i.name = config().name;
    i.type = config().type;
    i.slice = slice;
    i.slices = slices;
    i.is_monitor = config().type == "monitor";
    i.deck_index = deck_index_;
    return i;
}

Element OccurrenceBuilder::with_photons(Element e) const
{
    if (tracking_.quantum && radiation_in_magnets())
        set_quantum_excitation(
            e, QuantumExcitation{quantum_excitation_constant(reference()), tracking_.photon_key});
    return e;
}

void OccurrenceBuilder::add(Element const& e, int slice, int slices, double length)
{
    table_.add(with_photons(e), info(slice, slices), length);
}

void OccurrenceBuilder::add_with_reference(Element const& e, int slice, int slices,
                                           ReferenceParticle const& after)
{
    table_.add_with_reference(with_photons(e), info(slice, slices), after);
}

bool OccurrenceBuilder::add_if_tracked_in_time(TimeField field, double length, double k1, double ks)
{
    MapParams const p = map_params(*this);
    std::string const mode = p.tracking.empty() ? tracking_.mode : p.tracking;
    bool const has_field =
        (field == TimeField::quadrupole && k1 != 0.0) || (field == TimeField::solenoid && ks != 0.0);
    TrackingChoice const choice =
        choose_tracking(mode, has_field ? length : 0.0, table_.reference().beta * tracking_.sigma_t);
    if (!choice.time) return false;
    TimeCodeRequest r;
    r.field = field;
    r.length = length;
    r.k1 = k1;
    r.ks = ks;
    ElementInfo i = info(0, 1);
    i.tracking = tracking_note(mode, choice);
    add_time_code(table_, config(), p, entry(ElementKind::time_code), std::move(i), r, nullptr);
    return true;
}

void OccurrenceBuilder::add_profile_map()
{
    add_profile_occurrence(
        table_, config(), map_params(*this), path_, entry(ElementKind::axial_field_map),
        [this](int slice, int slices) { return info(slice, slices); }, tracking_);
}

void OccurrenceBuilder::add_field_map()
{
    add_field_map_occurrence(
        table_, config(), map_params(*this), path_, entry(ElementKind::field_map_3d),
        [this](int slice, int slices) { return info(slice, slices); }, tracking_);
}

}  // namespace gt
