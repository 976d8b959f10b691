// The joined beamline-detector run (run/BeamDetectorRun.hh, issue 27): a pencil beam into a block gives
// the detector-only deck's bits; the energy the beam loses closes against the detector's balance; the
// loss point in a collimator; one output file with the link from primaries to beam particles; a
// resumed run is the uninterrupted one; the deck's errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "CheckpointTestSupport.hh"
#include "CommandTestSupport.hh"
#include "DeckTestSupport.hh"
#include "IoTestSupport.hh"
#include "Relative.hh"
#include "TextTestSupport.hh"
#include "beam/BeamSetup.hh"
#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"
#include "detector/GeometryBuilder.hh"
#include "io/H5Access.hh"
#include "io/H5Handle.hh"
#include "io/TableWriter.hh"
#include "kernels/detector/EventEnergy.hh"
#include "run/BeamDetectorRun.hh"
#include "run/StopRequest.hh"

using namespace gt;
using namespace gt::test;

namespace {

//! The beam part of the pencil-beam decks: 12 electrons of 1 GeV on the axis (zero emittance and energy
//! spread), 1.5 m of drift; the detector: a tungsten block 2 cm thick centred 12.5 cm after the line (lengths
//! that are sums of powers of two, so that the survey's sums are exact and both decks place it alike).
std::string const k_block = R"(
[[geometry.volume]]
name = "block"
shape = "box"
half_size = ["5 cm", "5 cm", "1 cm"]
material = "tungsten"
sensitive = true
)";
std::string const k_world = R"(
[geometry.world]
shape = "box"
half_size = ["50 cm", "50 cm", "3 m"]
material = "vacuum"

[physics]
showers = true
energy_cut = "1 MeV"
range_cut = "1 mm"
)";

std::string pencil_beamline(std::string const& output)
{
    return R"([run]
kind = "beamline"
name = "pencil"
seed = 99
backend = "cpu"

[beam]
particle = "electron"
kinetic_energy = "1 GeV"
bunch_charge = "1 pC"
macroparticles = 12
distribution = "gaussian"

[beam.twiss]
beta_x = 1.0
beta_y = 1.0
emittance_x = 0.0
emittance_y = 0.0
sigma_t = 0.0
sigma_pt = 0.0

[elements]
D = { type = "drift", length = "1.5 m" }

[lattice]
line = ["D"]

[output]
file = ")" +
           output + R"("

[detector]
primaries = ["lost", "extracted"]
)" + k_world +
           k_block + "s = \"1.625 m\"\n";
}

std::string pencil_detector()
{
    return R"([run]
kind = "detector"
name = "pencil"
seed = 99
backend = "cpu"

[gun]
particle = "electron"
energy = "1 GeV"
position = [0, 0, "1.5 m"]
direction = [0, 0, 1]
events = 12
)" + k_world +
           k_block + "position = [0, 0, \"1.625 m\"]\n";
}

}  // namespace

TEST_CASE("a pencil beam extracted into a block gives the detector-only deck's bits (gun at the line's end)")
{
    TempDir dir;
    DeckConfig const joined = read_deck_text(pencil_beamline(dir.file("pencil.h5")), "pencil_beam.toml");
    REQUIRE(joined.detector.along_beamline);
    RunOptions options;
    options.quiet = true;
    options.threads = 1;
    BeamDetectorResult r;
    REQUIRE(run_beam_detector(joined, options, &r) == 0);
    // Every particle reached the end on the axis: 12 primaries at (0, 0, 1.5 m) heading +Z with 1 GeV.
    REQUIRE(r.primaries.primaries.size() == 12);
    CHECK(r.primaries.lost == 0);
    for (Primary const& p : r.primaries.primaries) {
        CHECK(p.energy == 1000.0);
        CHECK(p.pos.x == 0.0);
        CHECK(p.pos.z == 1.5);
        CHECK(p.dir.z == 1.0);
    }

    DeckConfig const alone = read_deck_text(pencil_detector(), "pencil_gun.toml");
    DetectorRunOptions det;
    det.write_output = false;
    det.quiet = true;
    det.threads = 1;
    DetectorRunResult const gun = run_detector_deck(alone, det);
    CHECK(gun.tallies == r.detector.tallies);
    CHECK(gun.tallies[1] > 100.0);  // the block took a good part of 12 GeV
    CHECK(gun.counters == r.detector.counters);
    CHECK(gun.event_energy == r.detector.event_energy);
    REQUIRE(gun.hits.size() == r.detector.hits.size());
    CHECK(differing_hits(gun.hits, r.detector.hits) == 0);
}

TEST_CASE("the beam energy lost on the collimator closes: deposited + below cuts + escaped, per event")
{
    TempDir dir;
    DeckConfig const deck =
        read_deck(GTRACK_SOURCE_DIR "/inputs/collimator_losses.toml",
                  {"beam.macroparticles=120", "output.file=\"" + dir.file("col.h5") + "\""});
    RunOptions options;
    options.quiet = true;
    options.threads = 1;
    options.backend = "cpu";
    BeamDetectorResult r;
    REQUIRE(run_beam_detector(deck, options, &r) == 0);
    BeamPrimaries const& p = r.primaries;
    REQUIRE(p.lost > 10);  // a half gap of one sigma scrapes about a third of the beam
    CHECK(p.primaries.size() == p.lost);
    REQUIRE(r.balance.recorded);
    // The detector adds each deposit as an integer of k_tally_unit (1e-9 MeV), rounded: an event's
    // balance closes to half a unit per addition. A step adds at most 4 (deposit, below cut, escape,
    // step limit), each secondary and primary one more: that bounds the rounding of the total; an event's
    // is bounded by the same count (its own additions are fewer).
    double const additions =
        4.0 * double(r.detector.counters[k_steps] + r.detector.counters[k_secondaries] + p.lost);
    double const rounding = 0.5 * k_tally_unit * additions;
    double const out = r.balance.deposited + r.balance.below_cut + r.balance.escaped + r.balance.step_limit;
    CHECK(std::abs(r.balance.lost - out) <= rounding);
    CHECK(r.balance.worst_event <= rounding);
    // The detector's primary energy is the beam's, each rounded once to the unit.
    CHECK(std::abs(r.balance.primary - r.balance.lost) <= 0.5 * k_tally_unit * double(p.lost));
    CHECK(r.balance.deposited > 0.5 * r.balance.lost);  // 14 X0 of tungsten keep most of it
    // The lost particles' energies: 1 GeV each, less what they lost on the way (nothing in drifts): their
    // sum is the lost count times the reference energy to the beam's energy spread (1e-3 of 1 GeV, rms).
    CHECK(p.lost_energy == test::relative(1000.0 * double(p.lost), 1e-2));

    // One file: the beam part (/stats, /lost), the link (/primaries), the detector part.
    std::string const file = dir.file("col.h5");
    Table const lost = read_table(file, "lost");
    Table const prim = read_table(file, "primaries");
    REQUIRE(prim.rows() == lost.rows());
    auto const& lost_id = std::get<std::vector<std::uint64_t>>(lost.find("id")->values);
    auto const& prim_id = std::get<std::vector<std::uint64_t>>(prim.find("id")->values);
    CHECK(prim_id == lost_id);  // both in id order
    for (char const* group : {"stats", "tallies", "energy_balance", "hits", "detector", "beam_detector"}) {
        INFO(group);
        h5::File f = h5::open_file_readonly(file);
        CHECK(h5::exists(f, group));
    }
}

TEST_CASE("a particle lost at a collimator's exit starts where its straight path entered the jaw")
{
    ReferenceParticle const ref = ReferenceParticle::from_kinetic(constants::electron_mass_mev, -1.0, 1000.0);
    Element e{};
    e.kind = ElementKind::collimator;
    e.collimator = Collimator::make(ApertureShape::rectangle, 1e-3, 1e-2, 0.05, ref);
    // In at x = 0.5 mm with x' = 20 mrad: out at 1.5 mm, through the jaw face (1 mm) after 25 mm.
    double const px = 0.02;  // with pt = 0: P_s = sqrt(1 - px^2), slope px / P_s
    double const slope = px / std::sqrt(1.0 - px * px);
    Particle const at_exit{0.5e-3 + 0.05 * slope, px, 0.0, 0.0, 0.0, 0.0};
    LossPoint const lp = loss_point(e, 0.05, at_exit, ref);
    // (1 mm - 0.5 mm) / slope: a few roundings of 1e-2 m (1e-16 m).
    CHECK(lp.along == test::relative(0.5e-3 / slope, 1e-12));
    CHECK(lp.p.x == test::relative(1e-3, 1e-12));
    // Outside already at the entrance (drawn back, it was outside too): the entrance face.
    Particle const outside{3e-3, 0.0, 0.0, 0.0, 0.0, 0.0};
    CHECK(loss_point(e, 0.05, outside, ref).along == 0.0);
    // Any other element: its exit.
    Element d{};
    d.kind = ElementKind::aperture;
    CHECK(loss_point(d, 0.0, outside, ref).along == 0.0);
}

TEST_CASE("a joined run stopped in its detector part resumes to every bit of the uninterrupted run")
{
    TempDir dir;
    std::string const out = dir.file("col.h5"), reference = dir.file("reference.h5");
    std::string const deck = std::string(GTRACK_SOURCE_DIR) +
                             "/inputs/collimator_losses.toml --set beam.macroparticles=30 "
                             "--set detector.track_slots=8";
    auto const run = [&](std::string const& env) {
        return run_shell(env + " " + GTRACK_BINARY + " run " + deck + " --backend cpu --threads 1 -q -o " +
                         out + " --resume auto");
    };
    CommandResult const whole = run("");
    INFO(whole.output);
    REQUIRE(whole.status == 0);
    std::filesystem::rename(out, reference);
    // 3 entries: a stop at progress 20 falls in the detector's step iterations.
    CommandResult const stopped = run(std::string(k_test_stop_variable) + "=20");
    INFO(stopped.output);
    REQUIRE(stopped.status == k_exit_stopped);
    CHECK(contains(stopped.output, "in the detector part"));
    CHECK_FALSE(std::filesystem::exists(out));
    REQUIRE(std::filesystem::exists(detector_checkpoint_path(out)));
    CommandResult const resumed = run("");
    INFO(resumed.output);
    REQUIRE(resumed.status == 0);
    // Times of day only: the openPMD root's date and provenance's start and end.
    check_every_bit(reference, out, {"@date", "provenance@start_time", "provenance@end_time"});
    CHECK_FALSE(std::filesystem::exists(detector_checkpoint_path(out)));
}

TEST_CASE("a beamline deck's detector: errors name the key")
{
    std::string const base = pencil_beamline("x.h5");
    auto const problem = [](std::string const& text) {
        try {
            read_deck_text(text, "bad.toml");
        } catch (DeckError const& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(contains(problem(base + "\n[gun]\nparticle = \"e-\"\n"), "no [gun]"));
    CHECK(contains(
        problem(base + "\n[[geometry.volume]]\nname = \"inner\"\nshape = \"box\"\nhalf_size = [0.01, "
                       "0.01, 0.01]\nmaterial = \"air\"\nmother = \"block\"\ns = 1.0\n"),
        "only a volume placed in the world"));
    std::string wrong = base;
    wrong.replace(wrong.find("[\"lost\", \"extracted\"]"), 22, "[\"extracted\"]");
    CHECK(contains(problem(wrong), "detector.primaries"));
    wrong = base;
    wrong.replace(wrong.find("[\"lost\", \"extracted\"]"), 22, "[\"lots\"]");
    CHECK(contains(problem(wrong), "lost"));
    // `s` is a beamline deck's key: a detector deck does not take it.
    CHECK(contains(problem(pencil_detector() + "s = 1.0\n"), "unknown key 's'"));
    // The detector's sections without [geometry]: said so.
    std::string const no_geometry = test::deck_text({.kinetic_energy = "1 GeV",
                                                     .macroparticles = 10,
                                                     .elements = R"(D = { type = "drift", length = 1.0 })",
                                                     .line = R"(["D"])"}) +
                                    "[physics]\nshowers = true\n";
    CHECK(contains(problem(no_geometry), "[physics] belongs to a detector"));
}

TEST_CASE(
    "a volume placed at s inside a bend takes the survey frame's point and axes, its own rotation after")
{
    std::string const text = test::deck_text({.kinetic_energy = "1 GeV",
                                              .macroparticles = 10,
                                              .elements = R"(D = { type = "drift", length = 1.0 }
B = { type = "sbend", length = 2.0, angle = 0.4, tilt = 0.3 })",
                                              .line = R"(["D", "B", "D"])"}) +
                             R"([geometry.world]
shape = "box"
half_size = [5.0, 5.0, 5.0]
material = "vacuum"
[[geometry.volume]]
name = "block"
shape = "box"
half_size = [0.01, 0.02, 0.03]
material = "iron"
s = 2.2
position = [0.05, -0.02, 0.1]
rotation = [0.1, -0.2, 0.3]
)";
    DeckConfig const deck = read_deck_text(text, "bent.toml");
    ReferenceParticle const ref = initial_reference(deck);
    Lattice const lattice = build_lattice(deck, ref);
    Survey const survey(lattice);
    DeckConfig const det = detector_part(deck, survey, 3);
    CHECK(det.run.kind == "detector");
    CHECK(det.detector.gun.events == 3);
    VolumeConfig const& v = det.detector.volumes.at(0);
    CHECK_FALSE(v.s.has_value());
    SurveyFrame const f = survey.at(2.2);
    Vec3 const p = f.point(Vec3{0.05, -0.02, 0.1});
    // One matrix-vector product of O(1) numbers: 1e-15 m.
    CHECK(std::abs(v.position[0] - p.x) < 1e-15);
    CHECK(std::abs(v.position[1] - p.y) < 1e-15);
    CHECK(std::abs(v.position[2] - p.z) < 1e-15);
    // Its global rotation is W R_local: the angles found again give that matrix to rounding (1e-15 per
    // element, atan2 and a product of three rotations).
    double local[9], global[9];
    rotation_matrix(0.1, -0.2, 0.3, local);
    rotation_matrix(v.rotation[0], v.rotation[1], v.rotation[2], global);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double const w =
                f.axes[0][i] * local[j] + f.axes[1][i] * local[3 + j] + f.axes[2][i] * local[6 + j];
            CHECK(std::abs(global[3 * i + j] - w) < 1e-14);
        }
}

TEST_CASE(
    "the detector part from given primaries is the same bits for 1 and 2 threads (what validate checks)")
{
    // gtrack validate runs the detector part from the CPU beam's primaries on the CPU and on the GPU and
    // asks for the same bits; here the CPU against itself at another thread count (no GPU in CI).
    TempDir dir;
    DeckConfig const deck = read_deck(GTRACK_SOURCE_DIR "/regression/beam_detector/deck.toml",
                                      {"output.file=\"" + dir.file("a.h5") + "\"", "beam.macroparticles=24"});
    BeamDetectorResult one, two;
    RunOptions options;
    options.quiet = true;
    options.backend = "cpu";
    options.threads = 1;
    REQUIRE(run_beam_detector(deck, options, &one) == 0);
    options.threads = 2;
    options.output = dir.file("b.h5");
    REQUIRE(run_beam_detector(deck, options, &two) == 0);
    REQUIRE(one.primaries.primaries.size() == two.primaries.primaries.size());
    CHECK(one.primaries.lost > 0);
    CHECK(one.primaries.primaries.size() > one.primaries.lost);  // extracted ones too
    CHECK(differing_hits(one.detector.hits, two.detector.hits) == 0);
    CHECK(one.detector.tallies == two.detector.tallies);
    CHECK(one.detector.counters == two.detector.counters);
    CHECK(one.detector.event_energy == two.detector.event_energy);
}

TEST_CASE(
    "gtrack check on a beamline deck with a detector: the lattice, where the survey ends it, the detector")
{
    for (auto const& deck_and_primaries :
         {std::pair{"collimator_losses.toml", "primaries: the beam's lost particles, one event each"},
          std::pair{"beam_dump.toml",
                    "primaries: the beam's lost and extracted particles, one event each"}}) {
        std::string const deck = deck_and_primaries.first, primaries = deck_and_primaries.second;
        CommandResult const c = run_gtrack(std::string("check ") + GTRACK_SOURCE_DIR + "/inputs/" + deck);
        INFO(c.output);
        CHECK(c.status == 0);
        CHECK(contains(c.output, "survey: the line ends at"));
        CHECK(contains(c.output, primaries));
        CHECK_FALSE(contains(c.output, "gun:"));  // such a deck has no gun
    }
}

TEST_CASE(
    "gtrack scan --local runs a beamline deck with a detector: each point is the joined run of its deck")
{
    // Two collimator widths of the regression deck, 20 particles: the narrower ellipse holds the wider, so
    // with the same beam (same seed) it loses every particle the wider one loses, and more or as many.
    TempDir dir;
    std::string const deck = dir.file("scan.toml");
    {
        std::ifstream in(GTRACK_SOURCE_DIR "/regression/beam_detector/deck.toml");
        std::ofstream out(deck);
        out << in.rdbuf() << "\n[scan]\n\"elements.COL.half_x\" = [\"0.6 mm\", \"1.2 mm\"]\n";
    }
    std::string const set =
        " --set beam.macroparticles=20 --set 'output.file=\"" + dir.path() + "/bd_{index}.h5\"'";
    CommandResult const scan = run_gtrack("scan " + deck + " --local -j 1 --threads 1 --backend cpu" + set);
    INFO(scan.output);
    REQUIRE(scan.status == 0);
    CHECK(contains(scan.output, "2 run, 0 skipped (complete), 0 failed"));
    std::vector<std::uint64_t> lost_ids[2];
    for (int i = 0; i < 2; ++i) {
        std::string const file = dir.file("bd_" + std::to_string(i) + ".h5");
        Table const lost = read_table(file, "lost"), prim = read_table(file, "primaries");
        REQUIRE(prim.rows() == 20);  // the lost ones, then the extracted ones
        auto const& id = std::get<std::vector<std::uint64_t>>(prim.find("id")->values);
        lost_ids[i].assign(id.begin(), id.begin() + std::ptrdiff_t(lost.rows()));
        CHECK(lost_ids[i] == std::get<std::vector<std::uint64_t>>(lost.find("id")->values));
        h5::File f = h5::open_file_readonly(file);
        CHECK(h5::exists(f, "energy_balance"));
    }
    CHECK(lost_ids[0].size() > lost_ids[1].size());
    CHECK(std::includes(lost_ids[0].begin(), lost_ids[0].end(), lost_ids[1].begin(), lost_ids[1].end()));
    // A point is the run of its deck: `gtrack run --scan-index 1` writes the same bits.
    std::string const point = dir.file("point1.h5");
    CommandResult const one =
        run_gtrack("run " + deck + " --scan-index 1 --threads 1 --backend cpu -q" + set + " -o " + point);
    INFO(one.output);
    REQUIRE(one.status == 0);
    check_every_bit(dir.file("bd_1.h5"), point,
                    {"@date", "provenance@start_time", "provenance@end_time", "provenance@command_line"});
}
