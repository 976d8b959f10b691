// The frame of `gtrack run` for every ring study: the output's checksums and the thread count, the
// backend, the output file opened before tracking (a bad path fails before the work), provenance around
// the study, the file committed only when all is written, then the summary with the wall time.
//
// Under MPI every rank runs the study on its share of the particles (parallel/ParticleDecomposition.hh,
// as a beam run divides its beam); the results are joined on rank 0 (parallel/GatherToRoot.hh), which
// alone holds the file, writes it once and prints. What can fail on some ranks only (the output directory,
// a GPU) fails on all of them, said once.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "deck/Config.hh"
#include "io/H5Access.hh"
#include "io/OutputFile.hh"
#include "io/Provenance.hh"
#include "kernels/cpu/Executor.hh"
#include "parallel/Agreement.hh"
#include "parallel/Communicator.hh"
#include "parallel/DeviceBinding.hh"
#include "perf/Profile.hh"
#include "run/BeamRun.hh"
#include "run/CheckpointHeader.hh"
#include "run/RunProfile.hh"
#include "run/RunProvenance.hh"
#include "run/StopRequest.hh"
#include "study/StudyCheckpoint.hh"
#include "study/StudyForecast.hh"

namespace gt::study {

//! `study(kernels, out, control)` tracks on every rank and writes its tables into `out` (rank 0's file; null
//! on the other ranks), returning its result (whole on rank 0), or nullopt where it stopped at a signal (its
//! checkpoint written: the run ends with k_exit_stopped, no output). `stoppable`: the study polls
//! `control.stop` (else no handler is installed, and a signal ends the run as it would any program).
//! `summary(result, kernels, wall_seconds, path)` prints it on rank 0 (not with --quiet).
template <class Study, class Summary>
int run_study(DeckConfig const& deck, RunOptions const& run_options, bool stoppable, Study&& study,
              Summary&& summary)
{
    parallel::Communicator const& world = parallel::Communicator::world();
    RunOptions options = run_options;
    options.quiet = options.quiet || !world.is_root();
    auto const wall_start = std::chrono::steady_clock::now();
    h5::set_output_checksums(deck.output.checksums);
    cpu::set_thread_count(options.threads);
    std::string const path = options.output.empty() ? deck.output.file : options.output;
    // Before the output file, whose cleanup handler then offers us the first signal. Under several ranks
    // SIGUSR1 alone asks to stop (SIGTERM is a launcher ending the job), as in a beam run.
    std::optional<StopRequest> stop;
    if (stoppable) stop.emplace(world.size() > 1);
    struct Frame {
        std::unique_ptr<BeamKernels> kernels;
        std::unique_ptr<OutputFile> out;  // before tracking: a bad path fails early
    };
    Frame frame = parallel::all_or_none([&] {
        Frame f;
        f.kernels = select_beam_backend(deck, options);
        if (world.is_root()) f.out = std::make_unique<OutputFile>(path);
        return f;
    });
    Provenance prov = run_provenance(deck, options.command_line);
    prov.start_time = iso8601_utc_now();
    StudyControl const control{path,
                               checkpoint_path_for(path),
                               options.resume,
                               &prov.start_time,
                               frame.out.get(),
                               stop ? &*stop : nullptr,
                               options.quiet};
    auto const outcome = study(*frame.kernels, frame.out.get(), control);
    if (!outcome) return k_exit_stopped;
    auto const& result = *outcome;
    bool const on_gpu = frame.kernels->memory() == MemSpace::device;
    prov.rank_devices =  // collective: every rank's device, on rank 0
        world.gather_to_root(parallel::describe_rank_device(on_gpu, frame.kernels->description()));
    if (!world.is_root()) return 0;
    prov.backend = on_gpu ? "gpu" : "cpu";
    prov.device_name = frame.kernels->description();
    prov.ranks = world.size();
    prov.end_time = iso8601_utc_now();
    write_provenance(*frame.out, prov);
    // --profile: rank 0's kernel times against the study's own forecast (StudyForecast.hh).
    std::optional<Profile> profile;
    if (options.profile)
        profile = profile_of_run(frame.kernels->timer().records(), on_gpu, options.calibration,
                                 [&deck](Ceilings const& c) { return forecast_study(deck, c); });
    if (profile) write_profile(*frame.out, *profile);
    frame.out->commit();
    std::error_code ignored;  // the output is complete: its checkpoint would only resume what is done
    std::filesystem::remove(control.checkpoint_path, ignored);
    double const wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    if (!options.quiet) summary(result, *frame.kernels, wall, path);
    if (profile && !options.quiet) std::printf("%s", format_profile(*profile).c_str());
    return 0;
}

}  // namespace gt::study
