// Building 3D field-map elements (see FieldMap3DBuilder.hh).
#include "beam/FieldMap3DBuilder.hh"

#include <algorithm>
#include <cmath>
#include <utility>

#include "beam/RfCrest.hh"

namespace gt {

std::vector<double> lay_out_field_map(FieldMap3DFile const& map, double e_scale, double b_scale,
                                      FieldLayout layout)
{
    auto const nodes = static_cast<std::size_t>(map.nodes());
    std::size_t const fields = (map.e.empty() ? 0 : 1) + (map.b.empty() ? 0 : 1);
    std::size_t const components = 3 * fields;
    std::vector<double> out(nodes * components);
    std::size_t first = 0;
    for (auto const* field : {&map.e, &map.b}) {
        if (field->empty()) continue;
        double const scale = field == &map.e ? e_scale : b_scale;
        for (std::size_t node = 0; node < nodes; ++node)
            for (std::size_t c = 0; c < 3; ++c) {
                std::size_t const q = first + c;
                std::size_t const at =
                    layout == FieldLayout::interleaved ? node * components + q : q * nodes + node;
                out[at] = (*field)[3 * node + c] * scale;
            }
        first += 3;
    }
    return out;
}

EmFieldGrid append_field_grid(FieldMap3DFile const& map, double e_scale, double b_scale, FieldLayout layout,
                              std::vector<double>& field_data)
{
    std::vector<double> const values = lay_out_field_map(map, e_scale, b_scale, layout);
    auto const offset = static_cast<std::int64_t>(field_data.size());
    field_data.insert(field_data.end(), values.begin(), values.end());
    EmFieldGrid grid{};
    grid.values = field_data.data() + offset;
    grid.offset = offset;
    grid.nodes = map.nodes();
    grid.has_e = !map.e.empty();
    grid.has_b = !map.b.empty();
    grid.components = 3 * ((grid.has_e ? 1 : 0) + (grid.has_b ? 1 : 0));
    grid.set_layout(layout);
    for (int a = 0; a < 3; ++a) {
        auto const u = static_cast<std::size_t>(a);
        grid.n[a] = map.dimensions[u];
        grid.lo[a] = map.origin[u];
        grid.inv_spacing[a] = 1.0 / map.spacing[u];
    }
    return grid;
}

GridPeaks grid_peaks(EmFieldGrid const& grid)
{
    GridPeaks out;
    for (std::int64_t node = 0; node < grid.nodes; ++node) {
        std::int32_t first = 0;
        for (double* peak : {grid.has_e ? &out.e : nullptr, grid.has_b ? &out.b : nullptr}) {
            if (!peak) continue;
            double sum = 0.0;
            for (std::int32_t c = 0; c < 3; ++c) {
                double const v = grid.values[grid.index(node, first + c)];
                sum += v * v;
            }
            *peak = std::max(*peak, std::sqrt(sum));
            first += 3;
        }
    }
    return out;
}

FieldMap3DSlices build_field_map_3d(FieldMap3DRequest const& r, EmFieldGrid const& grid,
                                    ReferenceParticle const& entry)
{
    SliceSpec const spec = slice_spec(r.length, r.slices, r.steps_per_slice, r.dz, r.frequency);
    auto const make_slice = [&](int i) {
        FieldMap3D m{};
        m.grid = grid;
        m.rf = r.frequency > 0.0;
        m.z_begin = i * spec.slice_length;
        return m;
    };
    auto crested = track_reference_from_crest<FieldMap3DError, FieldMap3D>(spec, r.frequency > 0.0, r.phase,
                                                                           entry, make_slice);
    FieldMap3DSlices out;
    out.crest_phase = crested.crest_phase;
    out.slices = std::move(crested.track.slices);
    out.reference_after = std::move(crested.track.after);
    return out;
}

}  // namespace gt
