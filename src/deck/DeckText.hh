// Small text helpers shared by the deck section readers: key paths, and values as the user wrote them.
#pragma once

#include <toml++/toml.h>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gt::deck {

//! "beam" + "twiss" -> "beam.twiss"; "" + "beam" -> "beam".
std::string join_key(std::string_view prefix, std::string_view key);

//! Without leading and trailing blanks and tabs.
std::string_view trim(std::string_view s);

//! "elements.QF.k1" -> {"elements", "QF", "k1"}, each segment trimmed (empty ones kept, to be reported).
std::vector<std::string> split_key(std::string_view key);

//! What a node is, for "got ..." in messages: "a string (\"x\")", "an integer (3)", "a table", ...
std::string describe_node(toml::node const& n);

//! The value as the user wrote it, for "got ..." in range errors.
std::string written(toml::node const& n);

//! "\"a\", \"b\", \"c\"" for lists of choices in messages.
std::string quoted_list(std::vector<std::string> const& names);

template <class Range>
std::vector<std::string> to_strings(Range const& r)
{
    return std::vector<std::string>(r.begin(), r.end());
}

//! The text of a TOML basic string's content (backslashes and quotes escaped).
std::string escape_basic_string(std::string_view s);

//! A number as TOML text that stays a float ("2.0", not "2").
std::string float_text(double v);

//! A value as inline TOML text, to be read again when it is applied; nullopt for dates.
std::optional<std::string> toml_text(toml::node const& n);

}  // namespace gt::deck
