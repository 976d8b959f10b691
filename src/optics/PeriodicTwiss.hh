// [beam.twiss] periodic = true: the beam's Twiss parameters from the ring's periodic solution.
#pragma once

#include "deck/Config.hh"

namespace gt::optics {

//! Fills deck.beam's beta and alpha of x and y with the periodic solution at the start of the lattice
//! (compute_optics on the deck's own maps); where the ring has dispersion there and the beam an energy
//! spread, the beam's 6x6 second moments with the dispersion's correlations (x = x_beta + D pt ...).
//! Throws a DeckError at beam.twiss.periodic when the ring has no closed orbit or periodic solution.
void apply_periodic_twiss(DeckConfig& deck);

}  // namespace gt::optics
