// CPU-versus-GPU validation of a beamline deck: the same initial beam tracked on two backends,
// compared particle by particle (coordinates, loss records) and statistic by statistic at every
// stage, with each backend's time per stage.
//
// The two backends are parameters: `gtrack validate` passes the CPU and the CUDA backend, tests pass
// two CPU backends, one of them wrapped to perturb its results, so the comparison itself is tested
// on machines without a GPU.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "deck/Config.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/core/KernelTimer.hh"
#include "kernels/spacecharge/SpaceChargeKernels.hh"
#include "compare/Tolerance.hh"
#include "run/ValidationSolvers.hh"

namespace gt {

struct ValidationOptions {
    //! By quantity name: "x", "px", "y", "py", "t", "pt" (coordinates), "stats/<column>" (statistics
    //! columns as in /stats). Empty: bitwise everywhere. Loss records and ids are always exact.
    ToleranceRules tolerances;
    //! Where the states are compared: every_slice (default), every_element, turn or end.
    StatsWhere stages = StatsWhere::every_slice;
    //! After space-charge kicks, quantities that no rule names get the round-off tolerance of
    //! compare/RoundOffTolerance.hh instead of bitwise (the FFTs of the two backends round differently).
    bool round_off_defaults = true;
    //! The space-charge solver beside each backend; empty: the CPU or the CUDA one by the backend's
    //! memory. Tests plant perturbed solvers here.
    std::function<std::unique_ptr<SpaceChargeKernels>(BeamKernels const&)> space_charge_solver;
    //! A testing aid (`gtrack validate --test-perturb-kick`): one particle's kick on the candidate
    //! perturbed, a defect validate must report. Inactive by default.
    KickPerturbation perturb_candidate;
};

//! The comparison at one stage (stage 0: the initial beam, before any element).
struct StageComparison {
    std::size_t index = 0;
    std::int64_t entry = -1;  //!< lattice table entry after which (-1: initial beam)
    std::int64_t turn = 0;
    std::string name;        //!< deck element name ("initial beam" for stage 0)
    std::string type;        //!< deck element type ("" for stage 0)
    double s = 0;            //!< [m] over all turns
    std::int64_t kicks = 0;  //!< space-charge kicks before this stage
    double round_off = 0;    //!< the default tolerance's tau here (0: bitwise)
    //! The default per-particle |diff| bound of x, px, y, py, t, pt from the kicks so far (KickRoundOff).
    double round_off_bound[6] = {0, 0, 0, 0, 0, 0};
    DifferenceSummary coordinate[6];  //!< x, px, y, py, t, pt over all particles (lost ones included)
    //! Particles with any coordinate, loss record or id outside tolerance.
    std::size_t particles_outside = 0;
    //! Particles with any bit of a coordinate, loss record or id different (within tolerance or not).
    std::size_t particles_differing = 0;
    std::size_t loss_records_differing = 0;  //!< particles whose lost_element, lost_turn or id differ
    DifferenceSummary stats;                 //!< over all statistics columns
    std::size_t stats_outside = 0;           //!< statistics columns outside tolerance
    std::string worst_stat;                  //!< the column with the largest relative difference
    double alive_reference = 0;
    double alive_candidate = 0;
    double reference_seconds = 0;  //!< tracking + moments to reach and measure this stage [s]
    double candidate_seconds = 0;

    bool ok() const { return particles_outside == 0 && loss_records_differing == 0 && stats_outside == 0; }
};

struct ValidationResult {
    std::string deck_path;
    std::string reference_name;  //!< description() of each backend
    std::string candidate_name;
    std::uint64_t macroparticles = 0;
    std::int64_t turns = 1;
    std::string stages_where;                       //!< "after every slice", ...
    std::string tolerances;                         //!< ToleranceRules::describe()
    std::vector<std::string> coordinate_tolerance;  //!< Tolerance::describe() per coordinate
    std::string stats_tolerance;  //!< the statistics columns' tolerance, or "per column" when they differ
    std::string round_off;        //!< the default rule after space-charge kicks ("" when none applies)
    //! What ValidationOptions::perturb_candidate did ("" when inactive; "not applied" when the deck
    //! has fewer kicks than the one named).
    std::string perturbation;
    std::vector<StageComparison> stages;
    std::map<std::string, KernelRecord> reference_kernels;
    std::map<std::string, KernelRecord> candidate_kernels;
    double reference_seconds = 0;  //!< sums over stages
    double candidate_seconds = 0;

    bool ok() const;
    //! The first stage that failed, or nullptr.
    StageComparison const* first_failure() const;
};

//! Tracks `deck` on both backends from the same initial beam (generated on each from the deck's seed,
//! or read from its file, and compared as stage 0) and compares them at every stage. `reference` is
//! the CPU in gtrack; `candidate` the GPU. Throws DeckError for decks the run would refuse.
ValidationResult validate_beamline(DeckConfig const& deck, BeamKernels& reference, BeamKernels& candidate,
                                   ValidationOptions const& options);

//! For the terminal: tolerances, per-coordinate summary, a table condensed to at most `max_rows` rows
//! (all stages when they fit, else one row per deck element, plus the worst stages), totals, verdict.
std::string validation_summary(ValidationResult const& result, std::size_t max_rows = 40);

//! The full report as markdown: everything in the summary, every stage, and per-kernel times.
std::string validation_report(ValidationResult const& result);

//! The one-line verdict ("PASS: ..." or "FAIL: ...").
std::string validation_verdict(ValidationResult const& result);

}  // namespace gt
