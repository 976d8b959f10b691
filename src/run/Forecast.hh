// `gtrack forecast DECK`: a beamline deck's work counted with the run's own schedule (BeamTracker,
// the space-charge kicks) and priced with a machine's ceilings; the types and the table: perf/Forecast.hh.
#pragma once

#include <functional>

#include "deck/Config.hh"
#include "kernels/beam/BeamKernels.hh"
#include "perf/Calibration.hh"
#include "perf/Forecast.hh"

namespace gt {

//! Counts the work of running `deck` (a beamline deck) and prices it with `ceilings`.
RunForecast forecast_run(DeckConfig const& deck, Ceilings const& ceilings);

//! Prices the calls `calls` makes on a backend that only counts (it reads the views' sizes, never their
//! storage), plus the first calls' warm-up: a ring study's own schedule (src/study/StudyForecast.hh).
RunForecast forecast_calls(Ceilings const& ceilings, std::function<void(BeamKernels&)> const& calls);

}  // namespace gt
