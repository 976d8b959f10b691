// Stopping a long run cleanly: SIGTERM, SIGINT and SIGUSR1 (Slurm's --signal) ask it to stop at its
// next safe point (between turns or elements, between detector iterations), where it writes a
// checkpoint and exits with k_exit_stopped; a second signal ends the process at once.
#pragma once

#include <cstdint>
#include <string>

namespace gt {

//! The exit status of a run stopped by a signal at a safe point: EX_TEMPFAIL of sysexits.h ("try
//! again later"), so that a job script can tell it from success (0) and failure (1, 2) and requeue.
inline constexpr int k_exit_stopped = 75;

//! The environment variable of the test hook: GTRACK_TEST_STOP_AT=N raises a real SIGTERM in the run
//! once its progress (turns of a ring, table entries of a line, detector iterations) reaches N.
inline constexpr char const* k_test_stop_variable = "GTRACK_TEST_STOP_AT";
//! And GTRACK_TEST_KILL_AT=N raises SIGKILL there: a crash, which only periodic checkpoints survive.
inline constexpr char const* k_test_kill_variable = "GTRACK_TEST_KILL_AT";
//! GTRACK_TEST_STOP_AT_TRACK=N raises a real SIGTERM inside a detector step iteration of the CPU track
//! loop once N primaries have been run to their end (stop_within).
inline constexpr char const* k_test_stop_track_variable = "GTRACK_TEST_STOP_AT_TRACK";

class StopRequest {
  public:
    //! Installs the handlers while it lives; one StopRequest at a time. A signal that the parent
    //! ignores (nohup, background jobs) stays ignored. With `usr1_only` (several MPI ranks) only
    //! SIGUSR1 asks to stop: SIGTERM and SIGINT come from a launcher ending the job (a rank failed,
    //! mpirun was interrupted) and end the process at once, as without gtrack; the test hook then
    //! raises SIGUSR1.
    explicit StopRequest(bool usr1_only = false);
    ~StopRequest();
    StopRequest(StopRequest const&) = delete;
    StopRequest& operator=(StopRequest const&) = delete;

    //! Polled at each safe point with the run's progress in its own unit: true when a signal asked
    //! to stop. The test hooks fire here.
    bool stop_here(std::int64_t progress);
    //! Polled at the stop points inside a detector step iteration (the CPU track loop's, between
    //! tracks) with the primaries run to their end: true when a signal asked to stop. Its test hook
    //! (GTRACK_TEST_STOP_AT_TRACK) fires here.
    bool stop_within(std::int64_t tracked);
    //! A signal asked to stop (without polling the test hook).
    bool requested() const;
    //! "SIGTERM", "SIGINT" or "SIGUSR1"; empty while none arrived.
    std::string signal_name() const;

  private:
    bool usr1_only_ = false;
    std::int64_t test_stop_at_ = -1;  //!< GTRACK_TEST_STOP_AT, -1: not set
    std::int64_t test_kill_at_ = -1;  //!< GTRACK_TEST_KILL_AT, -1: not set
    std::int64_t test_stop_track_at_ = -1;  //!< GTRACK_TEST_STOP_AT_TRACK, -1: not set
};

}  // namespace gt
