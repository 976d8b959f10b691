// `gtrack forecast DECK`: the run time of a beamline deck predicted from counted work (bytes, FP64
// operations, launches, FFT sizes) and a machine's measured ceilings, with a best-worst range
// (Barbone et al., "Application of computational modelling to particle physics", sec. 2.5: half and
// twice the counted work bound the best and worst cases).
#pragma once

#include <map>
#include <string>

#include "deck/Config.hh"
#include "perf/Calibration.hh"

namespace gt {

//! One kernel or stage of the forecast run.
struct KernelForecast {
    long calls = 0;
    double bytes = 0;                         //!< counted, summed over calls
    double flops = 0;                         //!< counted, summed over calls
    double seconds = 0, best = 0, worst = 0;  //!< [s] predicted
};

struct RunForecast {
    std::map<std::string, KernelForecast> kernels;  //!< by the names the profile uses
    double seconds = 0, best = 0, worst = 0;        //!< [s] all timed kernels (I/O and setup excluded)
    //! [s] host work of the output stage that the kernels' time does not hold: the GPU gathers' page-locked
    //! staging, allocated while the device waits (Ceilings::staging_in_kernels == 0); not in `seconds`.
    double host_staging_seconds = 0;
};

// forecast_run (run/Forecast.hh) counts a run's work with the run's own schedule.

//! The forecast as a table (kernel, calls, GB, GFLOP, predicted best / point / worst).
std::string format_forecast(RunForecast const& f);

}  // namespace gt
