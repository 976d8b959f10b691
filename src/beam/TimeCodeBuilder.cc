// Building t-code entries (see TimeCodeBuilder.hh).
#include "beam/TimeCodeBuilder.hh"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "beam/RfCrest.hh"

namespace gt {

TrackingChoice choose_tracking(std::string const& mode, double field_scale, double sigma_s)
{
    if (mode == "z") return {false, "z-code"};
    if (mode == "t") return {true, "t-code"};
    if (!(field_scale > 0.0)) return {false, "z-code (auto: no field)"};
    if (!(sigma_s > 0.0)) return {false, "z-code (auto: bunch length unknown)"};
    double const ratio = field_scale / sigma_s;
    if (ratio < k_auto_bunch_lengths)
        return {true, fmt::format("t-code (auto: field scale {:.3g} m = {:.3g} rms bunch lengths < {:.3g})",
                                  field_scale, ratio, k_auto_bunch_lengths)};
    return {false, fmt::format("z-code (auto: field scale {:.3g} m = {:.3g} rms bunch lengths)", field_scale, ratio)};
}

TimeCode make_time_code(TimeCodeRequest const& r, ReferenceParticle const& entry)
{
    bool const grid = r.field == TimeField::grid_map;
    bool const rf = (r.field == TimeField::axial_map && r.map.rf) || (grid && r.grid_map.rf);
    bool const has_e = rf || (grid && r.grid_map.grid.has_e);
    TimeCode t{};
    t.field = r.field;
    if (r.integrator == "boris" && has_e)
        throw std::invalid_argument(fmt::format("the Boris integrator is for static magnetic fields; {} needs rk4",
                                                grid ? "a map with E" : "a cavity"));
    t.integrator = r.integrator == "boris"  ? TimeIntegrator::boris
                   : r.integrator == "rk4"  ? TimeIntegrator::rk4
                   : has_e                  ? TimeIntegrator::rk4
                                            : TimeIntegrator::boris;
    t.length = r.length;
    t.k1 = r.k1;
    t.ks = r.ks;
    if (grid)
        t.grid_map = r.grid_map;
    else
        t.map = r.map;
    t.inv_beta0 = 1.0 / entry.beta;
    t.mu2 = 1.0 / (entry.beta_gamma * entry.beta_gamma);
    if (r.field == TimeField::axial_map) {
        t.tau_ref_end = r.map.tau_ref_end;
        t.pt_ref_end = r.map.pt_ref_end;
        t.momentum_ratio = r.map.momentum_ratio;
    } else if (grid) {
        t.tau_ref_end = r.grid_map.tau_ref_end;
        t.pt_ref_end = r.grid_map.pt_ref_end;
        t.momentum_ratio = r.grid_map.momentum_ratio;
    } else {
        t.tau_ref_end = r.length * t.inv_beta0;
        t.pt_ref_end = 0.0;
        t.momentum_ratio = 1.0;
    }
    // The accuracy rule (docs/physics.md): h = c dt such that the reference takes at least
    // k_min_time_steps steps and no phase (cyclotron, betatron, RF) advances more than
    // k_max_phase_per_step in one, nor the momentum changes by more than that fraction; a profile
    // is sampled at least once per map interval. Distances per step are h beta0.
    double const beta0 = entry.beta;
    double const transit = r.length / beta0;  // [m] c x the reference's time through the element
    double h = transit / k_min_time_steps;
    double const theta = k_max_phase_per_step;
    if (r.field == TimeField::solenoid && r.ks != 0.0) h = std::min(h, theta / (std::abs(r.ks) * beta0));
    if (r.field == TimeField::quadrupole && r.k1 != 0.0)
        h = std::min(h, theta / (std::sqrt(std::abs(r.k1)) * beta0));
    if (r.field == TimeField::axial_map) {
        h = std::min(h, r.profile_dz / beta0);
        double const kappa = std::abs(r.map.kappa);
        if (rf) {
            if (r.map.k_rf > 0.0) h = std::min(h, theta / r.map.k_rf);
            if (r.peak_field > 0.0) h = std::min(h, theta / (kappa * r.peak_field));
        } else if (r.peak_field > 0.0) {
            h = std::min(h, theta / (kappa * constants::c_light * r.peak_field * beta0));
        }
    }
    if (grid) {  // the same rule with the map's z spacing and its largest |E| and |B|
        h = std::min(h, r.profile_dz / beta0);
        double const kappa = std::abs(r.grid_map.kappa);
        if (r.grid_map.rf && r.grid_map.k_rf > 0.0) h = std::min(h, theta / r.grid_map.k_rf);
        if (r.peak_e > 0.0) h = std::min(h, theta / (kappa * r.peak_e));
        if (r.peak_b > 0.0) h = std::min(h, theta / (kappa * constants::c_light * r.peak_b * beta0));
    }
    if (r.time_step > 0.0) h = r.time_step * constants::c_light;
    t.step = h;
    double const steps = std::ceil(k_max_transit_factor * transit / h) + 2.0;
    if (!(steps < 2e9))
        throw std::invalid_argument(fmt::format(
            "the time step {:.6g} s is too small for a transit of {:.6g} s ({:.3g} steps)", h / constants::c_light,
            transit / constants::c_light, steps));
    t.max_steps = static_cast<std::int32_t>(steps);
    return t;
}

namespace {

//! The reference emitted at rest at sigma = 0 on the axis, at the exit plane: its state and time.
struct CathodeExit {
    TimeState state{};
    double sigma = 0;  //!< [m]
};

std::optional<CathodeExit> emit_reference(TimeCode const& code)
{
    TimeState s{0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    double sigma = 0.0;
    for (std::int32_t k = 0; k <= code.max_steps; ++k) {
        double sigma_exit = 0.0;
        TimeCode::Where const where = code.advance(s, sigma, code.step, sigma_exit);
        if (where == TimeCode::Where::lost) return std::nullopt;
        if (where == TimeCode::Where::exited) return CathodeExit{s, sigma_exit};
        sigma = double(k + 1) * code.step;
    }
    return std::nullopt;
}

}  // namespace

CathodeTimeCode make_cathode_time_code(TimeCodeRequest const& r, ReferenceParticle const& normalization,
                                       double phase)
{
    CathodeTimeCode out;
    TimeCode code = make_time_code(r, normalization);
    // Momenta in units of m c (the normalization reference has beta gamma = 1): w = gamma, P = beta gamma.
    code.cathode = 1;
    code.inv_beta0 = std::sqrt(2.0);
    code.mu2 = 1.0;
    bool const grid = r.field == TimeField::grid_map;
    bool const rf = (r.field == TimeField::axial_map && r.map.rf) || (grid && r.grid_map.rf);
    auto exit_at = [&](double trial) {
        if (grid)
            code.grid_map.phase = trial;
        else
            code.map.phase = trial;
        return emit_reference(code);
    };
    if (rf) {
        auto const crest = find_rf_crest([&](double trial) -> std::optional<double> {
            auto const e = exit_at(trial);
            if (!e) return std::nullopt;
            return time_state_energy(e->state, 1.0);
        });
        if (!crest)
            throw std::invalid_argument(
                "the reference particle emitted at rest at the cathode leaves the element at no RF phase "
                "(the field pulls it back into the cathode, or it is still inside after the longest transit)");
        out.crest_phase = *crest;
    }
    auto const e = exit_at(out.crest_phase + phase);
    if (!e)
        throw std::invalid_argument(
            rf ? fmt::format("the reference particle emitted at rest at the cathode does not leave the element at "
                             "{:.6g} deg from the crest",
                             phase * 180.0 / constants::pi)
               : std::string("the reference particle emitted at rest at the cathode does not leave the element: "
                             "the first element must accelerate it (an RF gun, a field with E)"));
    TimeState const& s = e->state;
    double const p2 = (s.px * s.px + s.py * s.py) + s.pz * s.pz;
    double const w = time_state_energy(s, 1.0);
    code.tau_ref_end = e->sigma;
    code.pt_ref_end = time_state_pt(s, code.inv_beta0, w);
    code.momentum_ratio = 1.0 / std::sqrt(p2);
    double const steps = std::ceil(k_max_transit_factor * e->sigma / code.step) + 2.0;
    if (steps < double(code.max_steps)) code.max_steps = static_cast<std::int32_t>(steps);
    out.code = code;
    out.after = normalization;
    out.after.set_kinetic(normalization.mass_mev * p2 / (1.0 + w));  // (gamma - 1) m c^2
    out.after.s = normalization.s + r.length;
    out.after.t = normalization.t + e->sigma / constants::c_light;
    return out;
}

}  // namespace gt
