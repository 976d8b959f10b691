// Electromagnetic showers on the GPU against the CPU: the same deck and seed give bit-identical
// hits, tallies, per-event energy balances, counters (secondaries and held-back interactions
// included) and iteration counts, with the default secondary buffer and with buffers small enough
// to hold interactions back (the held-back set follows slot order on both, EmInteraction.hh).
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tests/gpu/DeckRun.hh"

using namespace gt;

TEST_CASE("CPU and GPU give identical electromagnetic showers")
{
    for (std::string buffer : {"0", "256", "16"}) {
        CAPTURE(buffer);
        std::vector<std::string> o = {"gun.events=4", "gun.energy=1 GeV", "run.track_slots=4096"};
        if (buffer != "0") o.push_back("physics.secondary_buffer=" + buffer);
        auto const cpu = test::run_deck_on("cpu", "em_calorimeter.toml", o);
        auto const gpu = test::run_deck_on("gpu", "em_calorimeter.toml", o);
        REQUIRE(!cpu.hits.empty());
        if (buffer == "16") CHECK(cpu.counters[k_held] > 0);  // the small buffer does hold back
        CHECK(cpu.hits.size() == gpu.hits.size());
        CHECK(differing_hits(cpu.hits, gpu.hits) == 0);
        CHECK(cpu.tallies == gpu.tallies);
        CHECK(cpu.event_energy == gpu.event_energy);
        CHECK(cpu.counters == gpu.counters);
        CHECK(cpu.iterations == gpu.iterations);
        CHECK(cpu.secondary_stack_peak == gpu.secondary_stack_peak);
        std::printf(
            "em_calorimeter (secondary_buffer %s): %zu hits, %llu steps, %llu secondaries, held %llu / %llu, "
            "iterations %llu / %llu, identical: %s\n",
            buffer.c_str(), cpu.hits.size(), static_cast<unsigned long long>(cpu.counters[k_steps]),
            static_cast<unsigned long long>(cpu.counters[k_secondaries]),
            static_cast<unsigned long long>(cpu.counters[k_held]),
            static_cast<unsigned long long>(gpu.counters[k_held]),
            static_cast<unsigned long long>(cpu.iterations), static_cast<unsigned long long>(gpu.iterations),
            differing_hits(cpu.hits, gpu.hits) == 0 ? "yes" : "NO");
    }
}
