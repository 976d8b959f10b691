// The profile of a finished run: the calibration file's ceilings for the backend that ran (when the
// file exists), and for a beamline deck the forecast of the same deck to compare with.
#pragma once

#include <map>
#include <string>

#include "deck/Config.hh"
#include "perf/Profile.hh"

namespace gt {

//! `calibration_path`: "" for the default location (default_calibration_path()).
Profile profile_of_run(DeckConfig const& deck, std::map<std::string, KernelRecord> const& records,
                       bool on_gpu, std::string const& calibration_path);

}  // namespace gt
