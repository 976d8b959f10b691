// Synchrotron radiation integrals of a ring from its periodic optics (docs/optics.md).
#pragma once

#include "deck/Config.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "optics/Optics.hh"

namespace gt::optics {

//! The integrals of the rows of `r` (a periodic solution) through the deck's sbends, each body in 64
//! Simpson intervals of its first-order transport (the dispersion and Twiss inside), with the edge
//! terms of I4.
RadiationIntegrals radiation_integrals(DeckConfig const& deck, OpticsResult const& r,
                                       ReferenceParticle const& ref);

}  // namespace gt::optics
