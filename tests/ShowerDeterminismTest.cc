// Electromagnetic showers do not depend on the order slots are processed in: 1, 2 and 4 OpenMP
// threads, the slots visited in reversed and in strided order, and run.track_order "alive" and
// "charge" (the live slots only, charged ones first) give bit-identical hits, energy
// tallies, counters (held-back interactions included), per-event energy balances and iteration
// counts, with the default secondary buffer and with one so small that most interactions are held
// back; and so do batches of iterations queued without reading the loop's counts between them, as
// the GPU runs them. The GPU runs the same loop with another order again (tests/gpu/ShowerTest.cc).
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "deck/DeckReader.hh"
#include "detector/DetectorSetup.hh"
#include "kernels/cpu/CpuDetectorOps.hh"
#include "kernels/detector/DetectorBackend.hh"
#include "run/DetectorRun.hh"

using namespace gt;

namespace {

//! The CPU loop with the slots of every action visited last to first, on one thread.
struct ReversedOps : CpuDetectorOps {
    template <class F>
    static void for_each(std::size_t n, F const& f)
    {
        for (std::size_t i = n; i-- > 0;) f(i);
    }
};

//! The slots visited as k * 7919 mod n (a permutation: 7919 is a prime that divides no slot count
//! used here), on one thread.
struct StridedOps : CpuDetectorOps {
    template <class F>
    static void for_each(std::size_t n, F const& f)
    {
        for (std::size_t k = 0; k < n; ++k) f(k * 7919 % n);
    }
};

struct Outcome {
    std::vector<Hit> hits;
    std::vector<std::uint64_t> tallies;
    std::array<std::uint64_t, k_num_counters> counters{};
    std::vector<double> event_energy;
    std::uint64_t iterations = 0, stack_peak = 0;
    int growths = 0;
};

constexpr std::size_t k_slots = 1024;  // the CPU loop uses OpenMP from 1024 slots on (CpuDetectorOps)

//! `batch`: the step iterations queued between two reads of the loop's counts (the GPU's 16).
template <class Ops>
Outcome run(DetectorTables const& tables, std::uint64_t batch = 1, std::size_t slots = k_slots)
{
    DetectorBackend<Ops> loop;
    loop.setup(tables, slots, 4 * slots);
    loop.set_batch(batch);
    Outcome o;
    for (;;) {
        IterationResult const r = loop.iterate(batch);
        if (r.finished) break;
        REQUIRE(r.iterations >= 1);
        REQUIRE(r.iterations <= batch);
        o.iterations += r.iterations;
    }
    o.hits = loop.sorted_hits();
    o.tallies = loop.tally_counts();
    o.counters = loop.counters();
    o.event_energy = loop.event_energy();
    o.stack_peak = loop.secondary_stack_peak();
    o.growths = loop.hit_buffer_growths();
    return o;
}

Outcome run_threads(int threads, DetectorTables const& tables)
{
    int const before = cpu::thread_count();
    cpu::set_thread_count(threads);
    Outcome o = run<CpuDetectorOps>(tables);
    cpu::set_thread_count(before);
    return o;
}

//! Everything bit for bit; `what` names the run in the failure message.
void check_same(Outcome const& ref, Outcome const& o, std::string const& what)
{
    INFO(what);
    CHECK(differing_hits(ref.hits, o.hits) == 0);
    CHECK(ref.tallies == o.tallies);
    CHECK(ref.counters == o.counters);
    CHECK(ref.event_energy == o.event_energy);
    CHECK(ref.iterations == o.iterations);
    CHECK(ref.stack_peak == o.stack_peak);
    CHECK(ref.growths == o.growths);
}

}  // namespace

TEST_CASE("shower results do not depend on threads or on the order slots are processed in")
{
    // the tables once (their set-up is most of the time); the runs differ only in the loop
    DeckConfig const cfg = read_deck(std::string(GTRACK_SOURCE_DIR) + "/tests/data/shower_lead.toml",
                                     {"gun.events=1", "gun.energy=200 MeV"});
    DetectorSetup setup = make_detector_setup(cfg);
    for (std::uint64_t buffer : {0, 8}) {
        CAPTURE(buffer);
        setup.tables.secondary_buffer = buffer;  // 0: the default, twice the slots
        DetectorTables const& tables = setup.tables;
        Outcome const ref = run_threads(1, tables);
        REQUIRE(ref.hits.size() > 100);
        REQUIRE(ref.counters[k_secondaries] > 100);
        if (buffer > 0) CHECK(ref.counters[k_held] > 0);  // the small buffer does hold back
        check_same(ref, run_threads(2, tables), "2 threads");
        check_same(ref, run_threads(4, tables), "4 threads");
        check_same(ref, run<ReversedOps>(tables), "reversed slot order");
        check_same(ref, run<StridedOps>(tables), "strided slot order");
        // run.track_order: the actions over the live slots only, charged ones first
        DetectorTables ordered = tables;
        ordered.track_order = TrackOrder::alive;
        check_same(ref, run_threads(2, ordered), "track_order alive");
        ordered.track_order = TrackOrder::charge;
        check_same(ref, run_threads(2, ordered), "track_order charge");
        check_same(ref, run<ReversedOps>(ordered), "track_order charge, reversed");
        // several iterations between two reads of the counts, as on the GPU: the iterations queued
        // after the last track do nothing, and those that need room pause until the host grows it
        check_same(ref, run<CpuDetectorOps>(tables, 16), "batches of 16");
        check_same(ref, run<CpuDetectorOps>(tables, 7), "batches of 7");
        check_same(ref, run<ReversedOps>(ordered, 5), "track_order charge, batches of 5, reversed");
    }
}

TEST_CASE("batches of step iterations give the run of one iteration at a time")
{
    // 4 slots: secondaries wait on the stack and the hit buffer (4 x 4) grows several times, so
    // that batches pause where the stack or the hits need room and go on after the host grew them
    DeckConfig const cfg = read_deck(std::string(GTRACK_SOURCE_DIR) + "/tests/data/shower_lead.toml",
                                     {"gun.events=1", "gun.energy=200 MeV"});
    DetectorSetup setup = make_detector_setup(cfg);
    constexpr std::size_t slots = 4;
    for (std::uint64_t buffer : {0, 8}) {
        CAPTURE(buffer);
        setup.tables.secondary_buffer = buffer;
        DetectorTables const& tables = setup.tables;
        Outcome const ref = run<CpuDetectorOps>(tables, 1, slots);
        REQUIRE(ref.stack_peak > 3 * slots);  // the stack outgrows its first size (2 x 4 entries)
        REQUIRE(ref.growths >= 2);
        for (std::uint64_t batch : {2, 16, 1000})
            check_same(ref, run<CpuDetectorOps>(tables, batch, slots), "batches of " + std::to_string(batch));
        DetectorTables ordered = tables;
        ordered.track_order = TrackOrder::charge;
        check_same(ref, run<StridedOps>(ordered, 16, slots), "track_order charge, batches of 16, strided");
    }
}
