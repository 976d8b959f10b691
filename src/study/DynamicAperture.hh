// The dynamic-aperture study ([dynamic_aperture], docs/studies.md): a grid of initial conditions made by
// the beam's generation, tracked turn by turn with the run's element maps and loss records; per particle
// its survival turn and loss element, per angle the border, and with frequency_map the NAFF tunes of the
// two halves of the turns and the diffusion index.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "beam/Lattice.hh"
#include "deck/Config.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/study/StudyGrid.hh"
#include "run/BeamRun.hh"
#include "study/StudyCheckpoint.hh"

namespace gt::study {

//! What the grid and the tune analysis take from the ring's periodic optics (without RF, at delta = 0).
struct StudyOptics {
    double beta_x = 1, alpha_x = 0, beta_y = 1, alpha_y = 0;  //!< [m], [1] at the start
    double d_x = 0, dp_x = 0, d_y = 0, dp_y = 0;              //!< dispersion at the start [m], [1]
    double orbit[4] = {0, 0, 0, 0};                           //!< closed orbit at delta = 0
    double tune_x = 0, tune_y = 0;                            //!< with integer part
    double sigma_x = 0, sigma_y = 0;  //!< [m] sqrt(beta eps) of [beam.twiss] (0: no emittance given)
};

//! The ring's optics at the start, from `optics` on the deck's own maps (throws as compute_optics does).
StudyOptics study_optics(DeckConfig const& deck);

//! pt (gtrack's sign, pt = -dE / (p_ref c)) of relative momentum deviation delta.
double pt_of_delta(double delta, ReferenceParticle const& ref);

//! The grid of the deck's [dynamic_aperture] about the linear closed orbit of each delta
//! (x_co + D delta, px_co + D' delta: the second-order dispersion is left out, docs/studies.md).
StudyGrid make_study_grid(DynamicApertureConfig const& da, StudyOptics const& optics,
                          ReferenceParticle const& ref);

struct DynamicApertureResult {
    StudyGrid grid{};
    std::int64_t turns = 0;
    // Per particle, in id order.
    std::vector<double> delta, a, b, x0, y0;  //!< a, b: angle [rad] and radius, or x and y (grid units)
    std::vector<std::int64_t> survived;       //!< turns survived (= turns: never lost)
    std::vector<std::int64_t> lost_element;   //!< table entry where lost, -1 if never
    std::vector<double> lost_s;               //!< [m] end of that entry (NaN if never lost)
    // Frequency map (frequency_map = true): NaN for particles lost before the end.
    bool frequency_map = false;
    std::vector<double> qx1, qy1, qx2, qy2;  //!< fractional tunes of the first and second half
    std::vector<double> diffusion;           //!< log10 sqrt(dQx^2 + dQy^2)
    // Polar grids: one row per (delta, angle).
    std::vector<double> border_delta, border_angle;
    std::vector<double> border;      //!< largest radius below which every particle survived (0: none)
    std::vector<double> first_loss;  //!< smallest radius lost (NaN: none lost)
    // One row per delta: min and mean of the border over the angles.
    std::vector<double> da_min, da_mean;
    bool stopped = false;  //!< stopped by a signal before the last turn (its checkpoint written)
};

//! Where a grid's turns may stop (StudyCheckpoint.hh): none by default.
struct GridStops {
    std::int64_t first_turn = 0;  //!< turns done before (a resumed study)
    std::function<std::int64_t(std::int64_t, std::int64_t)>
        at_once;                                //!< (turn, chunk): the next call's turns
    std::function<bool(std::int64_t)> between;  //!< (turns done): false to stop there
};

//! The study's tracking calls for `particles` over `turns` turns of the `entries`-entry table: without
//! `after_turn`, whole turns in chunks of `chunk` turns a call of the many-turn executor, `stops` consulted
//! between calls; with it (a frequency map's samples), one track() of the table a turn, then
//! `after_turn(turn)`. The same calls price the study's forecast (StudyForecast.hh) on a backend that only
//! counts. Returns the turns done (fewer than `turns`: stopped).
std::int64_t track_grid(BeamKernels& kernels, ParticleView particles, size_type entries, std::int64_t turns,
                        std::int64_t chunk, std::function<void(std::int64_t)> const& after_turn,
                        GridStops const& stops = {});

//! Tracks the grid of deck.dynamic_aperture for lattice.turns turns on `kernels` and reads the result. Under
//! MPI every rank tracks its share of the grid and the result is whole on rank 0 only. With `control` (a
//! `gtrack run`) it resumes, checkpoints and stops as a beam run does (StudyCheckpoint.hh); `stopped` then
//! says it stopped.
DynamicApertureResult track_dynamic_aperture(DeckConfig const& deck, BeamKernels& kernels,
                                             StudyControl const* control = nullptr);

//! `gtrack run` of a deck with [dynamic_aperture]: the study, its file and a summary; the exit status.
int run_dynamic_aperture(DeckConfig const& deck, RunOptions const& options);

}  // namespace gt::study
