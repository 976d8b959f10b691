// Synchrotron radiation integrals of a ring from its periodic optics (docs/optics.md).
#pragma once

#include "beam/Lattice.hh"
#include "deck/Config.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "optics/Optics.hh"

namespace gt::optics {

//! The integrals of the rows of `r` (a periodic solution) through the deck's sbends, each body in 64
//! Simpson intervals of its first-order transport (the dispersion and Twiss inside), with the edge
//! terms of I4.
//! With `lattice`, also the cavities' total voltage and the synchronous phase acos(U0 / (|q| V)).
RadiationIntegrals radiation_integrals(DeckConfig const& deck, OpticsResult const& r,
                                       ReferenceParticle const& ref, Lattice const* lattice = nullptr);

}  // namespace gt::optics
