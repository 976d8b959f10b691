// Stopping and resuming a ring study (docs/checkpoint.md, "Ring studies"): the dynamic-aperture grid
// without a frequency map is a beam of independent particles and a turn count, so its checkpoint is a beam
// run's (run/BeamCheckpoint.hh: the particles of every rank with their loss records, the turns completed),
// written between two calls of the many-turn executor, when output.checkpoint_every says or when a signal
// asks the run to stop (run/StopRequest.hh). A resumed study goes on from there to the same bits.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "deck/Config.hh"
#include "io/OutputFile.hh"
#include "kernels/core/ParticleState.hh"
#include "run/BeamCheckpoint.hh"
#include "run/CheckpointIdentity.hh"
#include "run/StopRequest.hh"

namespace gt::study {

//! What `gtrack run` gives a study that can stop (StudyRun.hh).
struct StudyControl {
    std::string output_path;            //!< the output file (for the messages)
    std::string checkpoint_path;        //!< <output>.ckpt: where checkpoints go
    std::string resume;                 //!< --resume: "" none, a path, or "auto"
    std::string* start_time = nullptr;  //!< the provenance's: a resumed study's is its first run's
    OutputFile* out = nullptr;          //!< rank 0's output (null on the other ranks)
    StopRequest* stop = nullptr;        //!< the signals' handler (null: the study runs to its end)
    bool quiet = false;
};

//! A study that has no checkpoint (`what` names it): output.checkpoint_every is a deck error, and --resume
//! with a checkpoint's path an error (--resume auto starts from the beginning, as with no checkpoint). Agreed
//! by every rank.
void refuse_checkpoints(DeckConfig const& deck, StudyControl const* control, std::string const& what);

//! The checkpoints of a study's turns: where to go on from, and what to do between two calls.
class StudyTurns {
  public:
    //! `backend`: "cpu" or "gpu" (part of the identity). Reads the checkpoint to resume (agreed by every
    //! rank; one that does not fit is refused, as a beam run's).
    StudyTurns(DeckConfig const& deck, StudyControl const& control, std::string const& backend);

    //! The checkpoint the study goes on from (its particles are this rank's share).
    std::optional<BeamCheckpoint>& resumed() { return resumed_; }
    //! Turns done before this run.
    std::int64_t first_turn() const { return resumed_ ? resumed_->position.turn : 0; }
    //! The turns the next call from `turn` may take: `chunk`, never past a multiple of checkpoint_every's
    //! turns, one under the test hooks (they stop at an exact turn).
    std::int64_t turns_at_once(std::int64_t turn, std::int64_t chunk) const;
    //! Collective, between two calls with `turn` turns done (fewer than the study's): a checkpoint when due;
    //! false when a signal asked any rank to stop (the checkpoint written and said).
    bool between(std::int64_t turn, ParticleState const& state);

  private:
    void write(std::int64_t turn, ParticleState const& state);

    DeckConfig const& deck_;
    StudyControl const& control_;
    CheckpointIdentity identity_;
    std::optional<BeamCheckpoint> resumed_;
    bool test_hooks_ = false;
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace gt::study
