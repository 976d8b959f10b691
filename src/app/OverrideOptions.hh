// --set KEY=VALUE and --unset KEY on a sub-command's command line, applied in the order given.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace gt {

//! Adds the repeatable options --set (described by set_help; values into sets) and --unset (keys
//! into unsets) to cmd.
void add_override_options(CLI::App& cmd, std::vector<std::string>& sets, std::vector<std::string>& unsets,
                          std::string const& set_help);

//! After parsing: the --set and --unset of cmd in command-line order, as the deck reader takes
//! them ("KEY=VALUE", "--unset KEY").
std::vector<std::string> overrides_in_order(CLI::App const& cmd);

}  // namespace gt
