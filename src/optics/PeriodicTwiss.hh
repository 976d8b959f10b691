// [beam.twiss] periodic = true: the beam's Twiss parameters from the ring's periodic solution, found
// where the beam is made (the run's initial beam, `gtrack check`, `gtrack optics --line`), not by the
// deck reader: the deck only records BeamConfig::periodic.
#pragma once

#include "deck/Config.hh"

namespace gt::optics {

//! deck.beam with periodic = true resolved: beta and alpha of x and y from the periodic solution at the
//! start of the lattice (compute_optics on the deck's own maps); where the ring has dispersion there
//! and the beam an energy spread, the beam's 6x6 second moments with the dispersion's correlations
//! (x = x_beta + D pt ...). The result has periodic = false (resolved). Any other beam is returned as
//! it is. Throws a DeckError at beam.twiss.periodic when the ring has no closed orbit or periodic
//! solution.
BeamConfig with_periodic_twiss(DeckConfig const& deck);

}  // namespace gt::optics
