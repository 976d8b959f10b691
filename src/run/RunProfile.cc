// Joining the run's kernel records, the calibration and the forecast.
#include "run/RunProfile.hh"

#include <fmt/format.h>

#include "run/Forecast.hh"

namespace gt {

Profile profile_of_run(DeckConfig const& deck, std::map<std::string, KernelRecord> const& records,
                       bool on_gpu, std::string const& calibration_path, DetectorWork const* counted)
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
    std::string detector_note;
    if (deck.run.kind != "detector") {
        forecast = forecast_run(deck, *c);
    } else if (!counted) {
        // a detector deck without its counts: no forecast
    } else if (std::string const key = c->missing_detector_key(); !key.empty()) {
        detector_note = fmt::format("; no forecast: the calibration has no {} (run 'gtrack calibrate')", key);
    } else {
        forecast = price_detector_work(deck, *counted, *c, on_gpu);
        detector_note = "; forecast: this run's own counts priced";
    }
    std::string const note =
        fmt::format("{} of {}, measured {} on {} with {} {}{}", side, path, calibration->date,
                    calibration->host, c->cores, on_gpu ? "SMs" : "threads", detector_note);
    return make_profile(records, &*c, note, std::move(forecast));
}

}  // namespace gt
