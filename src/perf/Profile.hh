// `gtrack run --profile`: per kernel or stage, calls, time, counted bytes and FP64 operations, the
// achieved GB/s and GFLOP/s and their fractions of the machine's measured ceilings (a place on the
// roofline), and the forecast against the measured time. Printed, and written as /profile.
#pragma once

#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kernels/core/KernelTimer.hh"
#include "perf/Calibration.hh"
#include "perf/Forecast.hh"

namespace gt {

class OutputFile;

struct ProfileRow {
    std::string kernel;
    long calls = 0;
    double seconds = 0;  //!< [s] all calls
    double bytes = 0;    //!< counted, all calls
    double flops = 0;    //!< counted, all calls (0: not counted)
    // Rates over the calls after the first (warm-up), or over the only call.
    double bytes_per_second = 0;
    double flops_per_second = 0;
    double bandwidth_fraction = NAN;  //!< of the calibrated copy bandwidth (NaN: no calibration)
    double fp64_fraction = NAN;       //!< of the calibrated FP64 peak (NaN: no calibration or no count)
    double forecast = NAN;            //!< [s] predicted (NaN: no forecast)
};

struct Profile {
    std::vector<ProfileRow> rows;
    double measured = 0;                  //!< [s] timed kernels the forecast prices (all but the collective stages)
    double collective = 0;                //!< [s] collective stages (coll.*: wakes, LSC, CSR), not forecast
    std::optional<RunForecast> forecast;  //!< when a calibration and a beamline deck allow one
    std::string ceilings;                 //!< where the ceilings came from, or why there are none
    //! Work counted by the run itself, e.g. a detector's track_steps and substeps (printed with the
    //! rate over the measured kernel time; attributes of /profile).
    std::map<std::string, double> counts;
};

//! Rows from a run's kernel records, against `ceilings` when known.
Profile make_profile(std::map<std::string, KernelRecord> const& records, Ceilings const* ceilings,
                     std::string ceilings_note, std::optional<RunForecast> forecast);

//! The table printed at the end of a run.
std::string format_profile(Profile const& p);

//! /profile: one row per kernel (columns as ProfileRow; names in the attribute "kernels"), the
//! ceilings note, and measured against forecast seconds when there is one.
void write_profile(OutputFile& out, Profile const& p);

}  // namespace gt
