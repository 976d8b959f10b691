// Comparing the two backends' states at one stage of `gtrack validate`: particles (in id order), loss
// records and statistics, each against the stage's tolerance (docs/validation.md). Validation.cc runs
// the backends and calls this; ValidationReport.cc shares the coordinate names.
#pragma once

#include <string>
#include <vector>

#include "beam/Lattice.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/core/ParticleState.hh"
#include "run/BeamTracker.hh"
#include "compare/Tolerance.hh"
#include "run/Validation.hh"

namespace gt::validation {

inline constexpr char const* k_coordinates[6] = {"x", "px", "y", "py", "t", "pt"};
inline constexpr char const* k_coordinate_units[6] = {"m", "1", "m", "1", "m", "1"};

//! A host view of a state, copied out of device memory when it lives there.
struct HostView {
    ParticleState copy;
    ParticleView view;
    explicit HostView(ParticleState& s);
    //! Particles in id order, in a copy (space-charge kicks sort particles by grid cell: a rounding
    //! difference in a coordinate can put two particles in another order on the other backend).
    void order_by_id();
};

//! The tolerances of each stage and the comparison of particles and statistics under them.
class StageComparer {
  public:
    explicit StageComparer(ValidationOptions const& options);

    //! The tolerances of one stage: the rules' where they name a quantity; elsewhere bitwise before
    //! the first space-charge kick (tau == 0), after it each coordinate's |diff| <= bound[k], the
    //! round-off the kicks so far can leave (KickRoundOff), and for the statistics, with each
    //! coordinate's relative tau_k = max(tau, bound_k / rms_k): its mean, sigma and extent within
    //! rel 4 tau_k or abs tau_k x rms_k, an emittance, beta or alpha (products of two or four such)
    //! within rel 4 tau of its plane, the alphas (which cross zero) also abs 4 tau. Counters (s,
    //! element, turn, alive) stay exact.
    void set_stage(double tau, double const (&bound)[6], std::vector<double> const& reference_stats);

    Tolerance const& coordinate_tolerance(int k) const { return tolerance_[k]; }
    //! The statistics columns' common tolerance, or "per column".
    std::string statistics_tolerance() const;

    void compare_particles(ParticleView a, ParticleView b, StageComparison& st) const;
    void compare_statistics(std::vector<double> const& a, std::vector<double> const& b,
                            StageComparison& st) const;

  private:
    std::size_t column(std::string const& name) const;

    Tolerance base_[6], tolerance_[6];
    bool ruled_[6] = {};
    std::vector<std::string> columns_;
    std::vector<Tolerance> column_base_, column_tolerance_;
    std::vector<bool> column_ruled_;
};

//! The statistics row (as in /stats) of `particles` at output point `p`; `alive` gets the count.
std::vector<double> statistics_at(BeamKernels& kernels, ParticleView particles, Lattice const& lattice,
                                  OutputPoint const& p, double& alive);

}  // namespace gt::validation
