// gtrack forecast DECK: the deck's run time on this machine's CPU and GPU, predicted from counted
// work and the calibration file, before running it.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "app/Commands.hh"
#include "deck/DeckReader.hh"
#include "deck/Scan.hh"
#include "run/DetectorForecast.hh"
#include "run/Forecast.hh"
#include "study/StudyForecast.hh"

namespace gt {

namespace {

//! A pilot run's counts, scaled to the run, priced on each calibrated side. `unit`: what the pilot took the
//! first of (a detector deck's events, or a beamline deck's macroparticles, whose losses the detector
//! tracks).
void print_detector_forecast(DeckConfig const& deck, DetectorPilot const& pilot, char const* unit,
                             char const* rule, Calibration const& calibration)
{
    DetectorWork const work = extrapolate(pilot);
    std::printf(
        "\npilot run: the first %llu of %llu %s (%s) tracked on this host's CPU in "
        "%.3g s: %.6g track-steps, %.6g substeps, %.6g step iterations, %.6g secondaries, %.6g hits\n"
        "all %llu %s (independent: counts times %.4g; iterations from the live tracks an iteration holds, up "
        "to %llu slots): %.4g track-steps, %.4g substeps, %.4g step iterations, %.4g secondaries, %.4g "
        "hits\n",
        static_cast<unsigned long long>(pilot.events), static_cast<unsigned long long>(pilot.of_events), unit,
        rule, pilot.seconds, pilot.counted.steps, pilot.counted.substeps, pilot.counted.iterations,
        pilot.counted.secondaries, pilot.counted.hits, static_cast<unsigned long long>(pilot.of_events), unit,
        double(pilot.of_events) / double(std::max<std::uint64_t>(1, pilot.events)),
        static_cast<unsigned long long>(pilot.slots), work.steps, work.substeps, work.iterations,
        work.secondaries, work.hits);
    for (auto const& [side, ceilings] :
         {std::pair{"cpu", calibration.cpu}, std::pair{"gpu", calibration.gpu}}) {
        bool const gpu = std::string(side) == "gpu";
        if (!ceilings) {
            std::printf("\n%s: not calibrated\n", side);
            continue;
        }
        if (std::string const key = ceilings->missing_detector_key(); !key.empty()) {
            std::printf(
                "\n%s: cannot price detector decks: this calibration predates the detector loop's costs (it "
                "has no %s); run 'gtrack calibrate' again\n",
                side, key.c_str());
            continue;
        }
        RunForecast const f = price_detector_work(deck, work, *ceilings, gpu);
        std::printf("\n%s (%d %s, %s): %.4g s (best %.4g s, worst %.4g s)\n%s", side, ceilings->cores,
                    gpu ? "SMs" : "threads", walks_slots(deck, gpu) ? "slot walk" : "track loop", f.seconds,
                    f.best, f.worst, format_forecast(f).c_str());
    }
    if (deck.detector.field.type != "none" && deck.detector.field.type != "uniform" &&
        deck.detector.field.type != "solenoid")
        std::printf(
            "\nnote: the field map's substeps are priced at the solenoid's cost (their interpolation is not "
            "calibrated on its own)\n");
    if (deck.detector.strips.enabled)
        std::printf(
            "\nthe strips' digitization and reconstruction ([strips]) is not priced: the figures above are "
            "the "
            "stepping loop's (the strips' stage runs after it, in the output stage)\n");
}

//! A detector deck: a pilot run of its first events.
int forecast_detector(DeckConfig const& deck, Calibration const& calibration)
{
    print_detector_forecast(deck, run_detector_pilot(deck), "events", "5% of them, at least 8", calibration);
    return 0;
}

}  // namespace

int forecast_command(CommandOptions const& options)
{
    std::optional<std::uint64_t> index;
    if (!options.scan_index.empty()) index = parse_scan_index(options.scan_index);
    DeckConfig const deck = read_deck(options.deck, options.overrides, index);
    std::string const path = options.calibration.empty() ? default_calibration_path() : options.calibration;
    std::optional<Calibration> calibration = find_calibration(options.calibration);
    std::string source = fmt::format("calibration {}, {} on {}", path, calibration ? calibration->date : "",
                                     calibration ? calibration->host : "");
    if (!calibration && !options.calibration.empty())
        throw std::runtime_error(
            fmt::format("no calibration file at {}: give an existing one, or leave "
                        "--calibration out to measure this machine now",
                        path));
    if (!calibration) {
        // Out of the box: a quick measurement (seconds), kept at the default path for the next forecast.
        std::printf(
            "gtrack forecast: no calibration at %s yet: measuring this machine now (gtrack calibrate "
            "--quick, a few seconds)\n",
            path.c_str());
        calibration = measure_calibration(true, false);
        source = "a quick measurement just now";
        try {
            write_calibration(path, *calibration);
            std::printf("stored it in %s for next time ('gtrack calibrate' measures more exactly)\n",
                        path.c_str());
            source += ", stored in " + path;
        } catch (std::exception const& e) {
            std::fprintf(stderr, "gtrack forecast: warning: %s: the measurement is used but not kept\n",
                         e.what());
        }
    }
    std::printf("\ngtrack forecast %s (%s); kernels only, setup and output excluded\n", options.deck.c_str(),
                source.c_str());
    if (deck.run.kind == "detector") return forecast_detector(deck, *calibration);
    for (auto const& [side, ceilings] :
         {std::pair{"cpu", calibration->cpu}, std::pair{"gpu", calibration->gpu}}) {
        if (!ceilings) {
            std::printf("\n%s: not calibrated\n", side);
            continue;
        }
        // A ring study prices its own calls (the grid's particles and turns, the blocks per location).
        RunForecast const f =
            study::is_study(deck) ? study::forecast_study(deck, *ceilings) : forecast_run(deck, *ceilings);
        std::printf("\n%s (%d %s): %.4g s (best %.4g s, worst %.4g s)\n%s", side, ceilings->cores,
                    std::string(side) == "gpu" ? "SMs" : "threads", f.seconds, f.best, f.worst,
                    format_forecast(f).c_str());
        if (study::is_study(deck))
            std::printf(
                "note: a study's forecast counts every particle through every turn (%s); particles lost "
                "early shorten the run by their share of the turns\n",
                deck.dynamic_aperture.enabled ? "the grid's particles x turns x table entries"
                                              : "the candidates of every location x turns x table entries");
        if (ceilings->stale_map_model())
            std::printf(
                "note: this %s calibration predates the map rates by family and the costs per push of a "
                "mixed lattice and per particle and call (fp64_map_<family>, mix_push_seconds, "
                "call_particle_seconds): the element maps are priced as before, which runs low with "
                "the CPU's vector lanes (measured / forecast up to ~2); run 'gtrack calibrate' again\n",
                side);
        if (ceilings->stale_field_map_rate())
            std::printf(
                "note: this %s calibration predates the field-map family's rate (fp64_map_field_map): the "
                "profile elements (RK4 through an on-axis field) are priced at the other family's rate, as "
                "before; run 'gtrack calibrate' again\n",
                side);
        if (ceilings->stale_field_map_3d_rate())
            std::printf(
                "note: this %s calibration predates the 3D field maps' rate (fp64_map_field_map_3d): the "
                "field_map elements are priced at the other family's rate, as before (on the GPU about half "
                "their time); run 'gtrack calibrate' again\n",
                side);
        if (ceilings->download_measured() && ceilings->stale_loading_model())
            std::printf(
                "note: this %s calibration predates the kernels' loading before their first timed call and "
                "the streaming bandwidth by element switch (staging_in_kernels, track_bandwidth_<switch>): "
                "its warm-up holds module loading and, on a GPU, the gathers the host staging, which runs "
                "no longer time as kernel work (the forecast runs high); run 'gtrack calibrate' again\n",
                side);
        if (!ceilings->download_measured())
            std::printf(
                "note: this %s calibration predates the output's gathers to the host (download_latency, "
                "download_bandwidth, staging_bandwidth, ...): the loss records' and snapshots' gathers "
                "are not priced, which runs low on a GPU; run 'gtrack calibrate' again\n",
                side);
    }
    if (deck.detector.along_beamline) {
        // The detector part: its primaries are the particles the line loses, known only by tracking the beam.
        std::printf(
            "\nthe figures above are the beam part's; the detector part (the showers of the particles the "
            "line loses), from a pilot run of the beam's first macroparticles and their losses' showers:\n");
        print_detector_forecast(deck, run_beam_detector_pilot(deck), "macroparticles",
                                "5% of them, at least 8, doubled until they lose 32", *calibration);
    }
    return 0;
}

}  // namespace gt
