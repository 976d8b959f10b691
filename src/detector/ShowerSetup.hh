// The shower part of a detector run's set-up (physics.showers): the e-, e+, photon particle table,
// the material compositions and the shower tables (src/detector/EmTableBuilder.cc).
#pragma once

#include "deck/Config.hh"
#include "detector/DetectorSetup.hh"

namespace gt {

//! Adds the shower tables to `s` when cfg asks for showers (nothing otherwise). Throws
//! std::invalid_argument naming the material and element when an element has no photon data.
void add_shower_tables(DeckConfig const& cfg, DetectorSetup& s);

}  // namespace gt
