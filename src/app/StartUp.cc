// The GPU context created beside MPI's start-up and the deck's reading (StartUp.hh).
#include "app/StartUp.hh"

#include <cstdlib>
#include <exception>
#include <string_view>

#include "kernels/core/Device.hh"
#include "kernels/core/TraceLog.hh"

namespace gt {

StartUpTimes& start_up_times()
{
    static StartUpTimes times;
    return times;
}

DeviceWarmUp& device_warm_up()
{
    static DeviceWarmUp warm_up;
    return warm_up;
}

bool started_by_launcher()
{
    // The variables parallel/MpiCommunicator.cc looks for before it calls MPI_Init.
    for (char const* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "MPI_LOCALNRANKS"})
        if (std::getenv(v) != nullptr) return true;
    return false;
}

std::optional<int> launcher_local_rank()
{
    for (char const* v :
         {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID", "PALS_LOCAL_RANKID"}) {
        char const* value = std::getenv(v);
        if (value == nullptr || *value == '\0') continue;
        char* end = nullptr;
        long const rank = std::strtol(value, &end, 10);
        if (*end == '\0' && rank >= 0 && rank < (1 << 20)) return int(rank);
    }
    return std::nullopt;
}

void DeviceWarmUp::start(int argc, char** argv)
{
    if (!device::compiled_in() || thread_.joinable() || argc < 2 || std::string_view(argv[1]) != "run")
        return;
    if (char const* off = std::getenv(k_no_warm_up_variable); off != nullptr && *off != '\0' && *off != '0')
        return;
    for (int i = 2; i < argc; ++i) {
        std::string_view const a = argv[i];
        if (a == "--backend=cpu" ||
            (a == "--backend" && i + 1 < argc && std::string_view(argv[i + 1]) == "cpu"))
            return;
    }
    // One process alone uses device 0 (it never selects another); under a launcher, the binding's
    // choice, which needs the node-local rank.
    int local_rank = 0;
    if (started_by_launcher()) {
        std::optional<int> const r = launcher_local_rank();
        if (!r) return;
        local_rank = *r;
    }
    recorded_ = false;
    thread_ = std::thread([this, local_rank] {
        begin_ = Clock::now();
        try {
            int const gpus = device::count();  // the driver's initialisation
            if (gpus > 0) {
                device::select(local_rank % gpus);  // the primary context (CUDA 12 and later create it here)
                (void)device::memory_info();        // and before that, at the first call that needs it
            }
        } catch (std::exception const&) {
            // The run's own calls meet the same failure and report it.
        }
        end_ = Clock::now();
    });
}

void DeviceWarmUp::wait()
{
    if (!thread_.joinable()) return;
    Clock::time_point const waiting = Clock::now();
    thread_.join();
    Clock::time_point const done = Clock::now();
    if (recorded_) return;
    recorded_ = true;
    TraceLog& log = trace_log();
    if (!log.enabled()) return;
    log.add(TraceEvent{"GPU context (background)", "background", log.seconds_at(begin_),
                       std::chrono::duration<double>(end_ - begin_).count()});
    log.add(TraceEvent{"wait for the GPU context", "phase", log.seconds_at(waiting),
                       std::chrono::duration<double>(done - waiting).count()});
}

}  // namespace gt
