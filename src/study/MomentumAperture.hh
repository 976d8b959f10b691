// The momentum-aperture study ([momentum_aperture], docs/studies.md): at each chosen location of a ring,
// the largest positive and negative momentum kick delta, given on the closed orbit, that survives N turns,
// found on a grid of the deck's resolution. Every (location, delta) candidate is one particle of one
// state, tracked by the backend's own executors (the same maps, apertures and loss records as a run):
// each location's block from its location to the ring's end, all blocks together for the whole turns
// (the many-turn executor), each block back to its location.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "deck/Config.hh"
#include "kernels/beam/BeamKernels.hh"
#include "run/BeamRun.hh"
#include "study/StudyCheckpoint.hh"

namespace gt::study {

//! Why the search stopped on one side of one location.
inline constexpr std::int64_t k_lost_in_bucket = -1;  //!< the limiting candidate left the RF bucket
inline constexpr std::int64_t k_none_lost = -2;       //!< no candidate up to delta_max was lost

struct MomentumApertureResult {
    std::int64_t turns = 0;
    std::int64_t candidates = 0;  //!< per side and location: delta = k resolution, k = 1 ... candidates
    double resolution = 0;
    bool rf = false;                //!< some cavity had a voltage while tracking
    double bucket_half_length = 0;  //!< [m] lambda_rf / 2 of the lowest RF frequency (rf: else 0)
    // One row per location (the exit of a table entry), in s order.
    std::vector<std::int64_t> element;            //!< table entry whose exit is the location
    std::vector<std::string> name;                //!< its deck element
    std::vector<double> s;                        //!< [m] the location
    std::vector<double> delta_plus, delta_minus;  //!< [1] the largest |delta| of each sign below which every
                                                  //!< candidate survived (0: the first step was lost)
    std::vector<std::int64_t> lost_element_plus, lost_element_minus;  //!< where the first lost candidate
                                                                      //!< beyond delta_plus/minus was lost
    std::vector<double> lost_s_plus, lost_s_minus;                    //!< [m] end of that entry (NaN: none)
    std::vector<std::int64_t> lost_turn_plus, lost_turn_minus;  //!< revolution since the kick, 1 ... turns
                                                                //!< (0: none lost)
    std::int64_t pushes = 0;  //!< particle-turns tracked (candidates x 2 x locations x turns)
};

//! The table entries (exits of element occurrences) the deck's [momentum_aperture] selects, in s order.
//! Throws DeckError naming the section when none lies in its s range.
std::vector<std::size_t> momentum_aperture_locations(DeckConfig const& deck, Lattice const& lattice);

//! The deck the study tracks: with rf = false every cavity's voltage is set to 0 (4D), and
//! lattice.turns is the study's turns.
DeckConfig momentum_aperture_deck(DeckConfig const& deck);

//! The search's tracking calls: `all` the candidates of this rank, `block(b)` its part of location b's block
//! (size 0: none), `where[b]` the location's table entry. Each block from its location to the ring's end, all
//! together for turns 1 ... turns-1 in calls of `chunk` turns of the many-turn executor, each block back
//! through its location. The same calls price the study's forecast (StudyForecast.hh).
void track_candidates(BeamKernels& kernels, ParticleView all,
                      std::function<ParticleView(std::size_t)> const& block,
                      std::vector<std::size_t> const& where, size_type entries, std::int32_t turns,
                      std::int32_t chunk);

//! The search on `kernels` (CPU or GPU: the same bits).
//! Under MPI every rank tracks its share of the candidates and the result is whole on rank 0 only. `control`
//! (a `gtrack run`): checkpoints are refused (StudyCheckpoint.hh).
MomentumApertureResult track_momentum_aperture(DeckConfig const& deck, BeamKernels& kernels,
                                               StudyControl const* control = nullptr);

//! `gtrack run` of a deck with [momentum_aperture]: the study, its file and a summary; the exit status.
int run_momentum_aperture(DeckConfig const& deck, RunOptions const& options);

}  // namespace gt::study
