// What the beamline run asks of a backend; implemented once per executor (CPU, CUDA) by BeamDriver.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "kernels/beam/BeamSampler.hh"
#include "kernels/beam/Moments.hh"
#include "kernels/beam/TimeBunch.hh"
#include "kernels/core/Buffer.hh"
#include "kernels/core/CrossRank.hh"
#include "kernels/core/KernelTimer.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/elements/Element.hh"

namespace gt {

//! Device-memory bytes one segment push moves per particle: six coordinates read and written, the
//! loss flag read (the loss record written by the few lost ones is neglected). The floor of `track`.
inline constexpr double k_track_bytes_per_particle = 2 * 6 * 8 + 4;
//! Bytes the moments pass reads per particle: six coordinates and the loss flag.
inline constexpr double k_moments_bytes_per_particle = 6 * 8 + 4;
//! Bytes generate writes per particle: six coordinates, the id and the two loss fields.
inline constexpr double k_generate_bytes_per_particle = 6 * 8 + 8 + 4 + 4;

class BeamKernels {
  public:
    virtual ~BeamKernels() = default;
    //! Where this backend's particle states must live.
    virtual MemSpace memory() const = 0;
    //! "cpu (OpenMP, 16 threads)" or "gpu (NVIDIA H100 ...)".
    virtual std::string description() const = 0;
    //! Fills `particles` with a new beam drawn by `sampler`, ids first_id, first_id + 1, ...
    virtual void generate(ParticleView particles, BeamSampler const& sampler, std::uint64_t first_id) = 0;
    //! Copies the element table and the field data its profile elements read (Lattice::field_data)
    //! into the backend's memory (once per run), pointing the table at the copy.
    virtual void set_elements(std::vector<Element> const& elements,
                              std::vector<double> const& field_data) = 0;
    //! Tracks live particles through elements [begin, end) of the table.
    virtual void track(ParticleView particles, size_type begin, size_type end, std::int32_t turn) = 0;
    //! The many-turn executor: tracks live particles through the whole table [0, entries) for `turns` turns
    //! from `first_turn`, each particle kept in registers through all of them (turns inside the particle
    //! loop; the same element switch, TrackSegment's `turns`). The same maps in the same order per particle
    //! as `turns` calls of track(particles, 0, entries, turn), so the same bits. The default is those calls.
    virtual void track_turns(ParticleView particles, size_type entries, std::int32_t first_turn,
                             std::int32_t turns)
    {
        for (std::int32_t k = 0; k < turns; ++k) track(particles, 0, entries, first_turn + k);
    }
    //! A t-code entry pushed as a bunch, one common time step at a time (kernels/beam/TimeBunch.hh),
    //! so that space charge acts at fixed time between steps. time_bunch_begin puts the live
    //! particles at the entrance of `entry` and returns the bunch's first grid step K (+inf: none);
    //! time_bunch_step advances from sigma_K = K h to sigma_(K+1) and returns (particles still to go,
    //! particles inside, the sum of their Pz / p0); time_bunch_positions writes the lab positions at
    //! sigma_K into `out` (TimeBunchPositions); time_bunch_kick adds the kicks the space-charge
    //! solver left in `kicks`; time_bunch_finish leaves at the exit plane. Without kicks the result
    //! is track()'s, bit for bit. Under MPI the step and the counts are those of the whole beam.
    virtual double time_bunch_begin(ParticleView particles, size_type entry) = 0;
    virtual std::array<double, 3> time_bunch_step(ParticleView particles, size_type entry, double k) = 0;
    virtual void time_bunch_positions(ParticleView particles, size_type entry, double k, double inv_beta_b,
                                      ParticleView out) = 0;
    virtual void time_bunch_kick(ParticleView kicks, size_type entry, double inv_beta_b) = 0;
    virtual void time_bunch_finish(ParticleView particles, size_type entry, std::int32_t turn) = 0;
    //! Centroid, covariance and amplitudes of the live particles (same bits on every backend). Under
    //! MPI `particles` is this rank's share and the moments are those of the whole beam.
    virtual BeamMoments moments(ParticleView particles) = 0;
    //! How many of this rank's particles are alive (`alive`) or lost.
    virtual size_type count(ParticleView particles, bool alive) = 0;
    //! The particles of [begin, end) that are alive (`alive`) or lost, in index order, compacted where
    //! the particles live and copied to the host: a view of the backend's staging memory (page-locked
    //! on a GPU) holding `size` particles. Two stagings alternate: a view stays valid through the next
    //! call that returns particles and is overwritten by the one after, so one chunk can be written
    //! while the next comes. end - begin < 2^32.
    //! Only the selected particles cross to the host (kernels/beam/SelectParticles.hh).
    virtual ParticleView gather_to_host(ParticleView particles, size_type begin, size_type end,
                                        bool alive) = 0;
    //! Per-kernel times accumulated so far.
    virtual KernelTimer const& timer() const = 0;
    //! The ranks holding the rest of the beam (set once, before tracking; default: none).
    void set_cross_rank(CrossRank const& ranks) { ranks_ = &ranks; }

  protected:
    CrossRank const& cross_rank() const { return *ranks_; }

  private:
    CrossRank const* ranks_ = &single_process();
};

std::unique_ptr<BeamKernels> make_cpu_beam_kernels();
//! Throws when gtrack was built without CUDA or no GPU is present.
std::unique_ptr<BeamKernels> make_cuda_beam_kernels();

}  // namespace gt
