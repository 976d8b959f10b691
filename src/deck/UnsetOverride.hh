// --unset KEY among the overrides the deck reader takes: the entry "--unset KEY" removes the key,
// in command-line order with the "KEY=VALUE" entries of --set (so a table can be emptied and then
// set afresh: --unset field --set field.type=solenoid ...).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gt {

inline constexpr std::string_view k_unset_prefix = "--unset ";

//! The overrides entry of --unset KEY.
inline std::string unset_override(std::string_view key)
{
    return std::string(k_unset_prefix) + std::string(key);
}

//! KEY when entry is an --unset entry, else nullopt (a --set entry).
inline std::optional<std::string> unset_key_of(std::string_view entry)
{
    if (!entry.starts_with(k_unset_prefix)) return std::nullopt;
    return std::string(entry.substr(k_unset_prefix.size()));
}

}  // namespace gt
