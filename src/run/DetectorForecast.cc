// The pilot run of a detector deck, its counts scaled to the whole run, and their price.
#include "run/DetectorForecast.hh"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

#include <unistd.h>

#include "kernels/detector/StepActions.hh"
#include "run/BeamDetectorRun.hh"
#include "run/DetectorRun.hh"

namespace gt {

std::uint64_t pilot_events(std::uint64_t events)
{
    std::uint64_t const share = (events + 19) / 20;
    return std::min(events, std::max<std::uint64_t>(8, share));
}

DetectorWork work_of(DetectorRunResult const& r)
{
    DetectorWork w;
    w.steps = double(r.counters[k_steps]);
    w.substeps = double(r.counters[k_substeps]);
    w.iterations = double(r.iterations);
    w.secondaries = double(r.counters[k_secondaries]);
    w.hits = double(r.total_hits);
    return w;
}

DetectorPilot run_detector_pilot(DeckConfig const& deck)
{
    if (deck.run.kind != "detector")
        throw std::logic_error("a pilot run is made of detector decks (run.kind = \"detector\") only");
    DeckConfig pilot = deck;
    DetectorPilot p;
    p.of_events = deck.detector.gun.events;
    p.events = pilot_events(p.of_events);
    p.slots = deck.detector.track_slots;
    // The run's first events: primary id i is drawn from (seed, i) whatever the event count (ParticleGun.hh).
    pilot.detector.gun.events = p.events;
    // With the deck's own loop: the CPU's track loop gives the slot walk's steps bit for bit and counts its
    // iterations as the slot walk runs them (CpuTrackLoop.cc). The strips' stage is not priced.
    pilot.detector.strips.enabled = false;
    DetectorRunOptions options;
    options.backend = "cpu";
    options.write_output = false;
    options.quiet = true;
    auto const t0 = std::chrono::steady_clock::now();
    p.counted = work_of(run_detector_deck(pilot, options));
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return p;
}

DetectorPilot run_beam_detector_pilot(DeckConfig const& deck)
{
    if (deck.run.kind != "beamline" || !deck.detector.along_beamline)
        throw std::logic_error("a beam pilot run is made of beamline decks with a detector beside them only");
    DetectorPilot p;
    p.of_events = deck.beam.macroparticles;
    p.slots = deck.detector.track_slots;
    // The joined run writes its file: a scratch one, removed after.
    std::filesystem::path const scratch =
        std::filesystem::temp_directory_path() / ("gtrack-pilot-" + std::to_string(::getpid()) + ".h5");
    RunOptions options;
    options.backend = "cpu";
    options.quiet = true;
    options.output = scratch.string();
    // The detector's work goes with the losses, which may be few: the pilot doubles until it has
    // k_pilot_primaries of them (a count known to ~18%) or is the whole beam.
    constexpr std::uint64_t k_pilot_primaries = 32;
    BeamDetectorResult result;
    auto const t0 = std::chrono::steady_clock::now();
    for (p.events = pilot_events(p.of_events);; p.events = std::min(p.of_events, 2 * p.events)) {
        DeckConfig pilot = deck;
        pilot.beam.macroparticles = p.events;
        pilot.detector.strips.enabled = false;
        result = BeamDetectorResult{};
        int const status = run_beam_detector(pilot, options, &result);
        std::error_code ignored;
        std::filesystem::remove(scratch, ignored);
        if (status != 0)
            throw std::runtime_error("the pilot run of the beam and its detector failed (exit status " +
                                     std::to_string(status) + ")");
        if (result.primaries.events >= k_pilot_primaries || p.events >= p.of_events) break;
    }
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    p.counted = work_of(result.detector);
    return p;
}

DetectorWork extrapolate(DetectorPilot const& p)
{
    DetectorWork w;
    if (p.events == 0) return w;
    double const scale = double(p.of_events) / double(p.events);
    w.steps = p.counted.steps * scale;
    w.substeps = p.counted.substeps * scale;
    w.secondaries = p.counted.secondaries * scale;
    w.hits = p.counted.hits * scale;
    if (p.counted.iterations <= 0) return w;
    // Live tracks an iteration: the pilot's, with the events' tracks side by side. While they fit in the
    // slots the run is the pilot widened: as many iterations. Where they do not, the run holds the slots
    // full for steps / slots iterations, and before and after that it fills and drains them as the pilot
    // does: its iterations once more. (Filling the slots alone, the old estimate, priced the GPU's
    // shower decks 1.3-1.6x low: em_calorimeter, 100 events in 8192 slots, ran ~710 iterations where
    // steps / slots is 451 and the pilot's 261; calorimeter ~260 for 156 + 102; testem2 ~500 for
    // 361 + 109; testem3 ~950 for 754 + 173; tracker 76 for 60 + 25, H100.)
    double const live = p.counted.steps / p.counted.iterations;
    double const slots = double(p.slots);
    if (live * scale <= slots || slots <= 0)
        w.iterations = p.counted.iterations;
    else
        w.iterations = p.counted.iterations + w.steps / slots;
    return w;
}

bool walks_slots(DeckConfig const& deck, bool gpu)
{
    return gpu || deck.detector.physics.showers || deck.detector.cpu_loop != "tracks";
}

RunForecast price_detector_work(DeckConfig const& deck, DetectorWork const& w, Ceilings const& c, bool gpu)
{
    if (!c.missing_detector_key().empty())
        throw std::logic_error("the calibration lacks " + c.missing_detector_key());
    DetectorConfig const& d = deck.detector;
    RunForecast f;
    auto const add = [&f](char const* name, double calls, double seconds) {
        if (calls <= 0) return;
        KernelForecast& k = f.kernels[name];
        k.calls = long(calls);
        // Barbone et al. (perf/Forecast.hh): half and twice the counted work bound the best and worst cases.
        k.seconds = seconds;
        k.best = 0.5 * seconds;
        k.worst = 2.0 * seconds;
    };
    // A step's own cost (limit, propagation's first substep, energy loss and scattering, boundary, hit,
    // and with showers the interactions and secondaries) by the deck's physics.
    double const step = d.physics.showers ? c.detector_shower_step_seconds : c.detector_step_seconds;
    add(d.physics.showers ? "shower steps" : "steps", w.steps, w.steps * step);
    // A hit scored (its record written) and sorted at the end.
    add("hits", w.hits, w.hits * c.detector_hit_seconds);
    // The field's substeps beyond a step's first: uniform, or the solenoid's (field maps: at the solenoid's
    // cost, their interpolation not measured on its own).
    if (d.field.type != "none") {
        double const per = d.field.type == "uniform" ? c.detector_uniform_substep_seconds
                                                     : c.detector_solenoid_substep_seconds;
        double const extra = std::max(0.0, w.substeps - w.steps);
        add("field substeps", extra, extra * per);
    }
    // The slot walk visits every slot at each of its ~20 actions an iteration, live or not, and launches
    // them (the GPU's fixed cost an iteration).
    if (walks_slots(deck, gpu))
        add("iterations", w.iterations,
            w.iterations *
                ((d.physics.showers ? c.detector_shower_iteration_seconds : c.detector_iteration_seconds) +
                 double(d.track_slots) *
                     (d.physics.showers ? c.detector_shower_slot_seconds : c.detector_slot_seconds)));
    // The first calls' module loading (GPU), once a run: not scaled by best and worst.
    if (c.detector_warmup_seconds > 0) {
        KernelForecast& k = f.kernels["warm-up"];
        k.calls = 1;
        k.seconds = k.best = k.worst = c.detector_warmup_seconds;
    }
    for (auto const& [name, k] : f.kernels) {
        f.seconds += k.seconds;
        f.best += k.best;
        f.worst += k.worst;
    }
    return f;
}

double timed_seconds(std::map<std::string, KernelRecord> const& records)
{
    double s = 0;
    for (auto const& [name, r] : records)
        if (!name.starts_with("coll.")) s += r.seconds;
    return s;
}

}  // namespace gt
