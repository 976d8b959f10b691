// gtrack forecast DECK: the deck's run time on this machine's CPU and GPU, predicted from counted
// work and the calibration file, before running it.
#include <cstdio>

#include <fmt/format.h>

#include "app/Commands.hh"
#include "deck/DeckReader.hh"
#include "deck/Scan.hh"
#include "run/Forecast.hh"

namespace gt {

int forecast_command(CommandOptions const& options)
{
    std::optional<std::uint64_t> index;
    if (!options.scan_index.empty()) index = parse_scan_index(options.scan_index);
    DeckConfig const deck = read_deck(options.deck, options.overrides, index);
    std::string const path = options.calibration.empty() ? default_calibration_path() : options.calibration;
    std::optional<Calibration> const calibration = find_calibration(options.calibration);
    if (!calibration)
        throw std::runtime_error(
            fmt::format("no calibration file at {}: run 'gtrack calibrate' first", path));
    std::printf("gtrack forecast %s (calibration %s, %s on %s); kernels only, setup and output excluded\n",
                options.deck.c_str(), path.c_str(), calibration->date.c_str(), calibration->host.c_str());
    for (auto const& [side, ceilings] :
         {std::pair{"cpu", calibration->cpu}, std::pair{"gpu", calibration->gpu}}) {
        if (!ceilings) {
            std::printf("\n%s: not calibrated\n", side);
            continue;
        }
        RunForecast const f = forecast_run(deck, *ceilings);
        std::printf("\n%s (%d %s): %.4g s (best %.4g s, worst %.4g s)\n%s", side, ceilings->cores,
                    std::string(side) == "gpu" ? "SMs" : "threads", f.seconds, f.best, f.worst,
                    format_forecast(f).c_str());
    }
    return 0;
}

}  // namespace gt
