// The element schema table (see ElementSchema.hh); docs/decks.md mirrors it.
#include "deck/ElementSchema.hh"

#include <stdexcept>

#include <fmt/format.h>

#include "kernels/field/EmFieldGrid.hh"

namespace gt {

namespace {

ParamSpec required(std::string_view key, QuantityKind const& kind, Bound bound, std::string_view doc)
{
    ParamSpec p;
    p.key = key;
    p.kind = &kind;
    p.bound = bound;
    p.required = true;
    p.doc = doc;
    return p;
}

ParamSpec optional(std::string_view key, QuantityKind const& kind, Bound bound, double fallback,
                   std::string_view doc)
{
    ParamSpec p = required(key, kind, bound, doc);
    p.required = false;
    p.default_value = fallback;
    return p;
}

ParamSpec integer(std::string_view key, double fallback, std::string_view doc)
{
    ParamSpec p = optional(key, quantity::dimensionless, Bound::at_least_one, fallback, doc);
    p.type = ParamType::integer;
    return p;
}

ParamSpec choice(std::string_view key, std::vector<std::string_view> choices, std::string_view fallback,
                 std::string_view doc)
{
    ParamSpec p;
    p.key = key;
    p.type = ParamType::choice;
    p.choices = std::move(choices);
    p.default_choice = fallback;
    p.required = fallback.empty();
    p.doc = doc;
    return p;
}

//! A choice with no default of its own (its absence means: what another section says).
ParamSpec optional_choice(std::string_view key, std::vector<std::string_view> choices, std::string_view doc)
{
    ParamSpec p = choice(key, std::move(choices), "", doc);
    p.required = false;
    return p;
}

ParamSpec array(std::string_view key, std::string_view doc)
{
    ParamSpec p;
    p.key = key;
    p.type = ParamType::number_array;
    p.doc = doc;
    return p;
}

//! A key that is required or forbidden depending on another (checked where the element is built).
ParamSpec conditional(std::string_view key, QuantityKind const& kind, Bound bound, std::string_view doc)
{
    ParamSpec p = required(key, kind, bound, doc);
    p.required = false;
    return p;
}

ParamSpec conditional_integer(std::string_view key, std::string_view doc)
{
    ParamSpec p = conditional(key, quantity::dimensionless, Bound::at_least_one, doc);
    p.type = ParamType::integer;
    return p;
}

ParamSpec flag(std::string_view key, std::string_view doc)
{
    ParamSpec p;
    p.key = key;
    p.type = ParamType::flag;
    p.default_value = 0.0;
    p.doc = doc;
    return p;
}

ParamSpec text(std::string_view key, std::string_view doc)
{
    ParamSpec p;
    p.key = key;
    p.type = ParamType::text;
    p.doc = doc;
    return p;
}

using namespace quantity;

}  // namespace

std::vector<ParamSpec> const& common_element_params()
{
    static std::vector<ParamSpec> const params = {
        choice("type",
               {"marker", "monitor", "drift", "quadrupole", "sbend", "multipole", "sextupole", "octupole",
                "solenoid", "rfcavity", "field_map", "kicker", "aperture", "collimator", "wake"},
               "", "the element type"),
        optional("dx", length, Bound::any, 0.0, "horizontal misalignment"),
        optional("dy", length, Bound::any, 0.0, "vertical misalignment"),
        optional("tilt", angle, Bound::any, 0.0, "roll about the reference orbit (s axis)"),
        integer("slices", 1.0, "number of slices the element is split into (statistics, space-charge kicks)"),
        flag("lsc", "longitudinal space charge after each slice (elements with a length)"),
        text("wake", "name of a `wake` element applied at this element's exit (elements with a length)"),
    };
    return params;
}

std::vector<ElementSpec> const& element_schema()
{
    static std::vector<ElementSpec> const schema = {
        {"marker", "a named point, no effect on the beam", {}},
        {"monitor", "a named point where statistics or phase space can be written", {}},
        {"drift",
         "field-free space",
         {
             required("length", length, Bound::non_negative, "length"),
             choice("model", {"linear", "exact"}, "exact", "paraxial (linear) or exact drift map"),
             optional_choice("tracking", {"z", "t", "auto"},
                             "independent variable: s (z-code), time (t-code) or chosen by the bunch length "
                             "(default: [run] tracking)"),
             conditional("time_step", time, Bound::positive,
                         "t-code time step (default: from the accuracy rule, docs/physics.md)"),
         }},
        {"quadrupole",
         "thick quadrupole, with chromatic effects",
         {
             required("length", length, Bound::positive, "length"),
             required("k1", per_length2, Bound::any, "normalized gradient (> 0 focuses horizontally)"),
             choice("model", {"linear", "exact", "kick"}, "exact",
                    "linear map, exact thick map, or symplectic kick-drift integration"),
             integer("kicks", 4.0, "kicks per slice for model = \"kick\""),
             optional_choice("tracking", {"z", "t", "auto"},
                             "independent variable: s (z-code), time (t-code) or chosen by the bunch length "
                             "(default: [run] tracking)"),
             conditional("time_step", time, Bound::positive,
                         "t-code time step (default: from the accuracy rule, docs/physics.md)"),
             optional_choice("time_integrator", {"boris", "rk4"},
                             "t-code integrator (default: boris for static magnetic fields, rk4 with E)"),
         }},
        {"sbend",
         "sector bend with pole-face angles and edge focusing",
         {
             required("length", length, Bound::positive, "arc length"),
             required("angle", angle, Bound::any, "bending angle"),
             optional("e1", angle, Bound::any, 0.0, "entrance pole-face angle"),
             optional("e2", angle, Bound::any, 0.0, "exit pole-face angle"),
             optional("fint", dimensionless, Bound::non_negative, 0.0, "entrance fringe-field integral"),
             optional("fintx", dimensionless, Bound::non_negative, 0.0,
                      "exit fringe-field integral (default: fint)"),
             optional("hgap", length, Bound::non_negative, 0.0, "half gap of the magnet (fringe field)"),
             optional("k1", per_length2, Bound::any, 0.0, "normalized gradient (combined-function bend)"),
             flag("csr", "coherent synchrotron radiation after each body slice ([collective] csr_transient, csr_drift)"),
         }},
        {"multipole",
         "thin multipole kick of any order",
         {
             array("knl", "integrated normal strengths: knl[n] in 1/m^n (bare numbers)"),
             array("ksl", "integrated skew strengths: ksl[n] in 1/m^n (bare numbers)"),
         }},
        {"sextupole",
         "thick sextupole, symplectic kick-drift integration",
         {
             required("length", length, Bound::positive, "length"),
             required("k2", per_length3, Bound::any, "normalized strength"),
             optional("k2s", per_length3, Bound::any, 0.0, "normalized skew strength"),
             integer("kicks", 4.0, "kicks per slice"),
         }},
        {"octupole",
         "thick octupole, symplectic kick-drift integration",
         {
             required("length", length, Bound::positive, "length"),
             required("k3", per_length4, Bound::any, "normalized strength"),
             optional("k3s", per_length4, Bound::any, 0.0, "normalized skew strength"),
             integer("kicks", 4.0, "kicks per slice"),
         }},
        {"solenoid",
         "thick hard-edge solenoid, or a solenoid given by its on-axis field profile",
         {
             conditional("length", length, Bound::positive, "length (hard edge; required without profile)"),
             conditional("ks", per_length, Bound::any, "strength B_s / (B rho) (required without profile)"),
             text("profile", "on-axis Bz(z) file (docs/decks.md); the length comes from the file"),
             optional("scale", dimensionless, Bound::any, 1.0, "multiplies the profile's field"),
             conditional("amplitude", magnetic_field, Bound::positive,
                         "peak on-axis field: scales the profile (instead of scale)"),
             conditional_integer("substeps",
                                 "RK4 steps per slice through a profile (default: one per map interval)"),
             optional_choice("tracking", {"z", "t", "auto"},
                             "independent variable: s (z-code), time (t-code) or chosen by the bunch length "
                             "(default: [run] tracking)"),
             conditional("time_step", time, Bound::positive,
                         "t-code time step (default: from the accuracy rule, docs/physics.md)"),
             optional_choice("time_integrator", {"boris", "rk4"},
                             "t-code integrator (default: boris for static magnetic fields, rk4 with E)"),
         }},
        {"rfcavity",
         "RF cavity: a thin buncher (length 0), a thick cavity, or a cavity given by its on-axis Ez profile",
         {
             optional("length", length, Bound::non_negative, 0.0, "length (0: thin buncher)"),
             conditional("voltage", voltage, Bound::any, "peak voltage (required without profile)"),
             text("profile", "on-axis Ez(z) file (docs/decks.md); the length comes from the file"),
             optional("scale", dimensionless, Bound::any, 1.0, "multiplies the profile's field"),
             conditional("amplitude", electric_field, Bound::positive,
                         "peak on-axis field: scales the profile (instead of scale)"),
             conditional_integer("substeps",
                                 "RK4 steps per slice through a profile (default: one per map interval)"),
             required("frequency", frequency, Bound::positive, "RF frequency"),
             optional("phase", quantity::phase, Bound::any, 0.0,
                      "RF phase, 0 on crest (a bare number is in degrees; stored in rad)"),
             optional_choice("tracking", {"z", "t", "auto"},
                             "independent variable: s (z-code), time (t-code) or chosen by the bunch length "
                             "(default: [run] tracking)"),
             conditional("time_step", time, Bound::positive,
                         "t-code time step (default: from the accuracy rule, docs/physics.md)"),
             optional_choice("time_integrator", {"boris", "rk4"},
                             "t-code integrator (default: boris for static magnetic fields, rk4 with E)"),
         }},
        {"field_map",
         "static or RF E and B on a 3D Cartesian grid (HDF5 file), trilinear interpolation, RK4 in s or in time",
         {
             text("file", "the map (HDF5, layout in docs/decks.md); relative to the deck's directory"),
             required("length", length, Bound::positive, "length: the element spans the map's z from 0 to it"),
             optional("e_scale", dimensionless, Bound::any, 1.0, "multiplies the map's E"),
             optional("b_scale", dimensionless, Bound::any, 1.0, "multiplies the map's B"),
             conditional("frequency", frequency, Bound::positive,
                         "RF frequency (default: the file's frequency; neither: static fields)"),
             optional("phase", quantity::phase, Bound::any, 0.0,
                      "RF phase, 0 on crest (a bare number is in degrees; stored in rad)"),
             conditional_integer("substeps", "RK4 steps per slice (default: one per map interval along z)"),
             choice("layout", {"interleaved", "planar"}, field_layout_name(k_default_field_layout),
                    "device layout of the grid: a node's components together, or one array per component"),
             optional_choice("tracking", {"z", "t", "auto"},
                             "independent variable: s (z-code), time (t-code) or chosen by the bunch length "
                             "(default: [run] tracking)"),
             conditional("time_step", time, Bound::positive,
                         "t-code time step (default: from the accuracy rule, docs/physics.md)"),
             optional_choice("time_integrator", {"boris", "rk4"},
                             "t-code integrator (default: boris for B only, rk4 with E)"),
         }},
        {"kicker",
         "corrector: a thin kick (length 0), or a kick in the middle of a drift",
         {
             optional("length", length, Bound::non_negative, 0.0, "length"),
             optional("hkick", angle, Bound::any, 0.0, "horizontal kick"),
             optional("vkick", angle, Bound::any, 0.0, "vertical kick"),
         }},
        {"aperture",
         "thin aperture: particles outside are lost",
         {
             choice("shape", {"rectangle", "ellipse"}, "", "aperture shape"),
             required("half_x", length, Bound::positive, "horizontal half width"),
             required("half_y", length, Bound::positive, "vertical half width"),
         }},
        {"collimator",
         "a drift with an aperture",
         {
             choice("shape", {"rectangle", "ellipse"}, "", "aperture shape"),
             required("half_x", length, Bound::positive, "horizontal half width"),
             required("half_y", length, Bound::positive, "vertical half width"),
             required("length", length, Bound::non_negative, "length"),
         }},
        {"wake",
         "a thin wakefield kick: a built-in model or a table file",
         {
             choice("model", {"resonator", "resistive_wall", "table"}, "", "the wake function"),
             choice("plane", {"longitudinal", "transverse"}, "longitudinal",
                    "longitudinal (energy) or transverse dipole wake"),
             optional("r_shunt", resistance, Bound::positive, 0.0, "longitudinal resonator: shunt impedance"),
             optional("r_transverse", resistance_per_length, Bound::positive, 0.0,
                      "transverse resonator: shunt impedance per unit offset"),
             optional("q", dimensionless, Bound::positive, 0.0, "resonator quality factor (> 1/2)"),
             optional("frequency", quantity::frequency, Bound::positive, 0.0, "resonator frequency"),
             optional("radius", length, Bound::positive, 0.0, "resistive wall: pipe radius"),
             optional("conductivity", quantity::conductivity, Bound::positive, 0.0,
                      "resistive wall: conductivity of the wall"),
             optional("pipe_length", length, Bound::positive, 0.0, "resistive wall: length of the pipe"),
             text("file", "table: two columns, s [m] (or t [s]) and W [V/C] or [V/C/m], units in the header"),
         }},
    };
    return schema;
}

ElementSpec const* find_element_spec(std::string_view type)
{
    for (auto const& s : element_schema())
        if (s.type == type) return &s;
    return nullptr;
}

std::vector<std::string> element_type_names()
{
    std::vector<std::string> names;
    for (auto const& s : element_schema()) names.emplace_back(s.type);
    return names;
}

double element_value(ElementConfig const& element, std::string_view key)
{
    if (auto const it = element.values.find(std::string(key)); it != element.values.end()) return it->second;
    if (key == "fintx" && element.type == "sbend") return element_value(element, "fint");
    ElementSpec const* spec = find_element_spec(element.type);
    auto const default_of = [&](std::vector<ParamSpec> const& params) -> std::optional<double> {
        for (auto const& p : params)
            if (p.key == key) return p.default_value;
        return std::nullopt;
    };
    std::optional<double> v = default_of(common_element_params());
    if (!v && spec) v = default_of(spec->params);
    if (!v) {
        throw std::logic_error(fmt::format("element '{}' ({}): '{}' is neither given nor has a default",
                                           element.name, element.type, key));
    }
    return *v;
}

std::string_view bound_text(Bound bound)
{
    switch (bound) {
        case Bound::non_negative:
            return ">= 0";
        case Bound::positive:
            return "> 0";
        case Bound::at_least_one:
            return ">= 1";
        case Bound::any:
            break;
    }
    return "";
}

bool within_bound(double value, Bound bound)
{
    switch (bound) {
        case Bound::non_negative:
            return value >= 0.0;
        case Bound::positive:
            return value > 0.0;
        case Bound::at_least_one:
            return value >= 1.0;
        case Bound::any:
            break;
    }
    return true;
}

}  // namespace gt
