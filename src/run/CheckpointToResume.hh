// Which checkpoint a run goes on from (--resume), for beamline and detector runs alike.
#pragma once

#include <cstdio>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include "parallel/Communicator.hh"

namespace gt {

//! `resume` as --resume gives it: empty, none; a path, that checkpoint, read by `read(path)` (which
//! throws std::runtime_error when it refuses it); "auto", the run's own `checkpoint_path` when there
//! is one that `read` accepts, otherwise (none, or one of an edited deck or another gtrack) none: the
//! run starts from the beginning and its checkpoints replace it. Rank 0 says which, unless `quiet`
//! (a refused one is always said, on stderr).
template <class Read>
auto checkpoint_to_resume(std::string const& resume, std::string const& checkpoint_path, bool quiet,
                          Read const& read) -> std::optional<decltype(read(checkpoint_path))>
{
    if (resume.empty()) return std::nullopt;
    if (resume != "auto") return read(resume);
    bool const root = parallel::Communicator::world().is_root();
    if (!std::filesystem::exists(checkpoint_path)) {
        if (!quiet && root)
            std::printf("gtrack: no checkpoint %s: starting from the beginning\n", checkpoint_path.c_str());
        return std::nullopt;
    }
    try {
        return read(checkpoint_path);
    } catch (std::runtime_error const& e) {
        if (root)
            std::fprintf(stderr, "gtrack: note: --resume auto: %s; starting from the beginning\n", e.what());
        return std::nullopt;
    }
}

}  // namespace gt
