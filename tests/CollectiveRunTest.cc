// Collective effects through decks: where the kicks go, the /collective table, deck errors, and the
// example decks run and validated (two CPU backends, bit for bit).
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>

#include "CollectiveTestSupport.hh"
#include "IoTestSupport.hh"
#include "TextTestSupport.hh"
#include "beam/Lattice.hh"
#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"
#include "io/TableWriter.hh"
#include "run/BeamRun.hh"
#include "run/CollectiveSchedule.hh"
#include "run/SpaceChargeSchedule.hh"
#include "run/Validation.hh"

using namespace gt;

namespace {

std::string const k_deck = R"(
[beam]
particle = "electron"
kinetic_energy = "100 MeV"
bunch_charge = "1 nC"
macroparticles = 4000
[beam.twiss]
beta_x = 5.0
beta_y = 5.0
emittance_x = "10 nm"
emittance_y = "10 nm"
sigma_t = "1 mm"
sigma_pt = 1e-4
[elements]
W = { type = "wake", model = "resonator", r_shunt = "10 kOhm", q = 3, frequency = "1 GHz" }
D = { type = "drift", length = 2.0, slices = 4, lsc = true, wake = "W" }
B = { type = "sbend", length = 1.0, angle = 0.05, slices = 5, csr = true }
M = { type = "marker" }
[lattice]
line = ["D", "W", "B", "M"]
[collective]
bins = 200
[output]
stats = "every_slice"
phase_space = []
)";

//! The error message read_deck_text + CollectivePlan give for `text`, or "" when none.
std::string plan_error(std::string const& text)
{
    try {
        DeckConfig const deck = read_deck_text(text, "c.toml");
        ReferenceParticle const ref = initial_reference(deck);
        CollectivePlan const plan(build_lattice(deck, ref), deck);
    } catch (DeckError const& e) {
        return e.what();
    }
    return "";
}

std::string with(std::string text, std::string const& from, std::string const& to)
{
    auto const at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("collective kicks: LSC after every slice, a wake key at the exit, CSR after body slices")
{
    DeckConfig const deck = read_deck_text(k_deck, "c.toml");
    Lattice const lattice = build_lattice(deck, initial_reference(deck));
    CollectivePlan const plan(lattice, deck);
    // Entries: D x4 (0..3), W (4), B: edge, 5 bodies, edge (5..11), M (12).
    std::vector<std::int64_t> entries;
    for (auto const& [e, _] : plan.kicks()) entries.push_back(e);
    CHECK(entries == std::vector<std::int64_t>{0, 1, 2, 3, 4, 6, 7, 8, 9, 10});
    for (std::int64_t e : {0, 1, 2, 3}) {
        CHECK(plan.kicks().at(e).lsc);
        CHECK(plan.kicks().at(e).ds == test::relative(0.5, 1e-14));
        CHECK(plan.kicks().at(e).wakes.size() == (e == 3 ? 1u : 0u));
    }
    CHECK(plan.kicks().at(4).wakes.size() == 1u);
    CHECK(plan.kicks().at(6).csr_radius == test::relative(20.0, 1e-14));
    CHECK(plan.kicks().at(6).ds == test::relative(0.2, 1e-14));
    CHECK(!plan.kicks().at(6).lsc);
    CHECK(plan.settings().bins == 200);
}

TEST_CASE("CSR transient and drift wake in the plan: slice-middle angles, drift kicks up to csr_drift")
{
    std::string text = with(k_deck, "line = [\"D\", \"W\", \"B\", \"M\"]", "line = [\"B\", \"D\", \"B\", \"D\"]");
    text = with(text, "bins = 200", "bins = 200\ncsr_transient = true\ncsr_drift = \"1.2 m\"");
    DeckConfig const deck = read_deck_text(text, "c.toml");
    CollectivePlan const plan(build_lattice(deck, initial_reference(deck)), deck);
    // Entries: B edge 0, bodies 1..5, edge 6; D 7..10 (middles 0.25 ... 1.75 m after the exit);
    // B 11..17; D 18..21.
    auto const& k = plan.kicks();
    CHECK(k.at(1).csr_angle == test::relative(0.5 * 0.2 / 20.0, 1e-14));
    CHECK(k.at(5).csr_angle == test::relative(4.5 * 0.2 / 20.0, 1e-14));
    CHECK(k.at(5).csr_exit_distance < 0);
    for (std::int64_t e : {7, 8, 18, 19}) {
        CAPTURE(e);
        CHECK(k.at(e).csr_radius == test::relative(20.0, 1e-14));
        CHECK(k.at(e).csr_angle == test::relative(0.05, 1e-14));
        CHECK(k.at(e).csr_exit_distance == test::relative(e % 11 == 7 ? 0.25 : 0.75, 1e-12));
        CHECK(k.at(e).lsc);
        CHECK(k.at(e).ds == test::relative(0.5, 1e-14));
    }
    for (std::int64_t e : {9, 10, 20, 21}) CHECK(k.at(e).csr_radius == 0.0);  // beyond 1.2 m: LSC alone
    CHECK(test::contains(plan_error(with(k_deck, "bins = 200", "csr_drift = \"-1 m\"")), "collective.csr_drift"));
}

TEST_CASE("a run writes one /collective row per kick point; the bunch loses energy to the wakes")
{
    test::TempDir dir;
    DeckConfig const deck = read_deck_text(k_deck, dir.file("c.toml"));
    RunOptions opt;
    opt.backend = "cpu";
    opt.quiet = true;
    opt.output = dir.file("c.h5");
    REQUIRE(run_beamline(deck, opt) == 0);
    Table const t = read_table(dir.file("c.h5"), "collective");
    CHECK(t.rows() == 10u);
    auto const& charge = t.doubles("charge_on_grid");
    for (double q : charge) CHECK(q == test::relative(-1e-9, 1e-12));  // every particle on the grid
    auto const& de = t.doubles("energy_change");
    CHECK(de[4] < 0);  // the resonator at W takes energy from the bunch
    CHECK(t.doubles("bins")[0] == 200.0);
    CHECK(t.doubles("bin_width")[0] > 0.0);
}

TEST_CASE("deck errors of collective effects name the element and key")
{
    CHECK(plan_error(k_deck).empty());
    CHECK(test::contains(plan_error(with(k_deck, "wake = \"W\"", "wake = \"X\"")),
                         "elements.D.wake: 'X' is not an element of this deck"));
    CHECK(test::contains(plan_error(with(k_deck, "wake = \"W\"", "wake = \"M\"")), "is not a wake element"));
    CHECK(test::contains(plan_error(with(k_deck, "M = { type = \"marker\" }", "M = { type = \"marker\", lsc = true }")),
                         "elements.M.lsc: 'lsc' acts on elements with a length"));
    CHECK(test::contains(plan_error(with(k_deck, "r_shunt = \"10 kOhm\", ", "")),
                         "elements.W.r_shunt: a resonator wake needs 'r_shunt'"));
    CHECK(test::contains(plan_error(with(k_deck, "q = 3", "q = 0.4")), "elements.W.q: a resonator wake needs q > 1/2"));
    CHECK(test::contains(plan_error(with(k_deck, "[collective]", "[space_charge]\nenabled = true\n[collective]")),
                         "elements.D.lsc: [space_charge] is enabled"));
    CHECK(test::contains(plan_error(with(k_deck, "model = \"resonator\", r_shunt = \"10 kOhm\", q = 3, frequency = \"1 GHz\"",
                                         "model = \"table\", file = \"missing.wake\"")),
                         "elements.W.file: missing.wake: cannot open the wake table"));
    // The deck reader: units, flags, the section.
    auto const reader_error = [](std::string const& text) {
        try {
            read_deck_text(text, "c.toml");
        } catch (DeckError const& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(test::contains(reader_error(with(k_deck, "\"10 kOhm\"", "\"10 kV\"")), "elements.W.r_shunt"));
    CHECK(test::contains(reader_error(with(k_deck, "lsc = true", "lsc = \"yes\"")), "elements.D.lsc"));
    CHECK(test::contains(reader_error(with(k_deck, "bins = 200", "bins = 8")), "collective.bins"));
    CHECK(test::contains(reader_error(with(k_deck, "bins = 200", "histogram = \"sorted\"")), "collective.histogram"));
    CHECK(test::contains(reader_error(with(k_deck, "bins = 200", "lsc_cutoff = 2")), "collective.lsc_cutoff"));
}

TEST_CASE("the example decks run and validate: two CPU backends agree bit for bit")
{
    // The deterministic histogram and the same host convolutions make every kick reproducible.
    for (char const* name : {"chicane_csr.toml", "linac_wake.toml"}) {
        CAPTURE(name);
        DeckConfig const deck =
            read_deck(std::string(GTRACK_SOURCE_DIR) + "/inputs/" + name, {"beam.macroparticles=5000"});
        auto a = make_cpu_beam_kernels();
        auto b = make_cpu_beam_kernels();
        ValidationOptions o;
        o.stages = StatsWhere::every_element;
        ValidationResult const r = validate_beamline(deck, *a, *b, o);
        CHECK(r.ok());
        for (auto const& s : r.stages)
            for (auto const& c : s.coordinate) CHECK(c.differing == 0);
    }
}
