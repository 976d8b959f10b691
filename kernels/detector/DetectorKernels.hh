// What a detector run asks of a backend; implemented once over executors by DetectorBackend.hh
// and instantiated for the CPU (kernels/cpu/CpuDetectorKernels.cc) and CUDA
// (kernels/cuda/CudaDetectorKernels.cu).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/core/Buffer.hh"
#include "kernels/core/KernelTimer.hh"
#include "kernels/detector/DetectorTables.hh"
#include "kernels/detector/EmInteraction.hh"
#include "kernels/detector/Hit.hh"
#include "kernels/detector/StepActions.hh"

namespace gt {

struct IterationResult {
    std::uint64_t alive = 0;    //!< tracks in flight during the iteration (those started included)
    std::uint64_t started = 0;  //!< tracks started in it (secondaries and primaries)
    bool finished = false;      //!< nothing was left to do: no iteration ran
};

class DetectorKernels {
  public:
    virtual ~DetectorKernels() = default;
    virtual MemSpace memory() const = 0;
    virtual std::string description() const = 0;
    //! Copies the tables into the backend's memory and allocates `capacity` track slots.
    virtual void setup(DetectorTables const& tables, std::size_t capacity, std::size_t hit_capacity) = 0;
    //! One step iteration: every action once over all slots.
    virtual IterationResult iterate() = 0;
    //! The hits so far, sorted by HitOrder on the backend, copied to the host.
    virtual std::vector<Hit> sorted_hits() = 0;
    //! The Counter values.
    virtual std::array<std::uint64_t, k_num_counters> counters() = 0;
    //! Deposited energy per logical volume [MeV].
    virtual std::vector<double> tallies() = 0;
    //! The same as integers in units of k_tally_unit (what sums exactly, e.g. over MPI ranks).
    virtual std::vector<std::uint64_t> tally_counts() = 0;
    //! Primaries started so far.
    virtual std::uint64_t primaries_started() const = 0;
    //! Starts no primary numbered `end` or above until raised again: iterate() then reports `finished`
    //! once the tracks in flight (and their secondaries) have ended. A checkpoint drains the slot pool
    //! to an event boundary this way (docs/checkpoint.md). Initially the gun's last primary.
    virtual void limit_primaries(std::uint64_t end) = 0;
    //! Times the hit buffer was grown.
    virtual int hit_buffer_growths() const = 0;
    //! Per event, the EnergyCategory sums [MeV] (k_num_energy_categories per event; empty unless
    //! physics.showers).
    virtual std::vector<double> event_energy() = 0;
    //! The most secondaries that waited for a slot at once.
    virtual std::uint64_t secondary_stack_peak() const = 0;
    virtual KernelTimer const& timer() const = 0;
};

//! Tally counts (k_tally_unit) to MeV.
inline std::vector<double> tallies_in_mev(std::vector<std::uint64_t> const& counts)
{
    std::vector<double> out(counts.size());
    for (std::size_t i = 0; i < counts.size(); ++i) out[i] = static_cast<double>(counts[i]) * k_tally_unit;
    return out;
}

//! The CPU backend walking the slots as the GPU does (DetectorBackend.hh).
std::unique_ptr<DetectorKernels> make_cpu_detector_kernels();
//! The CPU backend following one track at a time per thread (kernels/cpu/CpuTrackLoop.cc): the same
//! bits as the slot walk, for decks without physics.showers.
std::unique_ptr<DetectorKernels> make_cpu_track_loop();
//! Throws when gtrack was built without CUDA or no GPU is present.
std::unique_ptr<DetectorKernels> make_cuda_detector_kernels();

}  // namespace gt
