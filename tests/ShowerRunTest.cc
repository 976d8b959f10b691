// Electromagnetic showers end to end on the CPU (physics.showers): every event's energy balance
// closes to rounding; a tiny secondary buffer (interactions held back) and the slot and thread
// counts change nothing. The showers' shapes against the PDG: tests/ShowerProfileTest.cc.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "Relative.hh"
#include "deck/DeckReader.hh"
#include "kernels/cpu/Executor.hh"
#include "run/DetectorRun.hh"

using namespace gt;

namespace {

std::string test_deck(std::string const& name)
{
    return std::string(GTRACK_SOURCE_DIR) + "/tests/data/" + name;
}

DetectorRunResult run(std::string const& deck, std::vector<std::string> overrides)
{
    overrides.push_back("run.backend=cpu");
    DeckConfig const cfg = read_deck(test_deck(deck), overrides);
    DetectorRunOptions opt;
    opt.write_output = false;
    opt.quiet = true;
    return run_detector_deck(cfg, opt);
}

//! Every hit identical, field by field (identical_hits), and as many.
bool same_hits(std::vector<Hit> const& a, std::vector<Hit> const& b) { return differing_hits(a, b) == 0; }

}  // namespace

TEST_CASE("shower energy balance: primary = deposited + below cuts + escaped + lost, per event")
{
    auto const r = run("shower_lead.toml", {"gun.events=4", "gun.energy=200 MeV"});
    std::size_t const events = r.event_energy.size() / k_num_energy_categories;
    REQUIRE(events == 4);
    // each of the run's entries (a step's two deposits, an escape) is rounded to k_tally_unit / 2
    double const entries = static_cast<double>(2 * r.counters[k_steps] + r.counters[k_escaped] + 4);
    double const rounding = entries * 0.5 * k_tally_unit;
    for (std::size_t e = 0; e < events; ++e) {
        double const* v = &r.event_energy[e * k_num_energy_categories];
        CAPTURE(e);
        CHECK(v[k_energy_primary] == test::relative(200.0, 1e-12));
        double const sum =
            v[k_energy_deposited] + v[k_energy_below_cut] + v[k_energy_escaped] + v[k_energy_lost];
        CHECK(std::fabs(sum - v[k_energy_primary]) <= rounding);
        CHECK(v[k_energy_deposited] > 0.5 * v[k_energy_primary]);  // lead, 30 X0: most of it stays
    }
    CHECK(r.counters[k_secondaries] > 100);
    CHECK(r.counters[k_held] == 0);
}

TEST_CASE("showers in PbWO4 (a user material) and tungsten balance energy per event")
{
    // W and Pb, O by composition: photon data for every element (src/detector/PhotoelectricFits.cc)
    auto const r = run("shower_pbwo4.toml", {"gun.events=3", "gun.energy=300 MeV"});
    std::size_t const events = r.event_energy.size() / k_num_energy_categories;
    REQUIRE(events == 3);
    double const entries = static_cast<double>(2 * r.counters[k_steps] + r.counters[k_escaped] + 3);
    double const rounding = entries * 0.5 * k_tally_unit;
    for (std::size_t e = 0; e < events; ++e) {
        double const* v = &r.event_energy[e * k_num_energy_categories];
        CAPTURE(e);
        double const sum =
            v[k_energy_deposited] + v[k_energy_below_cut] + v[k_energy_escaped] + v[k_energy_lost];
        CHECK(std::fabs(sum - v[k_energy_primary]) <= rounding);
        // 22 cm of PbWO4 is 24.6 X0; a half width of 1.5 cm is 0.75 Moliere radius (R_M = 2.0 cm), which
        // keeps ~85% of a central shower (a 2.2 cm CMS crystal ~80%): check that most of it stays
        CHECK(v[k_energy_deposited] + v[k_energy_below_cut] > 0.6 * v[k_energy_primary]);
    }
    CHECK(r.counters[k_secondaries] > 100);
}

TEST_CASE("holding interactions back for a full secondary buffer, slots and threads change nothing")
{
    std::vector<std::string> const base = {"gun.events=3", "gun.energy=100 MeV", "run.track_slots=512"};
    auto const ref = run("shower_lead.toml", base);
    auto tiny = base;
    tiny.push_back("physics.secondary_buffer=3");  // at most three new secondaries per iteration
    auto const held = run("shower_lead.toml", tiny);
    CHECK(held.counters[k_held] > 0);
    CHECK(held.iterations > ref.iterations);
    CHECK(same_hits(ref.hits, held.hits));
    CHECK(ref.tallies == held.tallies);
    CHECK(ref.event_energy == held.event_energy);
    CHECK(ref.counters[k_secondaries] == held.counters[k_secondaries]);
    auto few = base;
    few.back() = "run.track_slots=64";
    int const threads = cpu::thread_count();
    cpu::set_thread_count(2);
    auto const small = run("shower_lead.toml", few);
    cpu::set_thread_count(threads);
    CHECK(same_hits(ref.hits, small.hits));
    CHECK(ref.tallies == small.tallies);
    CHECK(ref.event_energy == small.event_energy);
}

TEST_CASE("batches of step iterations through the run loop, as the GPU runs them, change nothing")
{
    // GTRACK_TEST_DETECTOR_BATCH makes the CPU slot walk queue 7 iterations between two reads of its
    // counts: the run loop then adds the iterations each call ran. 16 slots and a 4-entry buffer:
    // the batches pause for stack and hit room and hold interactions back.
    std::vector<std::string> const base = {"gun.events=2", "gun.energy=100 MeV", "run.track_slots=16",
                                           "physics.secondary_buffer=4"};
    auto const ref = run("shower_lead.toml", base);
    REQUIRE(ref.counters[k_held] > 0);
    ::setenv("GTRACK_TEST_DETECTOR_BATCH", "7", 1);
    auto const batched = run("shower_lead.toml", base);
    ::unsetenv("GTRACK_TEST_DETECTOR_BATCH");
    CHECK(same_hits(ref.hits, batched.hits));
    CHECK(ref.tallies == batched.tallies);
    CHECK(ref.event_energy == batched.event_energy);
    CHECK(ref.counters == batched.counters);
    CHECK(ref.iterations == batched.iterations);
    CHECK(ref.secondary_stack_peak == batched.secondary_stack_peak);
    CHECK(ref.hit_buffer_growths == batched.hit_buffer_growths);
}
