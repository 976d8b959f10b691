// Where the space-charge kicks go in a lattice, how strong each is, and what each one reports.
//
// Every element with a length and `n` kicks (kicks_per_element, or ceil(L kicks_per_meter)) is cut
// into 2 n c slices (c >= 1 keeps the deck's own `slices` as a lower bound); a kick of
// ds = L / n acts after slice c of every group of 2 c: half map, kick, half map (second order).
// A thick kicker cannot be sliced: one kick of ds = L follows it. A t-code entry is kicked inside, at
// fixed time (TimeCodeSpaceCharge.hh).
#pragma once

#include <cstdint>
#include <vector>

#include "beam/Lattice.hh"
#include "deck/Config.hh"
#include "io/TableWriter.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "kernels/spacecharge/SpaceChargeKernels.hh"

namespace gt {

struct SpaceChargeKickPoint {
    std::int64_t entry = 0;  //!< the kick acts after this table entry
    double ds = 0;           //!< [m] the length of lattice the kick stands for
};

//! Kicks in an element of length L [m] under these settings (>= 1).
std::int64_t space_charge_kicks_in(SpaceChargeConfig const& sc, double length);

//! The deck with every sliceable element cut for its space-charge kicks (a copy; unchanged when off).
DeckConfig with_space_charge_slices(DeckConfig const& deck);

//! The kicks of one pass of `lattice`, built from with_space_charge_slices(deck), in entry order
//! (none after a t-code entry: its kicks are inside it).
std::vector<SpaceChargeKickPoint> space_charge_schedule(Lattice const& lattice, DeckConfig const& deck);

//! The t-code entries of `lattice` when space charge is on: each is pushed as a bunch with kicks at
//! fixed time between its time steps (run/TimeCodeSpaceCharge.hh).
std::vector<std::int64_t> time_code_space_charge_entries(Lattice const& lattice, DeckConfig const& deck);

//! Space charge over several MPI ranks is bit-identical to one process only with the exact
//! fixed-point deposition and without sorting (which reorders each rank's share differently from
//! the whole beam's): throws a DeckError naming the key otherwise.
void check_space_charge_over_ranks(SpaceChargeConfig const& sc);

//! The solver settings a deck's [space_charge] asks for.
SpaceChargeSettings space_charge_settings(SpaceChargeConfig const& sc);

//! The rest frame of a kick: the reference particle there and the macroparticle charge.
BeamFrame beam_frame(ReferenceParticle const& ref, double bunch_charge, std::uint64_t macroparticles);

//! Columns of the per-kick diagnostics table (/space_charge in the output file).
std::vector<std::pair<std::string, std::string>> space_charge_columns();
//! Marks its wall-clock columns (t_sort ... t_kick) as timings, measurements of the run (io/Measurement.hh).
void mark_space_charge_timings(Table& table);
//! One row of it.
std::vector<double> space_charge_row(SpaceChargeDiagnostics const& d, double s, std::int64_t turn,
                                     std::int64_t entry, double ds);

}  // namespace gt
