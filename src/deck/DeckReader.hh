// Reading a deck: TOML text and --set overrides -> a checked DeckConfig, or one DeckError listing
// every problem (file:line:column, key path, what was expected).
#pragma once

#include <string>
#include <vector>

#include "deck/Config.hh"

namespace gt {

//! Reads the deck at path, applies overrides ("beam.kinetic_energy=300 MeV", ...) and checks it.
//! Throws DeckError with all diagnostics (an unreadable file is one diagnostic too).
DeckConfig read_deck(std::string const& path, std::vector<std::string> const& overrides = {});

//! The same for deck text held in memory; name stands for the file in diagnostics and gives the
//! default run name (its stem).
DeckConfig read_deck_text(std::string const& text, std::string const& name,
                          std::vector<std::string> const& overrides = {});

}  // namespace gt
