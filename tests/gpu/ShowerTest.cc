// Electromagnetic showers on the GPU against the CPU: the same deck and seed give bit-identical
// hits, tallies, per-event energy balances, counters (secondaries and held-back interactions
// included) and iteration counts, with the default secondary buffer and with buffers small enough
// to hold interactions back (the held-back set follows slot order on both, EmInteraction.hh); and
// so do runs under run.track_order "compact", whose moved tracks make a schedule of their own.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "kernels/detector/EventTrackLength.hh"
#include "tests/gpu/DeckRun.hh"

using namespace gt;

TEST_CASE("CPU and GPU give identical electromagnetic showers")
{
    for (std::string order : {"slots", "compact"})
        for (std::string buffer : {"0", "256", "16"}) {
            CAPTURE(order);
            CAPTURE(buffer);
            std::vector<std::string> o = {"gun.events=4", "gun.energy=1 GeV", "run.track_slots=4096",
                                          "run.track_order=" + order};
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
                "em_calorimeter (%s, secondary_buffer %s): %zu hits, %llu steps, %llu secondaries, "
                "held %llu / %llu, iterations %llu / %llu, identical: %s\n",
                order.c_str(), buffer.c_str(), cpu.hits.size(),
                static_cast<unsigned long long>(cpu.counters[k_steps]),
                static_cast<unsigned long long>(cpu.counters[k_secondaries]),
                static_cast<unsigned long long>(cpu.counters[k_held]),
                static_cast<unsigned long long>(gpu.counters[k_held]),
                static_cast<unsigned long long>(cpu.iterations),
                static_cast<unsigned long long>(gpu.iterations),
                differing_hits(cpu.hits, gpu.hits) == 0 ? "yes" : "NO");
        }
}

TEST_CASE("CPU and GPU give identical TestEm2 showers and per-event track lengths")
{
    // inputs/testem2.toml (PbWO4, 5 GeV e-, e+- tracked to 1 keV), 3 events, with the track-length tally on
    auto run_on = [](std::string const& backend) {
        DeckConfig const cfg = read_deck(std::string(GTRACK_SOURCE_DIR) + "/inputs/testem2.toml",
                                         {"gun.events=3", "run.track_slots=65536"});
        DetectorRunOptions opt;
        opt.backend = backend;
        opt.write_output = false;
        opt.quiet = true;
        opt.track_lengths = true;
        return run_detector_deck(cfg, opt);
    };
    auto const cpu = run_on("cpu");
    auto const gpu = run_on("gpu");
    REQUIRE(cpu.event_track_length.size() == 3 * k_num_length_categories);
    CHECK(differing_hits(cpu.hits, gpu.hits) == 0);
    CHECK(cpu.tallies == gpu.tallies);
    CHECK(cpu.event_energy == gpu.event_energy);
    CHECK(cpu.event_track_length == gpu.event_track_length);
    std::printf(
        "testem2 3 events: %zu hits, charged / neutral track length of event 0: %.6f / %.6f m, identical: "
        "%s\n",
        cpu.hits.size(), cpu.event_track_length[0], cpu.event_track_length[1],
        cpu.event_track_length == gpu.event_track_length && differing_hits(cpu.hits, gpu.hits) == 0 ? "yes"
                                                                                                    : "NO");
}
