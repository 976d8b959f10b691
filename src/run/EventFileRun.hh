// [gun] file: a detector run whose primaries are the final-state particles of a HepMC3 event file, one gtrack
// event per file event, given to the run through the gun's primary list (the mechanism every source of
// given primaries uses, as a beamline's losses do: run/BeamDetectorRun.hh).
#pragma once

#include <string>

#include "deck/Config.hh"
#include "run/DetectorRun.hh"

namespace gt {

class OutputFile;
struct HepMcEvents;

//! Reads the deck's event file (the events [gun] selects), then runs them as given primaries: under MPI each
//! rank runs its share of the events. A file that cannot be read, or is not a HepMC3 ASCII listing, throws
//! HepMcError naming the file and line before anything runs.
DetectorRunResult run_event_file(DeckConfig const& cfg, DetectorRunOptions const& options);

//! /event_file (the events' numbers in the file, their primaries and weights) and /event_file_not_transported
//! (final-state particles gtrack does not transport, by PDG id); docs/output.md.
void write_event_file_part(OutputFile& out, HepMcEvents const& events);

//! The lines `gtrack run` prints about the events read and the particles not transported.
void print_event_file_summary(HepMcEvents const& events);

//! The checkpoint fingerprint of a run of these events: the deck's, and every primary and weight read.
std::string event_file_fingerprint(std::string const& deck_fingerprint, HepMcEvents const& events);

}  // namespace gt
