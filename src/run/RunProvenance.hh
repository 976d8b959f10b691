// The provenance every output of a deck carries: this build, the deck, the command line, the scan point.
#pragma once

#include <string>

#include "deck/Config.hh"
#include "io/Provenance.hh"

namespace gt {

//! Provenance with the build (version, git hash, options), the deck (path, text, overrides, seed),
//! the command line and, for a scan point, its index and values filled in; the caller adds the
//! backend, the device and the times.
Provenance run_provenance(DeckConfig const& deck, std::string const& command_line);

}  // namespace gt
