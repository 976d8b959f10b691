// The strip stage of a detector run: the sorted hits (steps) of the strip volumes -> digis ->
// clusters -> reconstructed hits, on the run's backend; truth matching and quality per station; the
// /digis, /clusters, /reco_hits and /strip_quality tables (docs/output.md).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "deck/Config.hh"
#include "detector/GeometryBuilder.hh"
#include "io/TableWriter.hh"
#include "kernels/detector/StripChain.hh"

namespace gt {

//! Quality of one strip volume (a station): true points are the tracks' crossings of its middle plane.
struct StripStationQuality {
    std::string name;  //!< "station[3]"
    std::int32_t logical = 0, replica = 0;
    std::uint64_t points = 0, found = 0;    //!< true points; those with a true reconstructed hit
    std::uint64_t hits = 0, ghosts = 0;     //!< reconstructed hits; those whose clusters are of two tracks
    double residual_u = 0, residual_v = 0;  //!< rms of true hits [m]
    double pull_u = 0, pull_v = 0;          //!< rms of residual / error
    double efficiency() const { return points ? double(found) / double(points) : 0.0; }
    double ghost_rate() const { return hits ? double(ghosts) / double(hits) : 0.0; }
};

//! The counts `gtrack run` prints: this process's, or under MPI every rank's summed.
struct StripTotals {
    std::uint64_t signals = 0, pulses = 0, digis = 0, clusters = 0, hits = 0;
};

struct StripOutcome {
    StripTables tables;
    StripDigitization digitization;
    StripReconstruction reconstruction;
    std::vector<std::uint8_t> hit_true;  //!< per reconstructed hit: its clusters are of one track
    std::vector<StripStationQuality> quality;
    std::string backend;
    KernelTimer timer;
    StripTotals totals;
};

//! Runs the strip stage on `hits` (sorted as written in /hits) on the CPU or the GPU.
std::shared_ptr<StripOutcome> run_strip_stage(DeckConfig const& cfg, GeometryTables const& geometry,
                                              std::vector<Hit> const& hits, bool gpu);

//! Truth matching and per-station quality of `o` (fills hit_true and quality).
void strip_quality(StripOutcome& o, GeometryTables const& geometry, std::vector<Hit> const& hits);

Table strip_digis_table(StripOutcome const& o);
//! /digis of `digis` with their steps (rows of /hits).
Table strip_digis_table(StripParams const& p, std::vector<StripDigi> const& digis,
                        std::vector<std::uint32_t> const& truth);
Table strip_clusters_table(StripOutcome const& o);
//! /reco_hits; `cluster_offset` is added to the front and back cluster rows (a rank's share of /clusters
//! begins there).
Table strip_reco_hits_table(StripOutcome const& o, std::uint64_t cluster_offset = 0);
Table strip_quality_table(StripOutcome const& o);

class OutputFile;
//! The four tables into `out` (after /hits).
void write_strip_tables(OutputFile& out, StripOutcome const& o);

//! The lines `gtrack run` prints: counts, then efficiency, ghost rate, residuals and pulls per station.
std::string format_strip_summary(StripOutcome const& o);

//! Compares digis, clusters and hits of two outcomes bit for bit; appends a report to `text`.
bool identical_strip_outcomes(StripOutcome const& a, StripOutcome const& b, std::string& text);

}  // namespace gt
