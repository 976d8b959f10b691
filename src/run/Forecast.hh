// `gtrack forecast DECK`: a beamline deck's work counted with the run's own schedule (BeamTracker,
// the space-charge kicks) and priced with a machine's ceilings; the types and the table: perf/Forecast.hh.
#pragma once

#include "deck/Config.hh"
#include "perf/Calibration.hh"
#include "perf/Forecast.hh"

namespace gt {

//! Counts the work of running `deck` (a beamline deck) and prices it with `ceilings`.
RunForecast forecast_run(DeckConfig const& deck, Ceilings const& ceilings);

}  // namespace gt
