// The checkpoints of a study's turns (StudyCheckpoint.hh).
#include "study/StudyCheckpoint.hh"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "deck/DeckError.hh"
#include "parallel/Agreement.hh"
#include "parallel/Communicator.hh"
#include "run/CheckpointToResume.hh"

namespace gt::study {

void refuse_checkpoints(DeckConfig const& deck, StudyControl const* control, std::string const& what)
{
    parallel::all_or_none([&] {
        CheckpointEvery const& every = deck.output.checkpoint_every;
        if (every.steps > 0 || every.seconds > 0)
            throw DeckError(
                deck.output.where, "output.checkpoint_every",
                what + " has no checkpoints (docs/checkpoint.md, \"Ring studies\"): remove the key");
        if (control && !control->resume.empty() && control->resume != "auto")
            throw std::runtime_error(
                "--resume: " + what +
                " has no checkpoints (docs/checkpoint.md, \"Ring studies\"): run it again "
                "without --resume");
    });
}

StudyTurns::StudyTurns(DeckConfig const& deck, StudyControl const& control, std::string const& backend)
    : deck_(deck), control_(control), identity_(checkpoint_identity(deck, backend))
{
    test_hooks_ =
        std::getenv(k_test_stop_variable) != nullptr || std::getenv(k_test_kill_variable) != nullptr;
    resumed_ = parallel::all_or_none([&] {
        return checkpoint_to_resume(control.resume, control.checkpoint_path, control.quiet,
                                    [&](std::string const& p) { return read_beam_checkpoint(p, identity_); });
    });
    if (resumed_ && control.start_time) *control.start_time = resumed_->start_time;
    if (resumed_ && !control.quiet)
        std::printf("gtrack: resuming from %s after %lld turns\n",
                    control.resume == "auto" ? control.checkpoint_path.c_str() : control.resume.c_str(),
                    static_cast<long long>(resumed_->position.turn));
}

std::int64_t StudyTurns::turns_at_once(std::int64_t turn, std::int64_t chunk) const
{
    if (test_hooks_) return 1;
    std::int64_t const every = deck_.output.checkpoint_every.steps;
    return every > 0 ? std::min(chunk, every - turn % every) : chunk;
}

bool StudyTurns::between(std::int64_t turn, ParticleState const& state)
{
    parallel::Communicator const& world = parallel::Communicator::world();
    CheckpointEvery const& every = deck_.output.checkpoint_every;
    bool stopping = control_.stop != nullptr && control_.stop->stop_here(turn);
    if (world.size() > 1) stopping = !world.all(!stopping);
    bool due = !stopping &&
               (every.steps > 0
                    ? turn % every.steps == 0
                    : every.seconds > 0 &&
                          std::chrono::duration<double>(std::chrono::steady_clock::now() - last_).count() >=
                              every.seconds);
    if (world.size() > 1 && every.seconds > 0) due = !world.all(!due);  // clocks differ between ranks
    if (due) {
        try {
            write(turn, state);
        } catch (std::runtime_error const& e) {
            // One process goes on; the previous checkpoint is still whole. Under MPI the run ends (main).
            if (world.size() > 1) throw;
            std::fprintf(stderr, "gtrack: warning: the checkpoint was not written: %s\n", e.what());
        }
    }
    if (!stopping) return true;
    write(turn, state);
    if (world.is_root())
        std::fprintf(
            stderr,
            "gtrack: stopped by %s after %lld of %lld turns; %s was not written. Checkpoint: %s. Resume "
            "with the same command and --resume %s (exit status %d)\n",
            control_.stop->requested() ? control_.stop->signal_name().c_str() : "a signal to another rank",
            static_cast<long long>(turn), static_cast<long long>(deck_.lattice.turns),
            control_.output_path.c_str(), control_.checkpoint_path.c_str(), control_.checkpoint_path.c_str(),
            k_exit_stopped);
    return false;
}

void StudyTurns::write(std::int64_t turn, ParticleState const& state)
{
    BeamCheckpoint c;
    c.identity = identity_;
    c.position = BeamTracker::Position{turn, 0};
    c.turns = deck_.lattice.turns;
    c.snapshots = 0;
    c.start_time = control_.start_time ? *control_.start_time : std::string();
    c.particles = ParticleState(state, MemSpace::host);
    write_beam_checkpoint(control_.checkpoint_path, c, control_.out);
    last_ = std::chrono::steady_clock::now();
}

}  // namespace gt::study
