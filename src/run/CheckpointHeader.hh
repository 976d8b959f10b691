// The root attributes every checkpoint starts with (beamline and detector runs): its format and the
// identity of the run that wrote it, checked before anything else is read (docs/checkpoint.md).
#pragma once

#include <hdf5.h>

#include <string>

#include "run/CheckpointIdentity.hh"

namespace gt {

//! "<output>.ckpt": where a run writing `output_path` keeps its checkpoint.
std::string checkpoint_path_for(std::string const& output_path);

//! Writes `gtrack_checkpoint` (the format), the identity and `written` (now) to the root `root`.
void write_checkpoint_header(hid_t root, CheckpointIdentity const& id);

//! Reads them from the checkpoint open as `file` (`path` for messages); throws std::runtime_error
//! saying why when it is no checkpoint, one of another format, or one resume_refusal() refuses.
CheckpointIdentity read_checkpoint_header(hid_t file, std::string const& path,
                                          CheckpointIdentity const& expected);

}  // namespace gt
