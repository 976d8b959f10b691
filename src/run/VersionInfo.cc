// What --version prints and what provenance records about this build and machine.
#include "run/VersionInfo.hh"

#include <fmt/format.h>

#include "BuildInfo.hh"
#include "kernels/core/Device.hh"
#include "kernels/cpu/Executor.hh"
#include "parallel/Communicator.hh"

namespace gt {

std::string version_line() { return fmt::format("gtrack {} (git {})", build::version, build::git_hash); }

std::string build_options()
{
    std::string cuda = std::string(build::cuda_enabled) == "ON"
                           ? fmt::format("CUDA ON (sm_{})", build::cuda_architectures)
                           : std::string("CUDA OFF");
    return fmt::format("{}, {}, {}, OpenMP {}, MPI {}", build::build_type, build::compiler, cuda,
                       build::openmp_enabled, build::mpi_enabled);
}

std::string version_report()
{
    std::string gpu;
    try {
        gpu = device::count() > 0 ? device::name() : "no GPU";
    } catch (std::exception const& e) {
        gpu = fmt::format("no GPU ({})", e.what());
    }
    std::string runtime;
    try {
        runtime = device::runtime_description();
    } catch (std::exception const& e) {
        runtime = e.what();
    }
    return fmt::format("{}\nbuild: {}\ncuda:  {}\ngpu:   {}\ncpu:   {} OpenMP threads\nmpi:   {}, {}\n",
                       version_line(), build_options(), runtime, gpu, cpu::thread_count(),
                       parallel::library_description(), parallel::describe_world());
}

}  // namespace gt
