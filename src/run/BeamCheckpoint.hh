// The checkpoint of a beamline run: everything a resumed run needs to end with the same bits as an
// uninterrupted one (docs/checkpoint.md). One HDF5 file, written atomically beside the output.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "io/OutputFile.hh"
#include "io/TableWriter.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/spacecharge/SpaceChargeKernels.hh"
#include "run/BeamTracker.hh"
#include "run/CheckpointHeader.hh"

namespace gt {

struct BeamCheckpoint {
    CheckpointIdentity identity;
    BeamTracker::Position position;
    std::int64_t turns = 0;          //!< of the whole run
    std::int64_t snapshots = 0;      //!< phase-space iterations written so far (/data/0 ... /data/N-1)
    std::string start_time;          //!< of the first run of the chain (ISO 8601 UTC)
    ParticleState particles;         //!< every particle (of this rank), lost ones too, in the backend's order
    Table stats;                     //!< /stats rows so far
    Table space_charge;              //!< /space_charge rows so far (space-charge runs)
    std::optional<SpaceChargeCache> solver;  //!< the space-charge solver's state (space-charge runs)
    std::optional<Table> collective;         //!< /collective rows so far (runs with wakes, LSC or CSR)
};

//! Collective: writes `c` to `path` atomically: a temporary, fsync, rename; an older checkpoint there
//! stays whole until the rename. Under MPI `c.particles` are this rank's, written in rank order into
//! the one file by rank 0, which also copies the phase-space snapshots so far from the run's open
//! output `out` (nullptr on the other ranks) and holds the rest (the same on every rank).
void write_beam_checkpoint(std::string const& path, BeamCheckpoint& c, OutputFile* out);

//! Reads the checkpoint at `path` (under MPI each rank its own share of the particles; the rank count
//! must be the one that wrote it); throws std::runtime_error saying why and what to do when it is not
//! one, or when resume_refusal() refuses it for `expected`.
BeamCheckpoint read_beam_checkpoint(std::string const& path, CheckpointIdentity const& expected);

//! Copies the checkpoint's phase-space snapshots into the resumed run's output.
void copy_checkpoint_snapshots(std::string const& path, std::int64_t snapshots, OutputFile& out);

}  // namespace gt
