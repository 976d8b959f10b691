// The detector stepping loop end to end on the CPU: the example decks run and conserve tracks; the
// substep cap and the thread count change nothing; the hit buffer grows instead of dropping hits.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "deck/DeckReader.hh"
#include "detector/DetectorRun.hh"
#include "io/TableWriter.hh"
#include "kernels/cpu/Executor.hh"

using namespace gt;

namespace {

std::string input(std::string const& name) { return std::string(GTRACK_SOURCE_DIR) + "/inputs/" + name; }

DetectorRunResult run(std::string const& deck, std::vector<std::string> overrides)
{
    overrides.push_back("run.backend=cpu");
    DeckConfig const cfg = read_deck(input(deck), overrides);
    DetectorRunOptions opt;
    opt.write_output = false;
    opt.quiet = true;
    return run_detector_deck(cfg, opt);
}

bool same_hits(std::vector<Hit> const& a, std::vector<Hit> const& b)
{
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        Hit const &x = a[i], &y = b[i];
        if (x.event != y.event || x.track != y.track || x.volume != y.volume || x.replica != y.replica ||
            x.step != y.step || x.pre.x != y.pre.x || x.pre.y != y.pre.y || x.pre.z != y.pre.z ||
            x.post.x != y.post.x || x.post.y != y.post.y || x.post.z != y.post.z || x.time != y.time ||
            x.edep != y.edep || x.momentum.x != y.momentum.x || x.momentum.y != y.momentum.y ||
            x.momentum.z != y.momentum.z)
            return false;
    }
    return true;
}

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
    cpu::set_thread_count(1);
    auto const one = run("calorimeter.toml", {"gun.events=10", "gun.per_event=4"});
    cpu::set_thread_count(2);
    auto const two = run("calorimeter.toml", {"gun.events=10", "gun.per_event=4", "run.track_slots=7"});
    cpu::set_thread_count(threads);
    CHECK(same_hits(one.hits, two.hits));
    CHECK(one.tallies == two.tallies);
}
