// The profile of a finished run: the calibration file's ceilings for the backend that ran (when the
// file exists), and the forecast to compare with: a beamline deck's of the same deck, a detector deck's
// of the run's own counts (its pilot is the run: the costs alone are compared).
#pragma once

#include <functional>
#include <map>
#include <string>

#include "deck/Config.hh"
#include "perf/Forecast.hh"
#include "perf/Profile.hh"
#include "run/DetectorForecast.hh"

namespace gt {

//! `calibration_path`: "" for the default location (default_calibration_path()). `counted`: a detector
//! run's counts, priced as `forecast` prices a pilot's (null: a detector deck gets no forecast).
Profile profile_of_run(DeckConfig const& deck, std::map<std::string, KernelRecord> const& records,
                       bool on_gpu, std::string const& calibration_path,
                       DetectorWork const* counted = nullptr);

//! A run whose work `forecast` prices with the backend's ceilings (a ring study's own schedule, src/study/).
Profile profile_of_run(std::map<std::string, KernelRecord> const& records, bool on_gpu,
                       std::string const& calibration_path,
                       std::function<RunForecast(Ceilings const&)> const& forecast);

}  // namespace gt
