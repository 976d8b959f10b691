// The start of a `gtrack run` before its deck: MPI's start-up, and the GPU's context created meanwhile.
//
// Creating a CUDA context takes 0.2-0.3 s (the driver's initialisation, then the context: H200,
// docs/performance.md) and MPI_Init about as long under a launcher; both used to run one after the
// other, then the deck was read. DeviceWarmUp starts the context of the GPU this process will use on
// a background thread first thing in main(), so that it overlaps MPI's start-up and the deck's
// reading; the run waits for it before it binds its GPU. The GPU is the one the binding will choose
// (parallel/DeviceBinding.hh: the node-local rank modulo the GPUs), its rank read from the launcher's
// environment before MPI_Init; where no launcher variable gives it, nothing is started early. The
// warm-up only creates what the run would create anyway: results cannot change.
// --trace shows "MPI start-up" and "wait for the GPU context" as host phases and the context's creation
// on a track of its own ("background"); the host phases' wall then counts from main().
#pragma once

#include <chrono>
#include <optional>
#include <thread>

namespace gt {

struct StartUpTimes {
    using Clock = std::chrono::steady_clock;
    Clock::time_point main_entry = Clock::now();
    std::optional<Clock::time_point> mpi_begin, mpi_end;  //!< around MPI_Init, when a launcher started us
};
//! This process's start-up times (main sets them).
StartUpTimes& start_up_times();

//! A measuring aid: GTRACK_TEST_NO_WARM_UP=1 in the environment creates the context where the run
//! first needs it, as before (scripts/gpu-check.d/51-mpi-startup.sh compares the two).
inline constexpr char const* k_no_warm_up_variable = "GTRACK_TEST_NO_WARM_UP";

//! The GPU context of this process, created on a thread of its own.
class DeviceWarmUp {
  public:
    using Clock = StartUpTimes::Clock;
    //! Starts creating the context, in a build with CUDA, when `argv` is a `run` that may use a GPU
    //! (no `--backend cpu`) and the GPU this process will use is known (no launcher, or a launcher
    //! that says the node-local rank).
    void start(int argc, char** argv);
    //! Waits until the context exists (or its creation failed: the run's own calls then report it);
    //! adds the trace events when the trace log is on. Idempotent.
    void wait();
    ~DeviceWarmUp() { wait(); }

  private:
    std::thread thread_;
    bool recorded_ = true;
    Clock::time_point begin_{}, end_{};
};
//! The process's one warm-up.
DeviceWarmUp& device_warm_up();

//! The node-local rank the launcher's environment gives (Open MPI, MPICH/Hydra, Slurm, PALS); nullopt
//! when there is none.
std::optional<int> launcher_local_rank();
//! Whether a launcher (mpirun, srun, mpiexec) started this process.
bool started_by_launcher();

}  // namespace gt
