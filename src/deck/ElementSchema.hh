// The element schema: every element type, its keys, their units, defaults and allowed ranges.
//
// One table drives both the deck reader's checks and docs/decks.md (written from it by hand: keep
// the two in sync when a key is added).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "deck/Config.hh"
#include "deck/Units.hh"

namespace gt {

enum class ParamType {
    number,        //!< a quantity: bare number in the kind's default unit, or a string with a unit
    integer,       //!< a whole number (stored as a double in ElementConfig::values)
    choice,        //!< one of a list of strings
    number_array,  //!< an array of bare numbers
    flag,          //!< true or false (stored as 1 or 0 in ElementConfig::values)
    text,          //!< any string (a file name, an element name), in ElementConfig::strings
};

//! Allowed range of a number.
enum class Bound {
    any,
    non_negative,  //!< >= 0
    positive,      //!< > 0
    at_least_one,  //!< >= 1 (integers)
};

struct ParamSpec {
    std::string_view key;
    ParamType type = ParamType::number;
    QuantityKind const* kind = &quantity::dimensionless;  //!< for numbers
    Bound bound = Bound::any;
    bool required = false;
    std::optional<double> default_value;    //!< the value when the deck omits the key (stored unit)
    std::vector<std::string_view> choices;  //!< for choice: the allowed values
    std::string_view default_choice;        //!< for choice; empty: none
    std::string_view doc;                   //!< one line for docs/decks.md
};

struct ElementSpec {
    std::string_view type;
    std::string_view doc;
    std::vector<ParamSpec> params;  //!< besides the common ones
};

//! Keys every element accepts: type, dx, dy, tilt, slices.
std::vector<ParamSpec> const& common_element_params();

//! Every element type, in the order docs/decks.md lists them.
std::vector<ElementSpec> const& element_schema();

//! The spec of a type, or nullptr.
ElementSpec const* find_element_spec(std::string_view type);

//! The type names, for "did you mean".
std::vector<std::string> element_type_names();

//! A numeric parameter of a checked element: the deck's value, else the schema's default (fintx
//! falls back to fint, as in MAD-X). The deck reader stores only what the deck gave, so that a
//! consumer can tell "absent" from "given"; this is the one place defaults come from.
//! Throws std::logic_error for a key the element's type does not have or that has no default.
double element_value(ElementConfig const& element, std::string_view key);

//! "> 0", ">= 0", ">= 1", or "" for Bound::any.
std::string_view bound_text(Bound bound);
//! Whether value satisfies bound.
bool within_bound(double value, Bound bound);

}  // namespace gt
