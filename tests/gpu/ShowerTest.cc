// Electromagnetic showers on the GPU against the CPU: the same deck and seed give bit-identical
// hits, tallies, per-event energy balances and counters (secondaries, held-back interactions
// included), also with a secondary buffer small enough to hold interactions back.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "deck/DeckReader.hh"
#include "detector/DetectorRun.hh"

using namespace gt;

namespace {

DetectorRunResult run_on(std::string const& backend, std::vector<std::string> overrides)
{
    DeckConfig const cfg =
        read_deck(std::string(GTRACK_SOURCE_DIR) + "/inputs/em_calorimeter.toml", overrides);
    DetectorRunOptions opt;
    opt.backend = backend;
    opt.write_output = false;
    opt.quiet = true;
    return run_detector_deck(cfg, opt);
}

std::size_t differing_hits(std::vector<Hit> const& a, std::vector<Hit> const& b)
{
    std::size_t n = 0;
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
        Hit const &x = a[i], &y = b[i];
        bool const same = x.event == y.event && x.track == y.track && x.volume == y.volume &&
                          x.replica == y.replica && x.step == y.step && x.pre.x == y.pre.x &&
                          x.pre.y == y.pre.y && x.pre.z == y.pre.z && x.post.x == y.post.x &&
                          x.post.y == y.post.y && x.post.z == y.post.z && x.time == y.time &&
                          x.edep == y.edep && x.momentum.x == y.momentum.x && x.momentum.y == y.momentum.y &&
                          x.momentum.z == y.momentum.z;
        n += same ? 0 : 1;
    }
    return n + (a.size() > b.size() ? a.size() - b.size() : b.size() - a.size());
}

}  // namespace

TEST_CASE("CPU and GPU give identical electromagnetic showers")
{
    for (std::string buffer : {"0", "16"}) {
        CAPTURE(buffer);
        std::vector<std::string> o = {"gun.events=4", "gun.energy=1 GeV", "run.track_slots=4096"};
        if (buffer != "0") o.push_back("physics.secondary_buffer=" + buffer);
        auto const cpu = run_on("cpu", o);
        auto const gpu = run_on("gpu", o);
        REQUIRE(!cpu.hits.empty());
        CHECK(cpu.hits.size() == gpu.hits.size());
        CHECK(differing_hits(cpu.hits, gpu.hits) == 0);
        CHECK(cpu.tallies == gpu.tallies);
        CHECK(cpu.event_energy == gpu.event_energy);
        // steps, secondaries and hits match; held-back counts depend on the threads' order
        CHECK(cpu.counters[k_steps] == gpu.counters[k_steps]);
        CHECK(cpu.counters[k_secondaries] == gpu.counters[k_secondaries]);
        CHECK(cpu.counters[k_escaped] == gpu.counters[k_escaped]);
        CHECK(cpu.counters[k_stopped] == gpu.counters[k_stopped]);
        std::printf(
            "em_calorimeter (secondary_buffer %s): %zu hits, %llu steps, %llu secondaries, held %llu / %llu, "
            "identical: %s\n",
            buffer.c_str(), cpu.hits.size(), static_cast<unsigned long long>(cpu.counters[k_steps]),
            static_cast<unsigned long long>(cpu.counters[k_secondaries]),
            static_cast<unsigned long long>(cpu.counters[k_held]),
            static_cast<unsigned long long>(gpu.counters[k_held]),
            differing_hits(cpu.hits, gpu.hits) == 0 ? "yes" : "NO");
    }
}
