// Output of data spread over ranks: one file, each rank's share at its place, in rank order.
//
// Rank 0 holds the (temporary) output file. It creates each per-particle dataset at its full length,
// writes its own share as the first hyperslab, then receives the other ranks' shares one at a time,
// in rank order, and writes each as the next hyperslab. No rank ever holds more than its own share
// and one other rank's: nothing gathers the whole beam. The file is the one a single process writes.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "io/OpenPmdWriter.hh"
#include "io/TableWriter.hh"
#include "kernels/core/ReferenceParticle.hh"

namespace gt {
class OutputFile;
}

namespace gt::parallel {

//! One rank's particles for a snapshot, a piece at a time: `count` in all; next() gives the next
//! piece (not empty), which must stay valid through the following call (two buffers alternating).
struct PhaseSpaceSource {
    std::uint64_t count = 0;
    std::function<PhaseSpacePiece()> next;
};

//! Collective: the live particles of every rank (`mine`), in rank order, as one phase-space record.
//! `out` is the file on rank 0 and nullptr on the others; the other arguments as write_phase_space.
//! Every rank sends its pieces as they come: no rank holds more than two pieces of any rank's share.
void write_phase_space_in_rank_order(OutputFile* out, std::int64_t iteration, std::string const& species,
                                     PhaseSpaceSource const& mine, ReferenceParticle const& ref,
                                     std::string const& where, double bunch_charge,
                                     std::uint64_t macroparticles);

//! Collective: the rows of every rank's `mine` (same columns on every rank), in rank order, as one
//! table at `group_path` of rank 0's `out`.
void write_table_in_rank_order(OutputFile* out, std::string const& group_path, Table const& mine);

//! Collective: a table whose rows come in parts (the same number on every rank, each part with the same
//! columns on every rank): part 0 of every rank in rank order, then part 1 of every rank, and so on (a
//! joined run's /primaries: every rank's lost particles, then every rank's extracted ones).
void write_table_parts_in_rank_order(OutputFile* out, std::string const& group_path,
                                     std::span<Table const> parts);

}  // namespace gt::parallel
