// What a detector run asks of a backend; implemented once over executors by DetectorBackend.hh
// and instantiated for the CPU (kernels/cpu/CpuDetectorKernels.cc) and CUDA
// (kernels/cuda/CudaDetectorKernels.cu).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
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
    std::uint64_t iterations = 0;  //!< step iterations run (those cut short by the stop poll not counted)
    std::uint64_t alive = 0;       //!< tracks in flight during the last one (those started included)
    std::uint64_t started = 0;     //!< tracks started in them (secondaries and primaries)
    bool finished = false;         //!< nothing was left to do: no iteration ran
    //! The stop poll ended it part way (DetectorKernels::set_stop_poll): the loop's state holds it,
    //! and the next iterate() goes on with it.
    bool interrupted = false;
    std::uint64_t tracked = 0;  //!< when interrupted: its tracks run to their end (of `started`)
};

//! Asked at a backend's stop points inside a step iteration, with the primaries it has run to their
//! end so far (since the first of the run): true ends the iteration there, to be resumed.
using StopPoll = std::function<bool(std::uint64_t tracked)>;

//! One array of the stepping loop's state as raw bytes, padded to whole 64-bit words.
struct LoopStateArray {
    std::string name;
    std::uint64_t bytes = 0;
    std::vector<std::uint64_t> words;
};

//! The whole state of a backend's stepping loop between two iterations: every track slot, the
//! waiting secondaries and held interactions, the hits (in the order they were scored), counters,
//! tallies and energy balances, the next primary. Restored into a backend set up with the same tables
//! and slot count, the loop goes on exactly as if it had not stopped, schedule included
//! (docs/checkpoint.md). Raw bytes: a checkpoint is only resumed by the gtrack that wrote it.
struct DetectorLoopState {
    std::uint64_t next_primary = 0;          //!< the number of the next primary to start
    std::uint64_t secondaries_waiting = 0;   //!< on the secondary stack
    std::uint64_t secondary_stack_peak = 0;  //!< the most so far
    std::vector<LoopStateArray> arrays;
};

//! n elements at `data` as a loop-state array; `copy(dst, src, bytes)` brings them to the host (a
//! device copy on the GPU, memcpy on the CPU).
template <class T, class Copy>
LoopStateArray save_loop_array(char const* name, T const* data, std::size_t n, Copy const& copy)
{
    LoopStateArray a{name, n * sizeof(T), {}};
    a.words.resize((a.bytes + 7) / 8);
    if (a.bytes > 0) copy(a.words.data(), data, a.bytes);
    return a;
}

//! The array `name` of `s` as elements of T; std::runtime_error when it is missing (the message ends
//! with `missing_hint`) or does not hold whole elements.
template <class T>
std::vector<T> restore_loop_array(DetectorLoopState const& s, char const* name, char const* missing_hint = "")
{
    for (LoopStateArray const& a : s.arrays) {
        if (a.name != name) continue;
        if (a.bytes % sizeof(T) != 0 || a.words.size() != (a.bytes + 7) / 8)
            throw std::runtime_error(std::string("the loop state's array '") + name + "' has " +
                                     std::to_string(a.bytes) + " bytes, not whole elements of " +
                                     std::to_string(sizeof(T)));
        std::vector<T> v(a.bytes / sizeof(T));
        if (a.bytes > 0) std::memcpy(static_cast<void*>(v.data()), a.words.data(), a.bytes);
        return v;
    }
    throw std::runtime_error(std::string("the loop state has no array '") + name + "'" + missing_hint);
}

class DetectorKernels {
  public:
    virtual ~DetectorKernels() = default;
    virtual MemSpace memory() const = 0;
    virtual std::string description() const = 0;
    //! Copies the tables into the backend's memory and allocates `capacity` track slots.
    virtual void setup(DetectorTables const& tables, std::size_t capacity, std::size_t hit_capacity) = 0;
    //! Step iterations, each every action once over all slots: at least one unless the loop is
    //! finished, at most `most` (>= 1). A backend whose counts live in device memory runs a batch of
    //! them before it reads the counts back (DetectorBackend.hh); the others run one. The results do
    //! not depend on how many ran per call.
    virtual IterationResult iterate(std::uint64_t most) = 0;
    //! A backend whose step iteration can run long (the CPU track loop runs each of its tracks to the
    //! end) asks `poll` between tracks; the slot walk's iterations are one step each: it ignores it.
    virtual void set_stop_poll(StopPoll poll) { (void)poll; }
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
    //! The loop's whole state (between two iterations), copied to the host.
    virtual DetectorLoopState save_state() = 0;
    //! Replaces the loop's state by `s` (saved by a backend set up like this one); throws
    //! std::runtime_error when its arrays do not fit this backend's.
    virtual void restore_state(DetectorLoopState const& s) = 0;
    //! Times the hit buffer was grown.
    virtual int hit_buffer_growths() const = 0;
    //! Per event, the EnergyCategory sums [MeV] (k_num_energy_categories per event; empty unless
    //! physics.showers).
    virtual std::vector<double> event_energy() = 0;
    //! Per event, the TrackLengthCategory sums [m] (k_num_length_categories per event; empty unless
    //! physics.showers and DetectorTables::track_lengths).
    virtual std::vector<double> event_track_length() { return {}; }
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
