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
#include "run/CheckpointIdentity.hh"

namespace gt {

struct BeamCheckpoint {
    CheckpointIdentity identity;
    BeamTracker::Position position;
    std::int64_t turns = 0;          //!< of the whole run
    std::int64_t snapshots = 0;      //!< phase-space iterations written so far (/data/0 ... /data/N-1)
    std::string start_time;          //!< of the first run of the chain (ISO 8601 UTC)
    ParticleState particles;         //!< every particle, lost ones too, in the backend's order (host)
    Table stats;                     //!< /stats rows so far
    Table space_charge;              //!< /space_charge rows so far (space-charge runs)
    std::optional<SpaceChargeCache> solver;  //!< the space-charge solver's state (space-charge runs)
    std::optional<Table> collective;         //!< /collective rows so far (runs with wakes, LSC or CSR)
};

//! "<output>.ckpt": where a run writing `output_path` keeps its checkpoint.
std::string checkpoint_path_for(std::string const& output_path);

//! Writes `c` to `path` atomically: a temporary, fsync, rename; an older checkpoint there stays whole
//! until the rename. The phase-space snapshots so far are copied from the run's open output `out`.
void write_beam_checkpoint(std::string const& path, BeamCheckpoint& c, OutputFile& out);

//! Reads the checkpoint at `path`; throws std::runtime_error saying why and what to do when it is not
//! one, or when resume_refusal() refuses it for `expected`.
BeamCheckpoint read_beam_checkpoint(std::string const& path, CheckpointIdentity const& expected);

//! Copies the checkpoint's phase-space snapshots into the resumed run's output.
void copy_checkpoint_snapshots(std::string const& path, std::int64_t snapshots, OutputFile& out);

}  // namespace gt
