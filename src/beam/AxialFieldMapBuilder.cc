// Building profile elements (see AxialFieldMapBuilder.hh).
#include "beam/AxialFieldMapBuilder.hh"

#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "beam/CubicSpline.hh"
#include "beam/RfCrest.hh"

namespace gt {

namespace {

struct ReferenceTrack {
    std::vector<AxialFieldMap> slices;
    std::vector<ReferenceParticle> after;
};

//! Tracks the reference through every slice at RF phase `phase` (at its cavity entry); nullopt
//! with `why` set when it is reflected or stopped.
std::optional<ReferenceTrack> track_reference(AxialMapRequest const& r, CubicSplineProfile const& profile,
                                              ReferenceParticle const& entry, double phase, std::string& why)
{
    ReferenceTrack out;
    ReferenceParticle ref = entry;
    double const slice_length = r.profile.length() / r.slices;
    int const steps = r.steps_per_slice > 0
                          ? r.steps_per_slice
                          : std::max(1, static_cast<int>(std::ceil(slice_length / r.profile.dz - 1e-6)));
    double tau_elapsed = 0.0;
    for (int i = 0; i < r.slices; ++i) {
        AxialFieldMap m{};
        m.profile = profile;
        m.rf = r.rf;
        m.z_begin = r.profile.z_first + i * slice_length;
        m.length = slice_length;
        m.steps = steps;
        m.k_rf = constants::two_pi * r.frequency / constants::c_light;
        m.phase = phase;
        m.tau_begin = tau_elapsed;
        m.kappa = ref.charge_e / (ref.pc_mev * 1e6);
        m.inv_beta0 = 1.0 / ref.beta;
        Particle p{0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
        if (!m.integrate(p)) {
            why =
                fmt::format("the reference particle is reflected in slice {} of {} (z = {:.6g} to {:.6g} m)",
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

//! The phase of maximum energy gain of the reference.
double find_crest(AxialMapRequest const& r, CubicSplineProfile const& profile, ReferenceParticle const& entry)
{
    std::string why;
    auto const crest = find_rf_crest([&](double phase) -> std::optional<double> {
        auto const t = track_reference(r, profile, entry, phase, why);
        if (!t) return std::nullopt;
        return t->after.back().kinetic_mev;
    });
    if (!crest) throw AxialMapError("the reference particle passes at no RF phase: " + why);
    return *crest;
}

}  // namespace

AxialMapSlices build_axial_field_map(AxialMapRequest const& r, ReferenceParticle const& entry,
                                     std::vector<double>& field_data)
{
    std::vector<double> scaled = r.profile.values;
    for (double& v : scaled) v *= r.scale;
    std::vector<double> const coefficients = natural_cubic_spline(scaled, r.profile.dz);
    auto const offset = static_cast<std::int64_t>(field_data.size());
    field_data.insert(field_data.end(), coefficients.begin(), coefficients.end());
    CubicSplineProfile const profile{
        field_data.data() + offset, offset,       static_cast<std::int32_t>(r.profile.values.size() - 1),
        r.profile.z_first,          r.profile.dz, 1.0 / r.profile.dz};
    AxialMapSlices out;
    out.slice_length = r.profile.length() / r.slices;
    out.crest_phase = r.rf ? find_crest(r, profile, entry) : 0.0;
    std::string why;
    auto track = track_reference(r, profile, entry, out.crest_phase + r.phase, why);
    if (!track) throw AxialMapError(why);
    out.slices = std::move(track->slices);
    out.reference_after = std::move(track->after);
    return out;
}

}  // namespace gt
