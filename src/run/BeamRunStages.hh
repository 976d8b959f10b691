// The last stages of a beamline run (run/BeamRun.cc): output, then the report.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "beam/BeamStatistics.hh"
#include "beam/Lattice.hh"
#include "deck/Config.hh"
#include "io/Provenance.hh"
#include "io/TableWriter.hh"
#include "kernels/beam/BeamKernels.hh"
#include "perf/Profile.hh"
#include "run/BeamRun.hh"

namespace gt {

class OutputFile;

//! /lattice: the flattened table (index, position, deck element) and the entry names, so that the
//! element indices in /stats and /lost (and a study's loss records) can be read without the deck.
void write_lattice(OutputFile& out, Lattice const& lattice);

//! The tables a beamline run fills while it tracks (null: that effect is off).
struct BeamRunTables {
    Table const& stats;
    Table const* space_charge = nullptr;
    Table const* collective = nullptr;
};

//! What the output stage found, for the report.
struct BeamRunTotals {
    std::vector<std::int64_t> lost_at;            //!< losses per table entry, over all ranks
    std::uint64_t lost = 0;                       //!< their sum
    std::map<std::string, KernelRecord> records;  //!< every backend's kernel times
    std::optional<Profile> profile;               //!< with --profile
};

//! The output stage (collective under MPI): the loss records (only the lost particles come to the
//! host), then on rank 0 the tables, the lattice, provenance and profile. `timers`: the other
//! backends' (space charge, collective effects).
BeamRunTotals write_beamline_output(DeckConfig const& deck, RunOptions const& options, BeamKernels& kernels,
                                    ParticleView particles, Lattice const& lattice,
                                    BeamRunTables const& tables,
                                    std::vector<KernelTimer const*> const& timers, Provenance prov,
                                    OutputFile* out);

//! The commit stage (rank 0's file, null elsewhere): the file renamed into place, the run's checkpoint
//! removed.
void commit_beamline_output(OutputFile* out, std::string const& checkpoint_path);

//! The report stage (rank 0 unless quiet): the summary, the timing table, the profile.
void report_beamline(RunOptions const& options, Lattice const& lattice, std::uint64_t macroparticles,
                     BeamRunTables const& tables, BeamRunTotals const& totals, BeamStatistics const& last,
                     std::string const& path, std::int64_t snapshots, double wall);

}  // namespace gt
