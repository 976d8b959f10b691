// Building t-code entries (see TimeCodeBuilder.hh).
#include "beam/TimeCodeBuilder.hh"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

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

}  // namespace gt
