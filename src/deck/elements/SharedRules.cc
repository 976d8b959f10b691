// What several registry entries share: the t-code keys, the keys and rules of on-axis profiles, and the
// `gtrack check` text of entries tracked in time or through a map.
#include <cmath>

#include <fmt/format.h>

#include "deck/elements/ElementTypes.hh"

namespace gt::elements {

std::vector<ParamSpec> time_code_keys(bool integrator, std::string_view tracking_doc,
                                      std::string_view integrator_default, std::string_view integrator_doc)
{
    if (tracking_doc.empty())
        tracking_doc =
            "independent variable: s (z-code), time (t-code), or `auto` (t-code where the field varies "
            "over less than 4 rms bunch lengths)²";
    std::vector<ParamSpec> keys = {
        documented(optional_choice("tracking", {"z", "t", "auto"}, tracking_doc), "`[run] tracking`"),
        documented(conditional("time_step", quantity::time, Bound::positive,
                               "t-code time step (default: docs/physics.md, \"t-code\")"),
                   "accuracy rule"),
    };
    if (integrator)
        keys.push_back(documented(optional_choice("time_integrator", {"boris", "rk4"}, integrator_doc),
                                  integrator_default));
    return keys;
}

std::vector<ParamSpec> profile_keys(std::string_view profile_doc, QuantityKind const& amplitude_kind)
{
    return {
        documented(text("profile", profile_doc), "", "file name"),
        optional("scale", quantity::dimensionless, Bound::any, 1.0,
                 "with `profile`: multiplies the file's field"),
        conditional("amplitude", amplitude_kind, Bound::positive,
                    "with `profile`: the peak on-axis field (instead of `scale`)"),
        documented(conditional_integer("substeps", "with `profile`: RK4 steps per slice"),
                   "one per map interval"),
    };
}

void check_profile_keys(ElementCheck& c, std::string const& strength)
{
    std::string const& type = c.config().type;
    if (c.has("profile")) {
        for (std::string const& key : {std::string("length"), strength})
            if (c.has(key))
                c.fail(key, fmt::format("not used with a profile: the {} comes from the profile file", key));
        if (c.has("scale") && c.has("amplitude"))
            c.fail("amplitude", "give either scale or amplitude, not both");
        return;
    }
    for (char const* key : {"scale", "amplitude", "substeps"})
        if (c.has(key)) c.fail(key, "only used with profile = \"file\"");
    if (!c.has(strength))
        c.fail(strength, fmt::format("missing: a {} needs {} (or profile = \"file\")", type, strength));
}

std::string describe_map_entry(Element const& e, ReferenceParticle const& after)
{
    std::string const energy = fmt::format(" -> E_kin={:.9g} MeV", after.kinetic_mev);
    switch (e.kind) {
        case ElementKind::time_code: {
            auto const& c = e.time_code;
            char const* const field[] = {"no field", "quadrupole", "solenoid", "profile", "3D map"};
            std::string what = field[static_cast<int>(c.field)];
            char const* const integrator = c.field == TimeField::none            ? "free flight"
                                           : c.integrator == TimeIntegrator::rk4 ? "RK4"
                                                                                 : "Boris";
            if (c.field == TimeField::quadrupole) what += fmt::format(" k1={:.6g} 1/m^2", c.k1);
            if (c.field == TimeField::solenoid) what += fmt::format(" ks={:.6g} 1/m", c.ks);
            if (c.field == TimeField::axial_map) what += c.map.rf ? " Ez" : " Bz";
            if (c.field == TimeField::grid_map)
                what += fmt::format(" {}{} {}x{}x{}{}", c.grid_map.grid.has_e ? "E" : "",
                                    c.grid_map.grid.has_b ? "B" : "", c.grid_map.grid.n[0],
                                    c.grid_map.grid.n[1], c.grid_map.grid.n[2], c.grid_map.rf ? " RF" : "");
            bool const rf = (c.field == TimeField::axial_map && c.map.rf) ||
                            (c.field == TimeField::grid_map && c.grid_map.rf);
            return fmt::format("{}, {}, dt={:.6g} s (reference: {:.0f} steps){}", what, integrator,
                               c.step / constants::c_light, std::ceil(c.tau_ref_end / c.step),
                               rf ? energy : std::string{});
        }
        case ElementKind::axial_field_map: {
            auto const& m = e.axial_field_map;
            return fmt::format("{} profile z={:.6g}..{:.6g} m, {} RK4 steps{}", m.rf ? "Ez" : "Bz", m.z_begin,
                               m.z_begin + m.length, m.steps, m.rf ? energy : std::string{});
        }
        case ElementKind::field_map_3d: {
            auto const& m = e.field_map_3d;
            return fmt::format("{}{} {}x{}x{} z={:.6g}..{:.6g} m, {} RK4 steps{}", m.grid.has_e ? "E" : "",
                               m.grid.has_b ? "B" : "", m.grid.n[0], m.grid.n[1], m.grid.n[2], m.z_begin,
                               m.z_begin + m.length, m.steps, m.rf ? energy : std::string{});
        }
        default:
            return "";
    }
}

std::string describe_aperture(Aperture const& a)
{
    static constexpr char const* sides[] = {"", ", open at +x", ", open at -x", ", open at +y",
                                            ", open at -y"};
    return fmt::format("{} {:.6g} x {:.6g} mm{}", a.shape == ApertureShape::ellipse ? "ellipse" : "rectangle",
                       a.half_x * 1e3, a.half_y * 1e3, sides[static_cast<int>(a.open_side)]);
}

}  // namespace gt::elements
