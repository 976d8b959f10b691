// Reading a deck: TOML text and --set overrides -> a checked DeckConfig, or one DeckError listing
// every problem (file:line:column, key path, what was expected).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "deck/Config.hh"

namespace gt {

//! Reads the deck at path, applies overrides in order ("beam.kinetic_energy=300 MeV" from --set,
//! "--unset KEY" from --unset: deck/UnsetOverride.hh) and checks it.
//! Throws DeckError with all diagnostics (an unreadable file is one diagnostic too).
//!
//! A deck with a [scan] table: with scan_index, that point's values are applied (like overrides,
//! after them) and the result is checked; without, every value of every parameter is checked (in
//! the context of point 0) and the returned configuration is point 0's, with scan_index empty and
//! output.file the unexpanded template. scan_index without a [scan], or beyond its points, is an error.
DeckConfig read_deck(std::string const& path, std::vector<std::string> const& overrides = {},
                     std::optional<std::uint64_t> scan_index = std::nullopt);

//! The same for deck text held in memory; name stands for the file in diagnostics and gives the
//! default run name (its stem).
DeckConfig read_deck_text(std::string const& text, std::string const& name,
                          std::vector<std::string> const& overrides = {},
                          std::optional<std::uint64_t> scan_index = std::nullopt);

}  // namespace gt
