// Key paths into arrays of named tables: `geometry.volume.absorber.half_size` is the key `half_size` of
// the [[geometry.volume]] entry whose name is "absorber" (--set, --unset and [scan] reach volumes so).
#pragma once

#include <toml++/toml.h>
#include <string>
#include <vector>

namespace gt::deck {

//! An array of tables each with a string `name` ([[geometry.volume]]): a key path addresses its entries by
//! name. An empty array is not one (no entry to name).
bool is_named_array(toml::node const& n);

//! The names of the entries of a named array, in order.
std::vector<std::string> entry_names(toml::array const& a);

//! The entry of `a` named `name`; null with `why` saying what is wrong (no such name, with a suggestion;
//! two entries of that name). `path` is the array's key path, for the message.
toml::table const* named_entry(toml::array const& a, std::string const& path, std::string const& name,
                               std::string& why);

}  // namespace gt::deck
