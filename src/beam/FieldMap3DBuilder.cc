// Building 3D field-map elements (see FieldMap3DBuilder.hh).
#include "beam/FieldMap3DBuilder.hh"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "beam/RfCrest.hh"

namespace gt {

namespace {

struct ReferenceTrack {
    std::vector<FieldMap3D> slices;
    std::vector<ReferenceParticle> after;
};

//! Tracks the reference through every slice at RF phase `phase` (at the element's entry); nullopt
//! with `why` set when it is reflected or stopped.
std::optional<ReferenceTrack> track_reference(FieldMap3DRequest const& r, EmFieldGrid const& grid,
                                              ReferenceParticle const& entry, double phase, std::string& why)
{
    ReferenceTrack out;
    ReferenceParticle ref = entry;
    double const slice_length = r.length / r.slices;
    int const steps =
        r.steps_per_slice > 0
            ? r.steps_per_slice
            : std::max(1, static_cast<int>(std::ceil(slice_length / r.dz - 1e-6)));
    double tau_elapsed = 0.0;
    for (int i = 0; i < r.slices; ++i) {
        FieldMap3D m{};
        m.grid = grid;
        m.rf = r.frequency > 0.0;
        m.z_begin = i * slice_length;
        m.length = slice_length;
        m.steps = steps;
        m.k_rf = constants::two_pi * r.frequency / constants::c_light;
        m.phase = phase;
        m.tau_begin = tau_elapsed;
        m.kappa = ref.charge_e / (ref.pc_mev * 1e6);
        m.inv_beta0 = 1.0 / ref.beta;
        Particle p{0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
        if (!m.integrate(p)) {
            why = fmt::format("the reference particle is reflected in slice {} of {} (z = {:.6g} to {:.6g} m)",
                              i + 1, r.slices, m.z_begin, m.z_begin + slice_length);
            return std::nullopt;
        }
        double const kinetic = ref.kinetic_mev - p.pt * ref.pc_mev;
        if (!(kinetic > 0.0)) {
            why = fmt::format("the reference particle is stopped in slice {} of {}", i + 1, r.slices);
            return std::nullopt;
        }
        ReferenceParticle after = ref;
        if (p.pt != 0.0) after.set_kinetic(kinetic);
        after.s = ref.s + slice_length;
        after.t = ref.t + p.t / constants::c_light;
        m.pt_ref_end = p.pt;
        m.tau_ref_end = p.t;
        m.momentum_ratio = ref.pc_mev / after.pc_mev;
        tau_elapsed += p.t;
        out.slices.push_back(m);
        out.after.push_back(after);
        ref = after;
    }
    return out;
}

}  // namespace

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
                std::size_t const at = layout == FieldLayout::interleaved ? node * components + q : q * nodes + node;
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
    FieldMap3DSlices out;
    std::string why;
    if (r.frequency > 0.0) {
        auto const crest = find_rf_crest([&](double phase) -> std::optional<double> {
            auto const t = track_reference(r, grid, entry, phase, why);
            if (!t) return std::nullopt;
            return t->after.back().kinetic_mev;
        });
        if (!crest) throw FieldMap3DError("the reference particle passes at no RF phase: " + why);
        out.crest_phase = *crest;
    }
    auto track = track_reference(r, grid, entry, out.crest_phase + r.phase, why);
    if (!track) throw FieldMap3DError(why);
    out.slices = std::move(track->slices);
    out.reference_after = std::move(track->after);
    return out;
}

}  // namespace gt
