// [strips] over the ranks of a detector run, giving the tables of one process (docs/cluster.md).
//
// Events cannot be split: in free streaming the signals of neighbouring events pile up in a channel's
// dead time and make clusters together. Every stage after the transport is local to one sensor (a
// step's charge goes to the sensor of its midpoint, pulses and clusters to one side, hits pair the two
// sides of one sensor), so the strip volumes (stations) are split instead: each rank takes a
// contiguous range of them, balanced by their steps, and receives those volumes' steps (rows of /hits)
// from the ranks that ran their events, in row order. Its chain then gives exactly the digis,
// clusters, hits and quality of its stations that one process gives.
#pragma once

#include <memory>
#include <vector>

#include "deck/Config.hh"
#include "detector/GeometryBuilder.hh"
#include "detector/StripRun.hh"
#include "kernels/detector/Hit.hh"

namespace gt {

class OutputFile;

//! Collective: the strip stage of this rank's `hits` (its events' sorted hits; every rank's follow the
//! previous rank's). With one rank, run_strip_stage. Under MPI the outcome holds this rank's stations'
//! digis, clusters and reconstructed hits, whose steps (`truth`) are rows of the whole /hits table, the
//! quality of every station and the totals of every rank.
std::shared_ptr<StripOutcome> run_strip_stage_over_ranks(DeckConfig const& cfg,
                                                         GeometryTables const& geometry,
                                                         std::vector<Hit> const& hits, bool gpu);

//! Collective: the strip tables of every rank's outcome into rank 0's `out` (nullptr elsewhere), as one
//! process writes them: /digis in time order (the ranks' digis merged on rank 0), /clusters and
//! /reco_hits in rank order (each rank's stations follow the previous rank's), /strip_quality.
void write_strip_tables_over_ranks(OutputFile* out, StripOutcome const& o);

//! The ranks' contiguous ranges of strip volumes, balanced by their steps: owner[v] for each volume
//! (non-decreasing; rank r takes the volumes whose steps' midpoint in the running count falls in r's
//! share of the total).
std::vector<int> strip_volume_owners(std::vector<std::uint64_t> const& steps, int ranks);

}  // namespace gt
