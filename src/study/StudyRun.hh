// The frame of `gtrack run` for every ring study: one rank, the output's checksums and the thread count,
// the backend, the output file opened before tracking (a bad path fails before the work), provenance
// around the study, the file committed only when all is written, then the summary with the wall time.
#pragma once

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>

#include "deck/Config.hh"
#include "io/H5Access.hh"
#include "io/OutputFile.hh"
#include "io/Provenance.hh"
#include "kernels/cpu/Executor.hh"
#include "parallel/Communicator.hh"
#include "run/BeamRun.hh"
#include "run/RunProvenance.hh"

namespace gt::study {

//! `study(kernels, out)` tracks and writes its tables, returning its result; `summary(result, kernels,
//! wall_seconds, path)` prints it (not called with --quiet). `section` names the study in the MPI refusal.
template <class Study, class Summary>
int run_study(char const* section, DeckConfig const& deck, RunOptions const& options, Study&& study,
              Summary&& summary)
{
    if (parallel::Communicator::world().size() > 1)
        throw std::runtime_error(std::string(section) +
                                 " runs on one rank (MPI for studies is not built yet, docs/studies.md)");
    auto const wall_start = std::chrono::steady_clock::now();
    h5::set_output_checksums(deck.output.checksums);
    cpu::set_thread_count(options.threads);
    std::string const path = options.output.empty() ? deck.output.file : options.output;
    std::unique_ptr<BeamKernels> kernels = select_beam_backend(deck, options);
    OutputFile out(path);  // before tracking: a bad path fails early
    Provenance prov = run_provenance(deck, options.command_line);
    prov.start_time = iso8601_utc_now();
    auto const result = study(*kernels, out);
    prov.end_time = iso8601_utc_now();
    write_provenance(out, prov);
    out.commit();
    double const wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    if (!options.quiet) summary(result, *kernels, wall, path);
    return 0;
}

}  // namespace gt::study
