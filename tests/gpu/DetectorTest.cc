// The detector stepping loop on the GPU against the CPU: the same deck and seed give bit-identical
// hits, energy tallies and counters (field propagation, energy loss, straggling and scattering
// included), and the hit buffer grows on the device like on the host.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "deck/DeckReader.hh"
#include "detector/DetectorRun.hh"

using namespace gt;

namespace {

DetectorRunResult run_on(std::string const& backend, std::string const& deck,
                         std::vector<std::string> overrides)
{
    DeckConfig const cfg = read_deck(std::string(GTRACK_SOURCE_DIR) + "/inputs/" + deck, overrides);
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

TEST_CASE("CPU and GPU give identical hits for the example detector decks")
{
    for (std::string deck : {"tracker.toml", "calorimeter.toml", "sts.toml"}) {
        CAPTURE(deck);
        std::vector<std::string> const small = {"gun.events=200", "run.track_slots=1024"};
        auto const cpu = run_on("cpu", deck, small);
        auto const gpu = run_on("gpu", deck, small);
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

TEST_CASE("the substep cap changes nothing on the GPU either")
{
    auto const a = run_on("gpu", "tracker.toml", {"gun.events=100", "propagation.max_substeps=10"});
    auto const b = run_on("gpu", "tracker.toml", {"gun.events=100", "propagation.max_substeps=1000"});
    CHECK(differing_hits(a.hits, b.hits) == 0);
    CHECK(a.iterations > b.iterations);
}
