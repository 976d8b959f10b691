// The detector stepping loop on the GPU against the CPU: the same deck and seed give bit-identical
// hits, energy tallies and counters (field propagation, energy loss, straggling and scattering
// included), and the hit buffer grows on the device like on the host.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tests/gpu/DeckRun.hh"

using namespace gt;

TEST_CASE("CPU and GPU give identical hits for the example detector decks")
{
    for (std::string deck : {"tracker.toml", "calorimeter.toml", "sts.toml"}) {
        CAPTURE(deck);
        std::vector<std::string> const small = {"gun.events=200", "run.track_slots=1024"};
        auto const cpu = test::run_deck_on("cpu", deck, small);
        auto const gpu = test::run_deck_on("gpu", deck, small);
        REQUIRE(!cpu.hits.empty());
        CHECK(cpu.hits.size() == gpu.hits.size());
        CHECK(differing_hits(cpu.hits, gpu.hits) == 0);
        CHECK(cpu.tallies == gpu.tallies);
        CHECK(cpu.counters == gpu.counters);
        std::printf("%s: %zu hits, %llu steps, identical on CPU and GPU: %s\n", deck.c_str(), cpu.hits.size(),
                    static_cast<unsigned long long>(cpu.counters[k_steps]),
                    differing_hits(cpu.hits, gpu.hits) == 0 ? "yes" : "NO");
    }
}

// The --set list of one run; built by emplace_back from named strings, since GCC 13 warns
// (-Warray-bounds, a false positive) on push_back into a vector made from an initializer list.
static std::vector<std::string> tracker_set(std::string const& tab, std::string const& loop)
{
    std::vector<std::string> set;
    set.reserve(4);
    for (std::string const& value : {std::string("gun.events=200"), std::string("run.track_slots=512"), tab, loop})
        if (!value.empty()) set.emplace_back(value);
    return set;
}

TEST_CASE(
    "the CPU's one-track loop and slot walk, and the tabulated solenoid, give the GPU's bits and iterations")
{
    for (std::string tab : {"", "field.tabulate=\"5 mm\""}) {
        CAPTURE(tab);
        auto const gpu = test::run_deck_on("gpu", "tracker.toml", tracker_set(tab, ""));
        auto const tracks = test::run_deck_on("cpu", "tracker.toml", tracker_set(tab, "run.cpu_loop=tracks"));
        auto const slots = test::run_deck_on("cpu", "tracker.toml", tracker_set(tab, "run.cpu_loop=slots"));
        REQUIRE(!gpu.hits.empty());
        CHECK(differing_hits(tracks.hits, gpu.hits) == 0);
        CHECK(differing_hits(slots.hits, gpu.hits) == 0);
        CHECK(tracks.tallies == gpu.tallies);
        CHECK(tracks.counters == gpu.counters);
        CHECK(tracks.iterations == gpu.iterations);
        CHECK(slots.iterations == gpu.iterations);
    }
}

TEST_CASE("the substep cap changes nothing on the GPU either")
{
    auto const a =
        test::run_deck_on("gpu", "tracker.toml", {"gun.events=100", "propagation.max_substeps=10"});
    auto const b =
        test::run_deck_on("gpu", "tracker.toml", {"gun.events=100", "propagation.max_substeps=1000"});
    CHECK(differing_hits(a.hits, b.hits) == 0);
    CHECK(a.iterations > b.iterations);
}
