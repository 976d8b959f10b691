// The element registry: for each element type one entry (src/deck/elements/) holding its parameter
// schema (kinds, units, bounds, defaults, one-line docs), its checks across keys, its builder into the
// element table, its `gtrack check` description and its MAD-X and ELEGANT names. The deck reader, the
// lattice builder, `gtrack check`, `--set`, the importers (`gtrack elements --json`) and the element
// tables of docs/decks.md (`gtrack elements --markdown`, compared by DeckKeysDocumentedTest) read it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "deck/Config.hh"
#include "deck/DeckError.hh"
#include "deck/Units.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "kernels/elements/Element.hh"

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
    std::string_view default_doc;           //!< docs/decks.md's default column, where not the value itself
    std::string_view allowed_doc;           //!< docs/decks.md's allowed column, where not the bound itself
    std::string_view unit_doc;              //!< docs/decks.md's unit column, where not the kind's unit
};

class ElementCheck;
class ElementBuild;

//! One element type: everything gtrack knows about it outside its kernel.
struct ElementSpec {
    std::string_view type;
    std::string_view doc;
    std::vector<ParamSpec> params;          //!< besides the common ones
    std::vector<std::string_view> madx;     //!< MAD-X types scripts/import_madx.py converts into it
    std::vector<std::string_view> elegant;  //!< ELEGANT types scripts/import_elegant.py converts into it
    //! Rules across keys, beyond each key's own (deck/ElementBuild.hh); null: none.
    void (*check)(ElementCheck& c) = nullptr;
    //! Appends the element's entries to the table (deck/ElementBuild.hh).
    void (*build)(ElementBuild& b) = nullptr;
    //! The parameters column of `gtrack check` for one entry the type built (`after`: the reference
    //! after it); entries tracked by a map or in time are described by describe_entry itself.
    std::string (*describe)(Element const& e, ReferenceParticle const& after) = nullptr;
};

//! Keys every element accepts: type, dx, dy, tilt, slices, lsc, wake.
std::vector<ParamSpec> const& common_element_params();

//! Every element type, in the order docs/decks.md lists them: the registry.
std::vector<ElementSpec> const& element_schema();

//! The entry of a type, or nullptr.
ElementSpec const* find_element_spec(std::string_view type);

//! The type names, for "did you mean".
std::vector<std::string> element_type_names();

//! The spec of a key of a type (its own or a common one), or nullptr.
ParamSpec const* find_param(ElementSpec const& spec, std::string_view key);

//! A numeric parameter of a checked element: the deck's value, else the schema's default (fintx
//! falls back to fint, as in MAD-X). The deck reader stores only what the deck gave, so that a
//! consumer can tell "absent" from "given"; this is the one place defaults come from.
//! Throws std::logic_error for a key the element's type does not have or that has no default.
double element_value(ElementConfig const& element, std::string_view key);

//! Checks an element as the lattice builder receives it (from the deck reader or built by code):
//! its type, unknown keys, each value against its spec, then the type's own rules. Appends one
//! Diagnostic per problem; returns whether there were none.
bool check_element(ElementConfig const& element, std::vector<Diagnostic>& problems);

//! The parameters column of `gtrack check` for one table entry made from a deck element of `type`.
std::string describe_entry(std::string_view type, Element const& e, ReferenceParticle const& after);

//! "> 0", ">= 0", ">= 1", or "" for Bound::any.
std::string_view bound_text(Bound bound);
//! Whether value satisfies bound.
bool within_bound(double value, Bound bound);

//! docs/decks.md's two element tables (the keys every element takes, the keys by type), as
//! `gtrack elements --markdown` prints them.
std::string element_tables_markdown();

//! The registry as JSON (`gtrack elements --json`; scripts/gtrack_elements.json): each type's keys and its
//! MAD-X and ELEGANT names, for the importers.
std::string element_registry_json();

}  // namespace gt
