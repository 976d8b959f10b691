// The detector stepping loop end to end on the CPU: the example decks run and conserve tracks; the
// substep cap, the thread count and the CPU loop (slots or one track at a time) change nothing; the
// hit buffer grows instead of dropping hits.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "deck/DeckReader.hh"
#include "io/Provenance.hh"
#include "io/TableWriter.hh"
#include "kernels/core/TraceLog.hh"
#include "kernels/cpu/Executor.hh"
#include "run/DetectorRun.hh"
#include "run/ScanOutputs.hh"

using namespace gt;

namespace {

std::string input(std::string const& name) { return std::string(GTRACK_SOURCE_DIR) + "/inputs/" + name; }

DetectorRunResult run(std::string const& deck, std::vector<std::string> overrides)
{
    overrides.push_back("run.backend=cpu");
    // few slots keep the loop on one thread (fast on a busy machine); some tests override this
    overrides.insert(overrides.begin(), "run.track_slots=256");
    DeckConfig const cfg = read_deck(input(deck), overrides);
    DetectorRunOptions opt;
    opt.write_output = false;
    opt.quiet = true;
    return run_detector_deck(cfg, opt);
}

//! Every hit identical, field by field (identical_hits), and as many.
bool same_hits(std::vector<Hit> const& a, std::vector<Hit> const& b) { return differing_hits(a, b) == 0; }

std::uint64_t ended(DetectorRunResult const& r)
{
    return r.counters[k_escaped] + r.counters[k_stopped] + r.counters[k_looping];
}

}  // namespace

TEST_CASE("the example decks run: every primary ends, hits are sorted by (event, volume, time)")
{
    for (std::string deck : {"tracker.toml", "calorimeter.toml", "sts.toml"}) {
        CAPTURE(deck);
        auto const r = run(deck, {"gun.events=20", "gun.per_event=5"});
        CHECK(ended(r) == 100);
        CHECK(r.counters[k_looping] == 0);
        CHECK(!r.hits.empty());
        for (std::size_t i = 1; i < r.hits.size(); ++i) REQUIRE(!HitOrder{}(r.hits[i], r.hits[i - 1]));
        double sum = 0;
        for (auto const& h : r.hits) {
            CHECK(h.edep >= 0);
            sum += h.edep;
        }
        CHECK(sum > 0);
    }
}

TEST_CASE("the substep cap changes no physics: the same hits with max_substeps 10 and 1000")
{
    for (std::string deck : {"tracker.toml", "sts.toml"}) {
        CAPTURE(deck);
        auto const a = run(deck, {"gun.events=10", "gun.per_event=5", "propagation.max_substeps=10"});
        auto const b = run(deck, {"gun.events=10", "gun.per_event=5", "propagation.max_substeps=1000"});
        auto const c = run(deck, {"gun.events=10", "gun.per_event=5", "propagation.max_substeps=1"});
        CHECK(a.counters[k_substeps] == b.counters[k_substeps]);
        CHECK(a.counters[k_steps] == b.counters[k_steps]);
        CHECK(same_hits(a.hits, b.hits));
        CHECK(same_hits(a.hits, c.hits));
        CHECK(a.tallies == b.tallies);
        // the cap did bite: more iterations with the smaller cap
        CHECK(c.iterations > a.iterations);
        CHECK(a.iterations >= b.iterations);
    }
}

TEST_CASE("results do not depend on the thread count or the number of track slots")
{
    int const threads = cpu::thread_count();
    // 2048 slots: the OpenMP path (the backend runs fewer than 1024 slots on one thread)
    cpu::set_thread_count(1);
    auto const one = run("calorimeter.toml", {"gun.events=10", "gun.per_event=4", "run.track_slots=2048"});
    cpu::set_thread_count(2);
    auto const two = run("calorimeter.toml", {"gun.events=10", "gun.per_event=4", "run.track_slots=2048"});
    auto const few = run("calorimeter.toml", {"gun.events=10", "gun.per_event=4", "run.track_slots=7"});
    cpu::set_thread_count(threads);
    CHECK(same_hits(one.hits, two.hits));
    CHECK(one.tallies == two.tallies);
    CHECK(same_hits(one.hits, few.hits));
    CHECK(one.tallies == few.tallies);
    // 7 slots start with room for 28 hits: the buffer grew, and no hit was lost (the counts match)
    CHECK(few.hit_buffer_growths > 0);
    CHECK(few.hits.size() == few.counters[k_hit_count]);
}

TEST_CASE("one track at a time gives the slot walk's bits and schedule, for any thread count")
{
    int const threads = cpu::thread_count();
    // 16 slots for 50 primaries: primaries wait for slots, so the reproduced schedule (which
    // iteration each primary starts in) is exercised, not only "all start at once"
    for (std::string deck : {"tracker.toml", "sts.toml", "calorimeter.toml"}) {
        CAPTURE(deck);
        std::vector<std::string> const set = {"gun.events=10", "gun.per_event=5", "run.track_slots=16",
                                              "propagation.max_substeps=3"};
        std::vector<std::string> slots = set, tracks = set;
        slots.push_back("run.cpu_loop=slots");
        tracks.push_back("run.cpu_loop=tracks");
        cpu::set_thread_count(1);
        auto const walk = run(deck, slots);
        auto const one = run(deck, tracks);
        cpu::set_thread_count(2);
        auto const two = run(deck, tracks);
        cpu::set_thread_count(threads);
        REQUIRE(walk.backend.find("track by track") == std::string::npos);
        REQUIRE(one.backend.find("track by track") != std::string::npos);
        CHECK(!walk.hits.empty());
        CHECK(same_hits(walk.hits, one.hits));
        CHECK(same_hits(walk.hits, two.hits));
        CHECK(walk.tallies == one.tallies);
        CHECK(walk.tallies == two.tallies);
        CHECK(walk.counters == one.counters);
        CHECK(walk.counters == two.counters);
        // the iteration count is the slot walk's (an output attribute compared by the regression suite)
        CHECK(walk.iterations == one.iterations);
        CHECK(walk.iterations == two.iterations);
    }
}

TEST_CASE("the output file holds the sorted hits, the tallies, the counters and the provenance")
{
    std::string const path =
        (std::filesystem::temp_directory_path() / "gtrack_detector_run_test.h5").string();
    DeckConfig const cfg = read_deck(input("sts.toml"), {"gun.events=5", "run.backend=cpu"});
    DetectorRunOptions opt;
    opt.output = path;
    opt.quiet = true;
    opt.command_line = "gtrack run sts.toml";
    auto const r = run_detector_deck(cfg, opt);
    Table const hits = read_table(path, "hits");
    REQUIRE(hits.rows() == r.hits.size());
    auto const& edep = hits.doubles("edep");
    auto const& z = hits.doubles("pre_z");
    for (std::size_t i = 0; i < r.hits.size(); ++i) {
        CHECK(edep[i] == r.hits[i].edep);
        CHECK(z[i] == r.hits[i].pre.z);
    }
    Table const tallies = read_table(path, "tallies");
    CHECK(tallies.doubles("edep") == r.tallies);
    Provenance const p = read_provenance(path);
    CHECK(p.seed == 11);
    CHECK(p.command_line == "gtrack run sts.toml");
    CHECK(p.deck_text == cfg.text);
    std::filesystem::remove(path);
}

TEST_CASE("without hits in the output, none come to the host, and the count and tallies stay the same")
{
    std::string const path =
        (std::filesystem::temp_directory_path() / "gtrack_detector_run_test_nohits.h5").string();
    DetectorRunOptions opt;
    opt.output = path;
    opt.quiet = true;
    // the stations of sts.toml without its [strips] read-out, which digitizes the hits on the host
    // whether they are written or not (StripDeckTest)
    std::string const deck = std::string(GTRACK_SOURCE_DIR) + "/regression/detector_sts/deck.toml";
    auto const with = run_detector_deck(read_deck(deck, {"gun.events=5", "run.backend=cpu"}), opt);
    auto const without =
        run_detector_deck(read_deck(deck, {"gun.events=5", "run.backend=cpu", "output.hits=false"}), opt);
    REQUIRE(with.hits.size() > 0);
    CHECK(without.hits.empty());
    CHECK(without.total_hits == with.total_hits);
    CHECK(without.tallies == with.tallies);
    std::filesystem::remove(path);
}

TEST_CASE("a detector deck scans like a beamline deck: points run, are recognized and collected")
{
    std::string const deck = R"([run]
kind = "detector"
seed = 4
track_slots = 64
[geometry.world]
shape = "box"
half_size = [1, 1, 1]
material = "air"
[[geometry.volume]]
name = "slab"
shape = "box"
half_size = [0.5, 0.5, 0.01]
material = "silicon"
sensitive = true
[gun]
particle = "mu-"
energy = "1 GeV"
events = 20
position = [0, 0, -0.5]
[scan]
"gun.energy" = ["100 MeV", "1 GeV"]
)";
    auto const dir = std::filesystem::temp_directory_path();
    double slab_edep[2] = {0, 0};
    for (std::uint64_t point : {0u, 1u}) {
        DeckConfig const cfg = read_deck_text(deck, "scan.toml", {"run.backend=cpu"}, point);
        CHECK(cfg.detector.gun.energy == (point == 0 ? 100.0 : 1000.0));
        std::string const path = (dir / ("gtrack_detector_scan_" + std::to_string(point) + ".h5")).string();
        DetectorRunOptions opt;
        opt.output = path;
        opt.quiet = true;
        run_detector_deck(cfg, opt);
        CHECK(scan_output_status(path, cfg.scan, point).state == OutputState::complete);
        auto const stats = final_statistics(path);
        REQUIRE(stats.size() == 2);
        CHECK(stats[1].name == "edep_slab");
        slab_edep[point] = stats[1].value;
        std::filesystem::remove(path);
    }
    // 100 MeV muons lose more in 2 cm of silicon than 1 GeV ones (1/beta^2 below the minimum)
    CHECK(slab_edep[0] > slab_edep[1]);
}

TEST_CASE("a track circling in vacuum is ended by the step limit and counted as looping")
{
    std::string const deck = R"([run]
kind = "detector"
track_slots = 64
[geometry.world]
shape = "box"
half_size = [1, 1, 1]
material = "vacuum"
[field]
type = "uniform"
B = [0, 0, "2 T"]
[propagation]
max_steps = 50
[gun]
particle = "e-"
energy = "10 MeV"
events = 3
direction = [1, 0, 0]
)";
    // r = p / (0.3 B) = 1.8 cm: the electrons never reach the world's surface
    DetectorRunOptions opt;
    opt.write_output = false;
    opt.quiet = true;
    auto const r = run_detector_deck(read_deck_text(deck, "loop.toml", {"run.backend=cpu"}), opt);
    CHECK(r.counters[k_looping] == 3);
    CHECK(r.counters[k_escaped] == 0);
    CHECK(r.counters[k_steps] == 150);
}

TEST_CASE("the slot walk loads its actions in one untimed iteration at set-up, outside the timed stages")
{
    // On the GPU that iteration loads the kernels (DetectorBackend::load_kernels); the CPU takes the same path.
    trace_log().enable();
    auto const loads = [] {
        auto const& e = trace_log().events();
        return std::count_if(e.begin(), e.end(), [](TraceEvent const& t) { return t.name == "kernel loading"; });
    };
    long const before = loads();
    auto const r = run("calorimeter.toml", {"gun.events=10", "run.cpu_loop=slots"});
    CHECK(loads() == before + 1);
    // The timed stages hold the run's own iterations only: at least the counted ones and the one that found
    // the loop finished, each action once in each.
    auto const& records = r.timer.records();
    long const planned = records.at("plan_iteration").calls;
    CHECK(planned >= long(r.iterations) + 1);
    for (char const* action : {"scan_vacancies", "initialize", "limit_step", "propagate", "end_step"}) {
        CAPTURE(action);
        CHECK(records.at(action).calls == planned);
    }
}
