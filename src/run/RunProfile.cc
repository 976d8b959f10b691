// Joining the run's kernel records, the calibration and the forecast.
#include "run/RunProfile.hh"

#include <optional>

#include <fmt/format.h>

#include "run/Forecast.hh"

namespace gt {

namespace {

//! The profile with the calibration's ceilings for the backend that ran, and `forecast`'s pricing of the run
//! with them (nullopt: no forecast; `note` is appended to the calibration's description).
Profile profile_with(std::map<std::string, KernelRecord> const& records, bool on_gpu,
                     std::string const& calibration_path,
                     std::function<std::optional<RunForecast>(Ceilings const&, std::string&)> const& forecast)
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
    std::string note_tail;
    std::optional<RunForecast> f = forecast(*c, note_tail);
    std::string const note =
        fmt::format("{} of {}, measured {} on {} with {} {}{}", side, path, calibration->date,
                    calibration->host, c->cores, on_gpu ? "SMs" : "threads", note_tail);
    return make_profile(records, &*c, note, std::move(f));
}

}  // namespace

Profile profile_of_run(DeckConfig const& deck, std::map<std::string, KernelRecord> const& records,
                       bool on_gpu, std::string const& calibration_path, DetectorWork const* counted)
{
    return profile_with(records, on_gpu, calibration_path,
                        [&](Ceilings const& c, std::string& note) -> std::optional<RunForecast> {
                            if (deck.run.kind != "detector") return forecast_run(deck, c);
                            if (!counted) return std::nullopt;  // a detector deck without its counts
                            if (std::string const key = c.missing_detector_key(); !key.empty()) {
                                note = fmt::format(
                                    "; no forecast: the calibration has no {} (run 'gtrack "
                                    "calibrate')",
                                    key);
                                return std::nullopt;
                            }
                            note = "; forecast: this run's own counts priced";
                            return price_detector_work(deck, *counted, c, on_gpu);
                        });
}

Profile profile_of_run(std::map<std::string, KernelRecord> const& records, bool on_gpu,
                       std::string const& calibration_path,
                       std::function<RunForecast(Ceilings const&)> const& forecast)
{
    return profile_with(
        records, on_gpu, calibration_path,
        [&](Ceilings const& c, std::string&) -> std::optional<RunForecast> { return forecast(c); });
}

}  // namespace gt
