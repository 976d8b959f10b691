// Joining the run's kernel records, the calibration and the forecast.
#include "run/RunProfile.hh"

#include <fmt/format.h>

#include "run/Forecast.hh"

namespace gt {

Profile profile_of_run(DeckConfig const& deck, std::map<std::string, KernelRecord> const& records,
                       bool on_gpu, std::string const& calibration_path)
{
    std::string const path = calibration_path.empty() ? default_calibration_path() : calibration_path;
    std::optional<Calibration> const calibration = find_calibration(calibration_path);
    char const* const side = on_gpu ? "gpu" : "cpu";
    if (!calibration)
        return make_profile(records, nullptr,
                            fmt::format("unknown: no calibration file at {} (run 'gtrack calibrate')", path),
                            std::nullopt);
    std::optional<Ceilings> const& c = on_gpu ? calibration->gpu : calibration->cpu;
    if (!c)
        return make_profile(records, nullptr, fmt::format("unknown: {} has no [{}] section", path, side),
                            std::nullopt);
    std::optional<RunForecast> forecast;
    if (deck.run.kind != "detector") forecast = forecast_run(deck, *c);
    std::string const note =
        fmt::format("{} of {}, measured {} on {} with {} {}", side, path, calibration->date,
                    calibration->host, c->cores, on_gpu ? "SMs" : "threads");
    return make_profile(records, &*c, note, std::move(forecast));
}

}  // namespace gt
