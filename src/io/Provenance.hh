// Run provenance: what produced an output file (build, deck, command line, machine, seed, times).
//
// Stored as attributes of the group /provenance (a group of its own keeps the openPMD root
// attributes uncluttered and lets tools copy provenance as a unit); layout in docs/output.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gt {

class OutputFile;

struct Provenance {
    std::string gtrack_version;          //!< "0.1.0"
    std::string git_hash;                //!< 12 hex digits, "-dirty" when the tree had changes
    std::string build_options;           //!< build type, compiler, CUDA, OpenMP
    std::string deck_path;               //!< the deck as given on the command line
    std::string deck_text;               //!< the deck file's full text, as read
    std::string command_line;            //!< argv joined by spaces
    std::string backend;                 //!< "cpu" or "gpu"
    std::string device_name;             //!< GPU name, or the CPU description
    std::string start_time;              //!< ISO 8601 UTC, "2025-01-31T12:00:00Z"
    std::string end_time;                //!< ISO 8601 UTC
    std::uint64_t seed = 0;              //!< run seed (Philox key)
    std::vector<std::string> overrides;  //!< --set KEY=VALUE and --unset KEY (as "--unset KEY"), in order
    // A point of a [scan] (docs/output.md): scan_index -1 when the run was not one.
    std::int64_t scan_index = -1;              //!< the point's stable index
    std::uint64_t scan_size = 0;               //!< points in the scan
    std::string scan_mode;                     //!< "cartesian" or "zip" ("" when not a scan point)
    std::vector<std::string> scan_parameters;  //!< the scanned key paths, in deck order
    std::vector<std::string> scan_values;      //!< this point's value of each, as written in the deck
    // MPI (docs/cluster.md): how many ranks ran it and on what, one entry per rank in rank order.
    std::int64_t ranks = 1;
    std::vector<std::string> rank_devices;  //!< "rank 1: gpu 1, gpu (NVIDIA H200 ...)"

    bool operator==(Provenance const&) const = default;
};

//! Writes (or rewrites: existing attributes are replaced) /provenance in `out`.
void write_provenance(OutputFile& out, Provenance const& p);
//! Reads /provenance of a gtrack file; IoError naming the file and the missing attribute otherwise.
Provenance read_provenance(std::string const& path);

//! The current time as ISO 8601 UTC with seconds: "2025-01-31T12:00:00Z".
std::string iso8601_utc_now();

}  // namespace gt
