// What the run asks of a space-charge backend: one kick, plus probes for tests and diagnostics.
// Implemented once (SpaceChargeSolver.hh) over the CPU backend (kernels/cpu/CpuSpaceCharge.cc:
// OpenMP, FFTW) and the CUDA backend (kernels/cuda/CudaSpaceCharge.cu: cuFFT, CUB radix sort).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/core/Buffer.hh"
#include "kernels/core/CrossRank.hh"
#include "kernels/core/KernelTimer.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/spacecharge/BeamFrame.hh"
#include "kernels/spacecharge/ChargeDeposit.hh"
#include "kernels/spacecharge/GridGeometry.hh"
#include "kernels/spacecharge/ShapeFunction.hh"

namespace gt {

//! 3D: the full Poisson problem in the rest frame. 2.5D (long bunches): the 2D field of the
//! transverse distribution scaled by the local line density, transverse kicks only.
enum class SpaceChargeModel : std::int32_t { three_d, two_and_half_d };

struct SpaceChargeSettings {
    SpaceChargeModel model = SpaceChargeModel::three_d;
    std::array<int, 3> grid = {64, 64, 64};  //!< nodes nx, ny, nz
    double margin = 0.05;                    //!< empty space on each side, fraction of the bunch extent
    ParticleShape shape = ParticleShape::cic;
    DepositionMethod deposition = DepositionMethod::deterministic;
    int sort_every = 4;  //!< sort particles by cell every N kicks (0: never)
    double truncate_sigma =
        0;  //!< > 0: the grid spans mean +- this many rms (particles beyond feel a point charge)
    std::optional<GridGeometry> fixed_grid;  //!< use this grid instead of sizing one (tests, studies)
    //! With sort_every > 0: gather in the order of the sort and kick from per-particle fields
    //! (FieldToParticles, KickFromFields) instead of gathering and kicking in one pass in the
    //! particles' order (FieldKick). The same bits; which is faster depends on the device (benchmarks).
    bool gather_in_cell_order = false;
};

//! What one kick did and how long each stage took.
struct SpaceChargeDiagnostics {
    GridGeometry grid;
    double inside = 0;            //!< live macroparticles inside the grid
    double outside = 0;           //!< live macroparticles outside it (they felt a point charge)
    double inside_charge = 0;     //!< inside * macro charge [C]
    double deposited_charge = 0;  //!< sum of the node charges [C] (equals inside_charge to round-off)
    double field_energy = 0;      //!< rest-frame electrostatic energy 1/2 sum Q phi [J] (2.5D: of the model)
    bool sorted = false;          //!< the particles were sorted by cell before depositing
    bool green_recomputed = false;
    // Stage times [s]. The gather and the kick are one pass, timed as t_gather (t_kick is 0).
    double t_sort = 0, t_deposit = 0, t_green = 0, t_solve = 0, t_field = 0, t_gather = 0, t_kick = 0;
    double t_reduce = 0;  //!< summing the charge grid over MPI ranks
    double total_time() const
    {
        return t_sort + t_deposit + t_reduce + t_green + t_solve + t_field + t_gather + t_kick;
    }
};

//! The solver's state carried from kick to kick: the kick count (when to sort) and the grid of the
//! cached Green's function (whose spacing the next grid keeps while the bunch fits, GridSizing.hh).
struct SpaceChargeCache {
    long kicks = 0;
    bool green_valid = false;
    bool green_sliced = false;  //!< the 2D Green's function of the 2.5D model
    GridGeometry green_grid{};
};

//! A rest-frame point and the field there (probe_field).
struct FieldProbe {
    double x, y, z;     //!< [m]
    double ex, ey, ez;  //!< [V/m]
};

class SpaceChargeKernels {
  public:
    virtual ~SpaceChargeKernels() = default;
    //! Where the particle states passed to this backend must live.
    virtual MemSpace memory() const = 0;
    virtual std::string description() const = 0;
    //! One space-charge kick of length ds [m] on the live particles: size the grid, (sort,) deposit,
    //! solve, gather and kick. The particles keep their order (a sort by cell is a scratch order).
    virtual SpaceChargeDiagnostics kick(ParticleView particles, SpaceChargeSettings const& settings,
                                        BeamFrame const& frame, double ds) = 0;
    //! Deposits and solves for `particles` (no kick) and fills the field at each probe's position.
    virtual SpaceChargeDiagnostics probe_field(ParticleView particles, SpaceChargeSettings const& settings,
                                               BeamFrame const& frame, std::vector<FieldProbe>& probes) = 0;
    //! The node charges [C] of the last deposition, copied to the host (node order of GridGeometry).
    virtual std::vector<double> charge_grid() const = 0;
    //! The state the next kicks depend on besides the particles, and continuing from it (checkpoints).
    virtual SpaceChargeCache cache() const = 0;
    virtual void restore_cache(SpaceChargeCache const& cache) = 0;
    //! Per-stage times accumulated so far ("sc.sort", "sc.deposit", ...), with bytes moved.
    virtual KernelTimer const& timer() const = 0;
    //! The ranks holding the rest of the beam (set once, before the first kick; default: none).
    void set_cross_rank(CrossRank const& ranks) { ranks_ = &ranks; }

  protected:
    CrossRank const& cross_rank() const { return *ranks_; }

  private:
    CrossRank const* ranks_ = &single_process();
};

std::unique_ptr<SpaceChargeKernels> make_cpu_space_charge();
//! Throws when gtrack was built without CUDA or no GPU is present.
std::unique_ptr<SpaceChargeKernels> make_cuda_space_charge();

}  // namespace gt
