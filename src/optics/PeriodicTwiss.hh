// [beam.twiss] periodic = true: the beam's Twiss parameters from the ring's periodic solution.
#pragma once

#include "deck/Config.hh"

namespace gt::optics {

//! Whether [beam.twiss] said periodic = true: the reader leaves beta_x = beta_y = 0 then (a value no deck
//! can give) for apply_periodic_twiss to fill.
inline bool wants_periodic_twiss(DeckConfig const& deck)
{
    return deck.run.kind != "detector" && !deck.beam.sigma_matrix && deck.beam.x.beta == 0.0 &&
           deck.beam.y.beta == 0.0;
}

//! Fills deck.beam's beta and alpha of x and y with the periodic solution at the start of the lattice
//! (compute_optics on the deck's own maps); where the ring has dispersion there and the beam an energy
//! spread, the beam's 6x6 second moments with the dispersion's correlations (x = x_beta + D pt ...).
//! Throws a DeckError at beam.twiss.periodic when the ring has no closed orbit or periodic solution.
void apply_periodic_twiss(DeckConfig& deck);

}  // namespace gt::optics
