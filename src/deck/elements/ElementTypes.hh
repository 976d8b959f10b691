// The registry's entries, one function per element type (each in its own file here), and the small
// helpers they are written with: ParamSpec constructors, the rules and descriptions several types share.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "deck/ElementBuild.hh"
#include "deck/ElementRegistry.hh"

namespace gt::elements {

// ---- the entries (ElementRegistry.cc lists them) --------------------------------------------------

ElementSpec marker_type();
ElementSpec monitor_type();
ElementSpec drift_type();
ElementSpec quadrupole_type();
ElementSpec sbend_type();
ElementSpec multipole_type();
ElementSpec sextupole_type();
ElementSpec octupole_type();
ElementSpec solenoid_type();
ElementSpec rfcavity_type();
ElementSpec field_map_type();
ElementSpec kicker_type();
ElementSpec aperture_type();
ElementSpec collimator_type();
ElementSpec wake_type();
ElementSpec srotation_type();
ElementSpec dipedge_type();
ElementSpec thin_solenoid_type();
ElementSpec beam_shift_type();

// ---- keys ---------------------------------------------------------------------------------------

inline ParamSpec required(std::string_view key, QuantityKind const& kind, Bound bound, std::string_view doc)
{
    ParamSpec p;
    p.key = key;
    p.kind = &kind;
    p.bound = bound;
    p.required = true;
    p.doc = doc;
    return p;
}

inline ParamSpec optional(std::string_view key, QuantityKind const& kind, Bound bound, double fallback,
                          std::string_view doc)
{
    ParamSpec p = required(key, kind, bound, doc);
    p.required = false;
    p.default_value = fallback;
    return p;
}

inline ParamSpec integer(std::string_view key, double fallback, std::string_view doc)
{
    ParamSpec p = optional(key, quantity::dimensionless, Bound::at_least_one, fallback, doc);
    p.type = ParamType::integer;
    return p;
}

inline ParamSpec choice(std::string_view key, std::vector<std::string_view> choices,
                        std::string_view fallback, std::string_view doc)
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
inline ParamSpec optional_choice(std::string_view key, std::vector<std::string_view> choices,
                                 std::string_view doc)
{
    ParamSpec p = choice(key, std::move(choices), "", doc);
    p.required = false;
    return p;
}

inline ParamSpec array(std::string_view key, std::string_view doc)
{
    ParamSpec p;
    p.key = key;
    p.type = ParamType::number_array;
    p.doc = doc;
    return p;
}

//! A key that is required or forbidden depending on another (checked by the type's check).
inline ParamSpec conditional(std::string_view key, QuantityKind const& kind, Bound bound,
                             std::string_view doc)
{
    ParamSpec p = required(key, kind, bound, doc);
    p.required = false;
    return p;
}

inline ParamSpec conditional_integer(std::string_view key, std::string_view doc)
{
    ParamSpec p = conditional(key, quantity::dimensionless, Bound::at_least_one, doc);
    p.type = ParamType::integer;
    return p;
}

inline ParamSpec flag(std::string_view key, std::string_view doc)
{
    ParamSpec p;
    p.key = key;
    p.type = ParamType::flag;
    p.default_value = 0.0;
    p.doc = doc;
    return p;
}

inline ParamSpec text(std::string_view key, std::string_view doc)
{
    ParamSpec p;
    p.key = key;
    p.type = ParamType::text;
    p.doc = doc;
    return p;
}

//! The spec with its docs/decks.md columns set where they are not the value and bound themselves.
inline ParamSpec documented(ParamSpec p, std::string_view default_doc, std::string_view allowed_doc = {},
                            std::string_view unit_doc = {})
{
    p.default_doc = default_doc;
    p.allowed_doc = allowed_doc;
    p.unit_doc = unit_doc;
    return p;
}

// ---- shared by several types (SharedRules.cc) ----------------------------------------------------

//! `tracking`, `time_step` (and `time_integrator` when `integrator`) of an element that can be
//! tracked in time; `integrator_doc` is its default and rule.
std::vector<ParamSpec> time_code_keys(
    bool integrator, std::string_view tracking_doc = {},
    std::string_view integrator_default = "Boris; RK4 for a cavity",
    std::string_view integrator_doc = "t-code integrator (Boris only for static magnetic fields)");

//! `profile`, `scale`, `amplitude` and `substeps`: the keys of a solenoid or cavity given by its on-axis
//! field profile. `profile_doc` (a string literal: the registry keeps views) is the doc of `profile`,
//! `amplitude_kind` the field's unit.
std::vector<ParamSpec> profile_keys(std::string_view profile_doc, QuantityKind const& amplitude_kind);

//! The keys of a solenoid or cavity given by an on-axis profile and which exclude which: with
//! `profile`, `length` and `strength` are errors; without, `scale`, `amplitude`, `substeps` are.
void check_profile_keys(ElementCheck& c, std::string const& strength);

//! The `gtrack check` text of an entry tracked in time or through a map (t-code, on-axis profile, 3D map).
std::string describe_map_entry(Element const& e, ReferenceParticle const& after);

//! "rectangle 2 x 1 mm".
std::string describe_aperture(Aperture const& a);

}  // namespace gt::elements
