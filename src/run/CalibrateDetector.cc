// The detector loop's costs: five small built-in decks (a sampling calorimeter without and with showers,
// one track in it at two slot counts, and a tracker in a uniform and a solenoid field), each tracked
// with the backend's loop.
#include "run/CalibrateDetector.hh"

#include <algorithm>
#include <array>
#include <string>

#include <fmt/format.h>

#include "deck/DeckReader.hh"
#include "kernels/detector/StepActions.hh"
#include "run/DetectorForecast.hh"
#include "run/DetectorRun.hh"

namespace gt {

namespace {

//! Lead and liquid argon layers in the manner of inputs/calorimeter.toml (with showers, of
//! inputs/testem3.toml): 1 GeV electrons.
std::string calorimeter_deck(bool showers, long events, long per_event, long slots, char const* loop,
                             bool absorbers_sensitive = false)
{
    return fmt::format(R"(
[run]
kind = "detector"
name = "calibrate_calorimeter"
seed = 5
track_slots = {2}
cpu_loop = "{3}"
[geometry.world]
shape = "box"
half_size = ["40 cm", "30 cm", "30 cm"]
material = "vacuum"
[[geometry.volume]]
name = "calorimeter"
shape = "box"
half_size = ["20 cm", "20 cm", "20 cm"]
material = "liquid_argon"
[[geometry.volume]]
name = "layer"
mother = "calorimeter"
shape = "box"
half_size = ["4 mm", "20 cm", "20 cm"]
position = ["-19.6 cm", 0, 0]
material = "liquid_argon"
replicas = {{ count = 50, step_x = "8 mm" }}
[[geometry.volume]]
name = "absorber"
mother = "layer"
shape = "box"
half_size = ["1.15 mm", "20 cm", "20 cm"]
position = ["-2.85 mm", 0, 0]
material = "lead"
{5}
[[geometry.volume]]
name = "gap"
mother = "layer"
shape = "box"
half_size = ["2.85 mm", "20 cm", "20 cm"]
position = ["1.15 mm", 0, 0]
material = "liquid_argon"
sensitive = true
[gun]
particle = "e-"
energy = "1 GeV"
events = {0}
per_event = {1}
position = {{ type = "beam_spot", center = ["-30 cm", 0, 0], sigma = ["0 m", "1 mm", "1 mm"] }}
direction = [1, 0, 0]
[physics]
energy_cut = "0.1 MeV"
{4}
)",
                       events, per_event, slots, loop,
                       // the example shower decks' production threshold (Geant4's range cut)
                       showers ? "showers = true\nrange_cut = \"1 mm\"" : "showers = false",
                       absorbers_sensitive ? "sensitive = true" : "");
}

//! Silicon barrels in a field in the manner of inputs/tracker.toml: 1 GeV muons, isotropic.
std::string tracker_deck(char const* field, long events, long slots)
{
    return fmt::format(R"(
[run]
kind = "detector"
name = "calibrate_tracker"
seed = 7
track_slots = {1}
[geometry.world]
shape = "box"
half_size = ["1.5 m", "1.5 m", "2.5 m"]
material = "air"
[[geometry.volume]]
name = "pixel"
shape = "tube"
rmin = "3 cm"
rmax = "3.03 cm"
half_z = "30 cm"
material = "silicon"
sensitive = true
replicas = {{ count = 5, step_r = "4 cm" }}
[[geometry.volume]]
name = "strip"
shape = "tube"
rmin = "30 cm"
rmax = "30.05 cm"
half_z = "80 cm"
material = "silicon"
sensitive = true
replicas = {{ count = 4, step_r = "15 cm" }}
[field]
{2}
[propagation]
max_substeps = 10
delta_chord = "0.25 mm"
delta_intersection = "1 um"
[gun]
particle = "mu-"
energy = "1 GeV"
events = {0}
per_event = 10
position = [0, 0, 0]
direction = {{ type = "isotropic" }}
[physics]
energy_cut = "1 MeV"
)",
                       events, slots, field);
}

struct Measured {
    double seconds = 0;  //!< [s] the timed kernels (as --profile measures them)
    DetectorWork work;
    double slots = 0;
    bool walks = false;       //!< ran the slot walk
    double first_excess = 0;  //!< [s] the GPU's first run beyond its second
};

//! A deck's run on the CPU once (as a user's run in a fresh process; the order of the runs below keeps its
//! memory fresh), on the GPU twice: the second (warm) prices the steps, the first's excess is its
//! module loading and first touches (`first_excess`), paid once a run.
Measured measure(std::string const& text, bool gpu)
{
    DeckConfig const cfg = read_deck_text(text, "calibrate");
    DetectorRunOptions options;
    options.backend = gpu ? "gpu" : "cpu";
    options.write_output = false;
    options.quiet = true;
    Measured m;
    m.slots = double(cfg.detector.track_slots);
    m.walks = walks_slots(cfg, gpu);
    for (int run = 0; run < (gpu ? 2 : 1); ++run) {
        DetectorRunResult const r = run_detector_deck(cfg, options);
        double const t = timed_seconds(r.timer.records());
        m.first_excess = run == 0 ? t : std::max(0.0, m.first_excess - t);
        m.seconds = t;
        m.work = work_of(r);
    }
    if (!gpu) m.first_excess = 0;
    return m;
}

//! A fitted cost: kept positive, so that a term too small to see on this machine reads as measured.
double positive(double x) { return std::max(x, 1e-12); }

//! The shower's step a, slot b and iteration c costs from three runs at different slot counts:
//! seconds - hits = steps a + iterations slots b + iterations c, solved by Cramer's rule.
template <class Hits>
void shower_costs(Ceilings& c, std::array<Measured const*, 3> runs, Hits const& hits_of)
{
    double m[3][3], r[3];
    for (int k = 0; k < 3; ++k) {
        Measured const& s = *runs[std::size_t(k)];
        m[k][0] = s.work.steps;
        m[k][1] = s.work.iterations * s.slots;
        m[k][2] = s.work.iterations;
        r[k] = s.seconds - hits_of(s);
    }
    auto const det3 = [](double const(&a)[3][3]) {
        return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
               a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
               a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
    };
    double const d = det3(m);
    double x[3];
    for (int j = 0; j < 3; ++j) {
        double mj[3][3];
        for (int k = 0; k < 3; ++k)
            for (int i = 0; i < 3; ++i) mj[k][i] = i == j ? r[k] : m[k][i];
        x[j] = d != 0 ? det3(mj) / d : 0.0;
    }
    c.detector_shower_step_seconds = positive(x[0]);
    c.detector_shower_slot_seconds = positive(x[1]);
    c.detector_shower_iteration_seconds = std::max(0.0, x[2]);
}

}  // namespace

void measure_detector_costs(Ceilings& c, bool gpu)
{
    // The GPU runs ~10^8 track-steps/s: its runs are larger so that steps, not launches, fill them.
    long const scale = gpu ? 50 : 1;
    long const slots = gpu ? 65536 : 4096;
    // The order matters on the CPU: a run's buffers freed raise the C library's threshold for allocating
    // fresh pages (glibc's dynamic mmap threshold), after which runs reuse warm heap memory and are ~15%
    // faster than a user's run in a fresh process. The runs that price steps come first, the wide slot
    // walks that free the largest buffers last.
    char const* uniform = "type = \"uniform\"\nB = [0, 0, \"2 T\"]";
    char const* solenoid = "type = \"solenoid\"\nB = \"2.33 T\"\nradius = \"1.2 m\"\nhalf_length = \"2 m\"";
    // A straight track-step without showers: 1 GeV electrons in lead and argon.
    Measured const straight = measure(calorimeter_deck(false, 50 * scale, 10, slots, "tracks"), gpu);
    // An EM shower's step (interactions, secondaries into slots): 40 events of 1 GeV electrons (~1600 live
    // tracks an iteration, as inputs/testem3.toml: a step's cost grows with the tracks in flight, their
    // working set), at two slot counts that both hold them (the wider one last).
    long const narrow = slots, wide = 8 * slots;
    Measured const s1 = measure(calorimeter_deck(true, 40 * scale, 1, narrow, "slots"), gpu);
    // The shower's walk an iteration: the same showers, 40 events, in few slots (~300 iterations), where an
    // iteration's actions last as long as their slowest track's work, not their tracks' count.
    long const tight = gpu ? 1024 : 256;
    Measured const s0 = measure(calorimeter_deck(true, 40, 1, tight, "slots"), gpu);
    // A hit's cost (scored, then sorted): the same showers with the lead sensitive too, ~4x the hits.
    Measured const s3 = measure(calorimeter_deck(true, 40 * scale, 1, narrow, "slots", true), gpu);
    // The field's substeps beyond a step's first (~5 a step, as in inputs/tracker.toml).
    Measured const in_uniform = measure(tracker_deck(uniform, 40 * scale, slots), gpu);
    Measured const in_solenoid = measure(tracker_deck(solenoid, 40 * scale, slots), gpu);
    // The slot walk's cost an iteration, c_iter + slots c_slot: one track (a 1 GeV electron without
    // showers, ~100 steps, one an iteration) at two slot counts.
    long const few = 64, many = 16384;
    Measured const one_few = measure(calorimeter_deck(false, 1, 1, few, "slots"), gpu);
    Measured const one_many = measure(calorimeter_deck(false, 1, 1, many, "slots"), gpu);
    Measured const s2 = measure(calorimeter_deck(true, 40 * scale, 1, wide, "slots"), gpu);

    c.detector_hit_seconds = positive((s3.seconds - s1.seconds) / std::max(1.0, s3.work.hits - s1.work.hits));
    auto const hits_of = [&c](Measured const& m) { return m.work.hits * c.detector_hit_seconds; };
    double const per_few = one_few.seconds / std::max(1.0, one_few.work.iterations);
    double const per_many = one_many.seconds / std::max(1.0, one_many.work.iterations);
    c.detector_slot_seconds = positive((per_many - per_few) / double(many - few));
    double const one_track = per_few - double(few) * c.detector_slot_seconds;  // c_iter + a step's cost
    // The straight step with the loop's iterations taken out (where it walks the slots, each iteration's
    // fixed part is one_track less the step it holds).
    double const walk = straight.walks ? straight.slots * c.detector_slot_seconds : 0.0;
    double const it = straight.walks ? straight.work.iterations : 0.0;
    c.detector_step_seconds = positive((straight.seconds - hits_of(straight) - it * (one_track + walk)) /
                                       std::max(1.0, straight.work.steps - it));
    c.detector_iteration_seconds = std::max(0.0, one_track - c.detector_step_seconds);
    // Showers: t = steps a + iterations (c + slots b) at three slot counts, solved for a, b and c (the
    // shower's walk has more actions an iteration than the walk without showers, and longer ones).
    shower_costs(c, {&s0, &s1, &s2}, hits_of);
    auto const substep = [&c, &hits_of](Measured const& m) {
        double const loop =
            m.walks ? m.work.iterations * (c.detector_iteration_seconds + m.slots * c.detector_slot_seconds)
                    : 0.0;
        double const extra = std::max(1.0, m.work.substeps - m.work.steps);
        return positive((m.seconds - loop - hits_of(m) - m.work.steps * c.detector_step_seconds) / extra);
    };
    // The first run's kernels loaded (every action of the walk without and with showers): once a run.
    c.detector_warmup_seconds = straight.first_excess + s1.first_excess;
    c.detector_uniform_substep_seconds = substep(in_uniform);
    c.detector_solenoid_substep_seconds = substep(in_solenoid);
}

}  // namespace gt
