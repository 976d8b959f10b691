// Reading the sections of a detector deck (kind = "detector") into DeckConfig::detector, with the
// diagnostics of the beamline reader (file:line:column, key path, did-you-mean; all at once).
#pragma once

#include "deck/Config.hh"
#include "deck/DeckParser.hh"

namespace gt {

//! Reads every section of `root` but [run] (read already) into cfg.detector and cfg.output.file;
//! problems go to p's diagnostics.
void read_detector_deck(deck_detail::DeckParserBase& p, toml::table const& root, DeckConfig& cfg);

}  // namespace gt
