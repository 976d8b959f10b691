// The many-turn executor (BeamKernels::track_turns, BeamTracker::many_turns): a ring tracked with every turn
// in one call gives the bits of one segment per turn: the same survivors' coordinates, the same losses
// (element and turn), with quantum excitation (whose photons are keyed by the turn) and on 1 or 2 threads.
#include <doctest/doctest.h>

#include <string>

#include "IoTestSupport.hh"
#include "beam/BeamSetup.hh"
#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"
#include "io/OpenPmdWriter.hh"
#include "io/TableWriter.hh"
#include "run/BeamRun.hh"

using namespace gt;

namespace {

struct Result {
    Table lost;
    PhaseSpaceFile end;
};

//! inputs/light_source_ring.toml, 300 particles, 40 turns, quantum excitation, a 2 mm global aperture
//! (losses); statistics every turn (one segment per turn: the old path) or at the end (every turn in one
//! call).
//! `turns_per_call`: the [lattice] key's value ("auto": 40 turns in one call on the CPU at this size).
Result run(test::TempDir const& dir, bool per_turn, int threads, std::string const& turns_per_call = "\"auto\"")
{
    std::string const name = std::string(per_turn ? "per_turn" : "many") + std::to_string(threads) + "_" +
                             (turns_per_call == "\"auto\"" ? std::string("auto") : turns_per_call);
    DeckConfig const deck =
        read_deck(GTRACK_SOURCE_DIR "/inputs/light_source_ring.toml",
                  {"beam.macroparticles=300", "lattice.turns=40", "lattice.radiation=\"quantum\"",
                   "beam.twiss.emittance_x=\"2 um\"", "lattice.aperture.shape=\"ellipse\"",
                   "lattice.aperture.half_x=\"12 mm\"", "lattice.aperture.half_y=\"12 mm\"",
                   std::string("output.stats=") + (per_turn ? "\"turn\"" : "\"end\""),
                   "lattice.turns_per_call=" + turns_per_call});
    RunOptions opt;
    opt.backend = "cpu";
    opt.quiet = true;
    opt.threads = threads;
    opt.output = dir.file(name + ".h5");
    REQUIRE(run_beamline(deck, opt) == 0);
    return Result{read_table(opt.output, "lost"), read_phase_space(opt.output)};
}

}  // namespace

TEST_CASE("many-turn executor: the bits of one segment per turn, losses included")
{
    test::TempDir dir;
    Result const old_path = run(dir, true, 1);
    // "auto" (all 40 turns in a call) on 1 and 2 threads, and 7 turns a call (40 = 5 x 7 + 5: a short last call)
    // (no structured binding: doctest's INFO captures it in a lambda, which C++20 compilers differ on)
    for (auto const& setting : {std::pair<int, std::string>{1, "\"auto\""}, {2, "\"auto\""}, {1, "7"}}) {
        int const threads = setting.first;
        std::string const& turns_per_call = setting.second;
        INFO("threads " << threads << ", turns_per_call " << turns_per_call);
        Result const many = run(dir, false, threads, turns_per_call);
        REQUIRE(old_path.lost.rows() > 0);      // the aperture takes some ...
        REQUIRE(old_path.end.beam.size() > 0);  // ... not all
        REQUIRE(many.lost.rows() == old_path.lost.rows());
        for (char const* c : {"element", "turn"})
            CHECK(std::get<std::vector<std::int64_t>>(many.lost.find(c)->values) ==
                  std::get<std::vector<std::int64_t>>(old_path.lost.find(c)->values));
        for (char const* c : {"x", "px", "y", "py", "t", "pt"})
            CHECK(many.lost.doubles(c) == old_path.lost.doubles(c));
        CHECK(many.end.beam.id == old_path.end.beam.id);
        CHECK(many.end.beam.x == old_path.end.beam.x);
        CHECK(many.end.beam.px == old_path.end.beam.px);
        CHECK(many.end.beam.y == old_path.end.beam.y);
        CHECK(many.end.beam.py == old_path.end.beam.py);
        CHECK(many.end.beam.t == old_path.end.beam.t);
        CHECK(many.end.beam.pt == old_path.end.beam.pt);
    }
}

TEST_CASE("[lattice] turns_per_call: \"auto\" or a whole number >= 1, named where wrong")
{
    for (char const* bad : {"0", "\"often\"", "2.5"}) {
        INFO(bad);
        CHECK_THROWS_WITH_AS(read_deck(GTRACK_SOURCE_DIR "/inputs/light_source_ring.toml",
                                       {std::string("lattice.turns_per_call=") + bad}),
                             doctest::Contains("turns_per_call"), DeckError);
    }
}
