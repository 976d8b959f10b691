// The forecast of a ring study (`gtrack forecast`, `gtrack run --profile`): the study's own tracking calls
// (the grid's generation and turns, the momentum aperture's blocks per location) counted on a backend that
// only counts and priced with a machine's ceilings, as a beam run's schedule is (run/Forecast.hh).
#pragma once

#include "deck/Config.hh"
#include "perf/Calibration.hh"
#include "perf/Forecast.hh"

namespace gt::study {

//! True for a deck with [dynamic_aperture] or [momentum_aperture].
bool is_study(DeckConfig const& deck);

//! Counts the work of the study of `deck` (is_study) on one process and prices it with `ceilings`.
RunForecast forecast_study(DeckConfig const& deck, Ceilings const& ceilings);

}  // namespace gt::study
