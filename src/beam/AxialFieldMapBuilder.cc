// Building profile elements (see AxialFieldMapBuilder.hh).
#include "beam/AxialFieldMapBuilder.hh"

#include <utility>

#include "beam/CubicSpline.hh"
#include "beam/RfCrest.hh"

namespace gt {

CubicSplineProfile append_axial_profile(AxialMapRequest const& r, std::vector<double>& field_data)
{
    std::vector<double> scaled = r.profile.values;
    for (double& v : scaled) v *= r.scale;
    std::vector<double> const coefficients = natural_cubic_spline(scaled, r.profile.dz);
    auto const offset = static_cast<std::int64_t>(field_data.size());
    field_data.insert(field_data.end(), coefficients.begin(), coefficients.end());
    return CubicSplineProfile{
        field_data.data() + offset, offset,       static_cast<std::int32_t>(r.profile.values.size() - 1),
        r.profile.z_first,          r.profile.dz, 1.0 / r.profile.dz};
}

AxialMapSlices build_axial_field_map(AxialMapRequest const& r, ReferenceParticle const& entry,
                                     std::vector<double>& field_data)
{
    CubicSplineProfile const profile = append_axial_profile(r, field_data);
    SliceSpec const spec =
        slice_spec(r.profile.length(), r.slices, r.steps_per_slice, r.profile.dz, r.frequency);
    auto const make_slice = [&](int i) {
        AxialFieldMap m{};
        m.profile = profile;
        m.rf = r.rf;
        m.z_begin = r.profile.z_first + i * spec.slice_length;
        return m;
    };
    auto crested =
        track_reference_from_crest<AxialMapError, AxialFieldMap>(spec, r.rf, r.phase, entry, make_slice);
    AxialMapSlices out;
    out.slice_length = spec.slice_length;
    out.crest_phase = crested.crest_phase;
    out.slices = std::move(crested.track.slices);
    out.reference_after = std::move(crested.track.after);
    return out;
}

}  // namespace gt
