// The element registry (see ElementRegistry.hh): the list of entries, lookups, defaults and the
// checks every element gets from its schema.
#include "deck/ElementRegistry.hh"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "deck/DeckText.hh"
#include "deck/ElementBuild.hh"
#include "deck/Suggest.hh"
#include "deck/elements/ElementTypes.hh"

namespace gt {

namespace {

constexpr double k_max_count = 1e6;  //!< slices, kicks: a larger count is surely a deck typo

std::string join(std::vector<std::string> const& v)
{
    std::string out;
    for (auto const& s : v) out += (out.empty() ? "" : ", ") + s;
    return out;
}

//! Whether a key of this type is stored among the numbers, the strings or the arrays of ElementConfig.
enum class Storage { values, strings, arrays };

Storage storage_of(ParamType type)
{
    switch (type) {
        case ParamType::choice:
        case ParamType::text:
            return Storage::strings;
        case ParamType::number_array:
            return Storage::arrays;
        default:
            return Storage::values;
    }
}

//! One given value against its spec.
void check_value(ElementCheck& c, ParamSpec const& p)
{
    std::string const key(p.key);
    ElementConfig const& cfg = c.config();
    switch (p.type) {
        case ParamType::number: {
            double const v = cfg.values.at(key);
            if (!std::isfinite(v))
                c.fail(key, "expected a finite number");
            else if (!within_bound(v, p.bound))
                c.fail(key, fmt::format("expected {} {} [{}] (got {})", p.kind->what, bound_text(p.bound),
                                        p.kind->unit, v));
            return;
        }
        case ParamType::integer: {
            double const v = cfg.values.at(key);
            if (!(v >= 1.0) || v > k_max_count || v != std::floor(v))
                c.fail(key, fmt::format("expected a whole number from 1 to {:.0f} (got {})", k_max_count, v));
            return;
        }
        case ParamType::flag:
        case ParamType::text:
            return;
        case ParamType::choice: {
            std::string const& v = cfg.strings.at(key);
            std::vector<std::string> const allowed = deck::to_strings(p.choices);
            if (std::find(allowed.begin(), allowed.end(), v) == allowed.end())
                c.fail(key,
                       "expected one of " + join(allowed) + " (got '" + v + "')" + did_you_mean(v, allowed));
            return;
        }
        case ParamType::number_array:
            for (double x : cfg.arrays.at(key))
                if (!std::isfinite(x)) {
                    c.fail(key, "expected finite numbers");
                    return;
                }
            return;
    }
}

}  // namespace

std::vector<ParamSpec> const& common_element_params()
{
    static std::vector<ParamSpec> const params = [] {
        using namespace elements;
        std::vector<std::string_view> types;
        for (auto const& s : element_schema()) types.push_back(s.type);
        ParamSpec type = choice("type", std::move(types), "", "the element type");
        type.allowed_doc = "see below";
        ParamSpec wake_key =
            text("wake", "that wake, in full, after the element's last slice (elements with a length)");
        wake_key.default_doc = "none";
        wake_key.allowed_doc = "name of a `wake` element";
        return std::vector<ParamSpec>{
            type,
            optional("dx", quantity::length, Bound::any, 0.0, "horizontal misalignment"),
            optional("dy", quantity::length, Bound::any, 0.0, "vertical misalignment"),
            optional("tilt", quantity::angle, Bound::any, 0.0, "roll about the reference orbit (s axis)"),
            integer("slices", 1.0, "slices the element is split into (statistics, space-charge kicks)"),
            flag("lsc",
                 "longitudinal space charge after every slice (elements with a length; docs/physics.md §9)"),
            wake_key,
        };
    }();
    return params;
}

std::vector<ElementSpec> const& element_schema()
{
    // The registry: one entry per type, each in its own file under deck/elements/, in the order
    // docs/decks.md lists them.
    static std::vector<ElementSpec> const registry = {
        elements::marker_type(),     elements::monitor_type(),    elements::drift_type(),
        elements::quadrupole_type(), elements::sbend_type(),      elements::multipole_type(),
        elements::sextupole_type(),  elements::octupole_type(),   elements::solenoid_type(),
        elements::rfcavity_type(),   elements::field_map_type(),  elements::kicker_type(),
        elements::aperture_type(),   elements::collimator_type(), elements::wake_type(),
        elements::srotation_type(),  elements::dipedge_type(),    elements::thin_solenoid_type(),
        elements::beam_shift_type(),
    };
    return registry;
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

ParamSpec const* find_param(ElementSpec const& spec, std::string_view key)
{
    for (auto const* list : {&common_element_params(), &spec.params})
        for (auto const& p : *list)
            if (p.key == key) return &p;
    return nullptr;
}

double element_value(ElementConfig const& element, std::string_view key)
{
    if (auto const it = element.values.find(std::string(key)); it != element.values.end()) return it->second;
    if (key == "fintx" && element.type == "sbend") return element_value(element, "fint");
    ElementSpec const* spec = find_element_spec(element.type);
    ParamSpec const* p = spec ? find_param(*spec, key) : nullptr;
    if (!p || !p->default_value) {
        throw std::logic_error(fmt::format("element '{}' ({}): '{}' is neither given nor has a default",
                                           element.name, element.type, key));
    }
    return *p->default_value;
}

bool check_element(ElementConfig const& element, std::vector<Diagnostic>& problems)
{
    std::size_t const before = problems.size();
    ElementCheck c(element, problems);
    ElementSpec const* spec = find_element_spec(element.type);
    if (!spec) {
        std::vector<std::string> const types = element_type_names();
        c.fail("type", "unknown element type '" + element.type + "'; expected one of " + join(types) +
                           did_you_mean(element.type, types));
        return false;
    }
    // Unknown keys, by where ElementConfig stores them.
    std::vector<std::string> every;
    for (auto const* list : {&spec->params, &common_element_params()})
        for (auto const& p : *list)
            if (p.key != "type") every.emplace_back(p.key);
    auto const check_unknown = [&](auto const& map, Storage storage) {
        for (auto const& [key, _] : map) {
            if (storage == Storage::strings && key == "type") continue;
            ParamSpec const* p = find_param(*spec, key);
            if (!p || storage_of(p->type) != storage)
                c.fail(key, "not a parameter of a " + element.type + "; it takes " + join(every) +
                                did_you_mean(key, every));
        }
    };
    check_unknown(element.values, Storage::values);
    check_unknown(element.strings, Storage::strings);
    check_unknown(element.arrays, Storage::arrays);
    // Each key against its spec.
    for (auto const* list : {&common_element_params(), &spec->params}) {
        for (auto const& p : *list) {
            if (p.key == "type") continue;
            if (c.has(std::string(p.key))) {
                bool const stored_right =
                    (storage_of(p.type) == Storage::values && element.values.count(std::string(p.key))) ||
                    (storage_of(p.type) == Storage::strings && element.strings.count(std::string(p.key))) ||
                    (storage_of(p.type) == Storage::arrays && element.arrays.count(std::string(p.key)));
                if (stored_right) check_value(c, p);
            } else if (p.required) {
                c.fail(std::string(p.key), fmt::format("missing: a {} needs '{}'", element.type, p.key));
            }
        }
    }
    if (problems.size() == before && spec->check) spec->check(c);
    return problems.size() == before;
}

std::string describe_entry(std::string_view type, Element const& e, ReferenceParticle const& after)
{
    // Entries tracked in time or through a map look alike whatever type made them.
    if (e.kind == ElementKind::time_code || e.kind == ElementKind::axial_field_map ||
        e.kind == ElementKind::field_map_3d)
        return elements::describe_map_entry(e, after);
    ElementSpec const* spec = find_element_spec(type);
    return spec && spec->describe ? spec->describe(e, after) : std::string{};
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

// ---- what entries see ----------------------------------------------------------------------------

std::string ElementKeys::text(std::string const& key) const
{
    if (auto const it = cfg_.strings.find(key); it != cfg_.strings.end()) return it->second;
    ElementSpec const* spec = find_element_spec(cfg_.type);
    ParamSpec const* p = spec ? find_param(*spec, key) : nullptr;
    return p ? std::string(p->default_choice) : std::string{};
}

std::vector<double> const& ElementKeys::numbers(std::string const& key) const
{
    static std::vector<double> const none;
    auto const it = cfg_.arrays.find(key);
    return it == cfg_.arrays.end() ? none : it->second;
}

Element ElementKeys::entry(ElementKind kind) const
{
    double const dx = value("dx"), dy = value("dy"), tilt = value("tilt");
    Element e = Element::make(kind);
    e.misaligned = dx != 0.0 || dy != 0.0 || tilt != 0.0;
    e.misalignment = Misalignment::make(dx, dy, tilt);
    return e;
}

}  // namespace gt
