// [lattice] merge_drifts: the compacted table merges drifts and leaves out markers, monitors and empty
// correctors; tracked through it, a ring with apertures loses the same particles at the same elements and
// turns, and the survivors' coordinates agree with the full table's to round-off.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <string>

#include <fmt/format.h>

#include "IoTestSupport.hh"
#include "Relative.hh"
#include "beam/BeamSetup.hh"
#include "beam/Lattice.hh"
#include "beam/LatticeCompaction.hh"
#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"
#include "io/OpenPmdWriter.hh"
#include "io/TableWriter.hh"
#include "run/BeamRun.hh"

using namespace gt;

namespace {

//! A FODO ring of 12 cells whose drifts are cut in pieces with markers, monitors, an empty thin multipole
//! and zero correctors between them, as imported lattices are; a collimator-like aperture in each cell and a
//! beam large enough to be scraped over the turns. `model`: the drifts' and quadrupoles' model.
std::string ring_deck(bool merge, std::string const& model)
{
    return fmt::format(R"([run]
name = "ring"
seed = 5
[beam]
particle = "proton"
momentum = "2 GeV"
macroparticles = 400
[beam.twiss]
beta_x = 6.0
beta_y = 6.0
emittance_x = 2e-6
emittance_y = 2e-6
sigma_t = 1e-3
sigma_pt = 1e-3
[elements]
qf = {{ type = "quadrupole", length = 0.3, k1 = 1.2, model = "{0}" }}
qd = {{ type = "quadrupole", length = 0.3, k1 = -1.2, model = "{0}" }}
d1 = {{ type = "drift", length = 0.7, model = "{0}" }}
d2 = {{ type = "drift", length = 0.55, model = "{0}" }}
d3 = {{ type = "drift", length = 0.45, model = "{0}" }}
m = {{ type = "marker" }}
bpm = {{ type = "monitor" }}
hc = {{ type = "kicker", hkick = 0.0 }}
mp = {{ type = "multipole", knl = [] }}
sx = {{ type = "sextupole", length = 0.1, k2 = 3.0 }}
col = {{ type = "aperture", shape = "ellipse", half_x = "6 mm", half_y = "5 mm" }}
[lattice]
cell = ["qf", "d1", "m", "d2", "bpm", "hc", "d3", "sx", "d1", "mp", "qd", "d2", "col", "d3", "m", "d1"]
line = ["cell*12"]
turns = 40
merge_drifts = {1}
[output]
phase_space = ["end"]
stats = "end"
)",
                       model, merge ? "true" : "false");
}

struct Tracked {
    Lattice lattice;
    Table lost;
    PhaseSpaceFile end;
};

Tracked track(test::TempDir const& dir, bool merge, std::string const& model)
{
    std::string const name = fmt::format("ring_{}_{}", model, merge);
    DeckConfig const deck = read_deck_text(ring_deck(merge, model), dir.file(name + ".toml"));
    RunOptions opt;
    opt.backend = "cpu";
    opt.quiet = true;
    opt.output = dir.file(name + ".h5");
    REQUIRE(run_beamline(deck, opt) == 0);
    return Tracked{build_tracking_lattice(deck, initial_reference(deck)), read_table(opt.output, "lost"),
                   read_phase_space(opt.output)};
}

}  // namespace

TEST_CASE("merge_drifts: the compacted table merges drifts and leaves out what does nothing")
{
    DeckConfig const full_deck = read_deck_text(ring_deck(false, "exact"), "ring.toml");
    DeckConfig const merged_deck = read_deck_text(ring_deck(true, "exact"), "ring.toml");
    Lattice const full = build_tracking_lattice(full_deck, initial_reference(full_deck));
    Lattice const merged = build_tracking_lattice(merged_deck, initial_reference(merged_deck));
    // Per cell: 16 entries in full; merged: qf, [d1 m d2 bpm hc d3], sx, d1 (the empty multipole after it
    // goes), qd, d2, col, [d3 m d1]: 8 entries.
    CHECK(full.elements.size() == 12 * 16);
    CHECK(merged.elements.size() == 12 * 8);
    CHECK(merged.compacted_from == full.elements.size());
    CHECK(merged.length == full.length);
    CHECK(merged.info[1].name == "d1");  // a merged run is named after its first drift
    CHECK(merged.info[1].s_begin == full.info[1].s_begin);
    CHECK(merged.info[1].s_end == full.info[6].s_end);  // ... and ends at its last drift's exit
    CHECK(merged.elements[1].drift.length == test::relative(0.7 + 0.55 + 0.45, 1e-15));
    for (std::size_t i = 0; i < merged.elements.size(); ++i)
        CHECK(merged.elements[i].index == std::int32_t(i));
    // An output point is kept and ends a run: with the marker m named in phase_space, a cell is qf, d1, m,
    // [d2 bpm hc d3], sx, d1, qd, d2, col, d3, m, d1: 12 entries.
    DeckConfig kept = merged_deck;
    kept.output.phase_space = {"m"};
    CHECK(compact_lattice(build_lattice(kept, initial_reference(kept)), kept).elements.size() == 12 * 12);
}

TEST_CASE("merge_drifts: a ring with apertures loses the same particles where the full table does")
{
    test::TempDir dir;
    for (std::string const model : {"linear", "exact"}) {
        INFO(model);
        Tracked const full = track(dir, false, model);
        Tracked const merged = track(dir, true, model);
        auto const ints = [](Table const& t, char const* c) {
            return std::get<std::vector<std::int64_t>>(t.find(c)->values);
        };
        auto const ids = [](Table const& t) {
            return std::get<std::vector<std::uint64_t>>(t.find("id")->values);
        };
        REQUIRE(full.lost.rows() > 20);                   // the aperture scrapes the beam
        REQUIRE(full.lost.rows() < 400);                  // ... but not all of it
        REQUIRE(merged.lost.rows() == full.lost.rows());  // the same particles, in id order
        CHECK(ids(merged.lost) == ids(full.lost));
        CHECK(ints(merged.lost, "turn") == ints(full.lost, "turn"));
        auto const fe = ints(full.lost, "element"), me = ints(merged.lost, "element");
        for (std::size_t i = 0; i < fe.size(); ++i) {
            CHECK(merged.lattice.info[std::size_t(me[i])].name == full.lattice.info[std::size_t(fe[i])].name);
            CHECK(merged.lost.doubles("s")[i] == full.lost.doubles("s")[i]);
        }
        // Coordinates: a merged drift adds L1 + L2 once where the full table adds L1 then L2 (one rounding of
        // ~1e-16 relative per merge), and the ring carries these differences on, growing them as it grows any
        // perturbation of particles near its aperture and sextupoles: measured 4e-14 m (linear model) and 3e-15 m
        // (exact) after 40 turns. 1e-12 m, a 1e-9 fraction of the millimetre coordinates, bounds that growth with
        // room; a wrong merge (a length lost or doubled) moves particles by ~mm.
        REQUIRE(merged.end.beam.size() == full.end.beam.size());
        double worst = 0;
        for (std::size_t i = 0; i < full.end.beam.size(); ++i) {
            CHECK(merged.end.beam.id[i] == full.end.beam.id[i]);
            worst = std::max({worst, std::abs(merged.end.beam.x[i] - full.end.beam.x[i]),
                              std::abs(merged.end.beam.px[i] - full.end.beam.px[i]),
                              std::abs(merged.end.beam.y[i] - full.end.beam.y[i]),
                              std::abs(merged.end.beam.t[i] - full.end.beam.t[i])});
        }
        INFO("largest difference " << worst);
        CHECK(worst < 1e-12);
        CHECK(worst > 0.0);  // it is not the same table
    }
}

TEST_CASE("merge_drifts is refused with collective effects")
{
    std::string text = ring_deck(true, "exact");
    text.replace(text.find("macroparticles = 400"), 20, "macroparticles = 400\nbunch_charge = \"1 nC\"");
    text += "[space_charge]\nenabled = true\n";
    DeckConfig const deck = read_deck_text(text, "ring.toml");
    CHECK_THROWS_WITH_AS(build_tracking_lattice(deck, initial_reference(deck)),
                         doctest::Contains("lattice.merge_drifts: merging drifts is for tracking without"),
                         DeckError);
}
