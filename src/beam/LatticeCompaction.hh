// The element table as tracked with `[lattice] merge_drifts = true`: consecutive drifts merged into one
// entry and entries that do nothing (markers, monitors, empty thin multipoles, zero kickers) left out,
// the rest of the table unchanged. The CPU and GPU track the same compacted table (the same bits on
// both); against the full table the coordinates differ by the round-off of the merged drifts' sums.
#pragma once

#include <cstddef>

#include "beam/Lattice.hh"
#include "deck/Config.hh"

namespace gt {

//! True for an entry whose map leaves every particle as it is: a marker or monitor, a thin multipole
//! without coefficients, a kicker of zero kicks and zero length; none misaligned.
bool does_nothing(Element const& e);

//! `lattice` with runs of consecutive drifts of one model (and the entries that do nothing between them)
//! merged into one drift entry of their summed length, and every other entry that does nothing left out.
//! An entry named in `deck.output.phase_space` is kept (it is an output point). A merged entry is reported
//! as the first drift of its run: its name, deck index and entrance, and the exit of the run's last
//! entry; a particle lost in it (an exact drift loses only a particle whose pz^2 <= 0, which depends on its
//! momenta alone, not on the length) is therefore named as the full table names it. Entries are renumbered
//! (Element::index = position), and `compacted_from` records the full table's length.
Lattice compact_lattice(Lattice const& lattice, DeckConfig const& deck);

//! build_lattice for tracking: the table compacted when the deck asks (`[lattice] merge_drifts`), which
//! is refused (DeckError) with space charge, collective effects or a detector, whose schedules name the
//! entries of the full table.
Lattice build_tracking_lattice(DeckConfig const& deck, ReferenceParticle const& begin);

}  // namespace gt
