// The format and identity attributes shared by the beamline and detector checkpoints.
#include "run/CheckpointHeader.hh"

#include <stdexcept>

#include <fmt/format.h>

#include "io/H5Access.hh"
#include "io/Provenance.hh"

namespace gt {
namespace {

//! Bumped whenever a layout changes: an older checkpoint is refused, not misread.
// 3: every dataset carries a Fletcher-32 checksum (format 2 had none).
constexpr std::int64_t k_format = 3;

}  // namespace

std::string checkpoint_path_for(std::string const& output_path) { return output_path + ".ckpt"; }

void write_checkpoint_header(hid_t root, CheckpointIdentity const& id)
{
    h5::write_attribute(root, "gtrack_checkpoint", k_format);
    h5::write_attribute(root, "kind", id.kind);
    h5::write_attribute(root, "deck_fingerprint", id.deck_fingerprint);
    h5::write_attribute(root, "deck_path", id.deck_path);
    h5::write_attribute(root, "gtrack_version", id.gtrack_version);
    h5::write_attribute(root, "git_hash", id.git_hash);
    h5::write_attribute(root, "backend", id.backend);
    h5::write_attribute(root, "written", iso8601_utc_now());
}

CheckpointIdentity read_checkpoint_header(hid_t file, std::string const& path,
                                          CheckpointIdentity const& expected)
{
    if (!h5::has_attribute(file, "gtrack_checkpoint"))
        throw std::runtime_error(fmt::format("'{}' is not a gtrack checkpoint", path));
    if (std::int64_t const format = h5::read_int64_attribute(file, "gtrack_checkpoint"); format != k_format)
        throw std::runtime_error(
            fmt::format("'{}' is a checkpoint of format {}, this gtrack reads format {} "
                        "(written by another version of gtrack: resume with that version, "
                        "or run again without --resume)",
                        path, format, k_format));
    CheckpointIdentity id;
    id.kind = h5::read_string_attribute(file, "kind");
    id.deck_fingerprint = h5::read_string_attribute(file, "deck_fingerprint");
    id.deck_path = h5::read_string_attribute(file, "deck_path");
    id.gtrack_version = h5::read_string_attribute(file, "gtrack_version");
    id.git_hash = h5::read_string_attribute(file, "git_hash");
    id.backend = h5::read_string_attribute(file, "backend");
    if (std::string const why = resume_refusal(path, id, expected); !why.empty())
        throw std::runtime_error(why);
    return id;
}

}  // namespace gt
