// What a shower run writes and prints besides hits and tallies: each event's energy balance and
// the secondary counters.
#pragma once

#include "run/DetectorRun.hh"
#include "io/OutputFile.hh"

namespace gt {

//! The table `energy_balance` (event, primary, deposited, below_cut, escaped, lost [MeV]) and the
//! attributes detector.secondaries, detector.held_back, detector.secondary_stack_peak.
void write_energy_balance(OutputFile& out, DetectorRunResult const& r);

//! Summed over events: where the energy went, and the secondary counters.
void print_shower_summary(DetectorRunResult const& r);

}  // namespace gt
