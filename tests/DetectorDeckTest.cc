// Detector decks: values in SI after reading, defaults, and diagnostics with file:line, key path and
// did-you-mean, every problem at once.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "Relative.hh"
#include "TextTestSupport.hh"
#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"
#include "detector/DetectorSetup.hh"

using namespace gt;

namespace {

std::string const k_deck = R"([run]
kind = "detector"
name = "t"
seed = 5
[materials.scint]
density = "1.032 g/cm3"
elements = { C = 0.9226, H = 0.0774 }
mean_excitation_energy = "64.7 eV"
[geometry.world]
shape = "box"
half_size = [1.0, "100 cm", "2 m"]
material = "air"
[[geometry.volume]]
name = "pixel"
shape = "tube"
rmin = "3 cm"
rmax = "3.03 cm"
half_z = "30 cm"
phi_start = "0 deg"
phi_delta = "90 deg"
material = "silicon"
sensitive = true
replicas = { count = 5, step_r = "4 cm" }
[[geometry.volume]]
name = "tile"
shape = "box"
half_size = ["5 cm", "5 cm", "1 cm"]
position = [0, 0, "50 cm"]
rotation = ["0 deg", "0 deg", "45 deg"]
material = "scint"
[field]
type = "solenoid"
B = "2 T"
radius = "1.2 m"
half_length = "2 m"
[propagation]
max_substeps = 12
delta_chord = "0.1 mm"
[gun]
particle = "pi+"
energy = { type = "gaussian", mean = "2 GeV", sigma = "50 MeV" }
events = 10
per_event = 3
position = { type = "beam_spot", center = [0, 0, "-10 cm"], sigma = ["1 mm", "1 mm", 0] }
direction = { type = "cone", axis = [0, 0, 1], half_angle = "10 mrad" }
[physics]
energy_cut = "0.5 MeV"
max_step = "1 mm"
[output]
file = "t.h5"
)";

std::string with(std::string text, std::string const& from, std::string const& to)
{
    auto const at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

std::vector<Diagnostic> errors_of(std::string const& text)
{
    try {
        read_deck_text(text, "d.toml", {});
    } catch (DeckError const& e) {
        return e.diagnostics();
    }
    return {};
}

Diagnostic one_error(std::string const& text, int line, std::string const& key)
{
    auto const ds = errors_of(text);
    std::string all;
    for (auto const& d : ds) all += d.format() + "\n";
    INFO(all);
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].where.file == "d.toml");
    CHECK(ds[0].where.line == line);
    CHECK(ds[0].key == key);
    return ds[0];
}

using gt::test::contains;

}  // namespace

TEST_CASE("a detector deck is read into SI values")
{
    DeckConfig const cfg = read_deck_text(k_deck, "d.toml", {});
    DetectorConfig const& d = cfg.detector;
    CHECK(cfg.run.kind == "detector");
    REQUIRE(d.materials.size() == 1);
    CHECK(d.materials[0].density == doctest::Approx(1032.0));
    CHECK(d.materials[0].mean_excitation.value() == test::relative(64.7e-6, 1e-12));
    CHECK(d.world.half_size[1] == doctest::Approx(1.0));
    CHECK(d.world.half_size[2] == doctest::Approx(2.0));
    REQUIRE(d.volumes.size() == 2);
    CHECK(d.volumes[0].rmax == test::relative(0.0303, 1e-12));
    CHECK(d.volumes[0].phi_delta == doctest::Approx(3.14159265358979 / 2));
    CHECK(d.volumes[0].replicas == 5);
    CHECK(d.volumes[0].replica_axis == ReplicaAxis::r);
    CHECK(d.volumes[0].replica_step == test::relative(0.04, 1e-12));
    CHECK(d.volumes[0].sensitive);
    CHECK(d.volumes[1].rotation[2] == test::relative(3.14159265358979 / 4, 1e-12));
    CHECK(d.volumes[1].mother == "world");
    CHECK(d.field.type == "solenoid");
    CHECK(d.field.b0 == doctest::Approx(2.0));
    CHECK(d.propagation.max_substeps == 12);
    CHECK(d.propagation.delta_chord == test::relative(1e-4, 1e-12));
    CHECK(d.propagation.delta_intersection == test::relative(1e-6, 1e-12));  // default
    CHECK(d.gun.particle == "pi+");
    CHECK(d.gun.spectrum == "gaussian");
    CHECK(d.gun.energy == doctest::Approx(2000.0));
    CHECK(d.gun.energy2 == doctest::Approx(50.0));
    CHECK(d.gun.position_shape == "beam_spot");
    CHECK(d.gun.position[2] == test::relative(-0.1, 1e-12));
    CHECK(d.gun.direction_shape == "cone");
    CHECK(d.gun.cone_half_angle == test::relative(0.01, 1e-12));
    CHECK(d.gun.events == 10);
    CHECK(d.gun.per_event == 3);
    CHECK(d.physics.energy_cut == test::relative(0.5, 1e-12));
    CHECK(d.physics.max_step == test::relative(1e-3, 1e-12));
    CHECK(d.physics.multiple_scattering);
    CHECK(cfg.output.file == "t.h5");
}

TEST_CASE("detector deck errors name the line and key, with did-you-mean")
{
    auto d = one_error(with(k_deck, "material = \"silicon\"", "material = \"silicn\""), 21,
                       "geometry.volume[0].material");
    CHECK(contains(d.message, "unknown material 'silicn' (did you mean 'silicon'?)"));
    d = one_error(with(k_deck, "material = \"scint\"", "material = \"scnit\""), 30,
                  "geometry.volume[1].material");
    CHECK(contains(d.message, "did you mean 'scint'?"));
    d = one_error(with(k_deck, "half_z = \"30 cm\"", "half_z = \"30 cm\"\nhalf_size = [1, 1, 1]"), 19,
                  "geometry.volume[0].half_size");
    CHECK(contains(d.message, "not a parameter of shape \"tube\""));
    d = one_error(with(k_deck, "rmax = \"3.03 cm\"", "rmax = \"3.03 T\""), 17, "geometry.volume[0].rmax");
    CHECK(contains(d.message, "expected a length"));
    d = one_error(with(k_deck, "particle = \"pi+\"", "particle = \"pion+\""), 40, "gun.particle");
    CHECK(contains(d.message, "expected one of"));
    d = one_error(with(k_deck, "[physics]", "[physcs]"), 46, "physcs");
    CHECK(contains(d.message, "did you mean 'physics'?"));
    d = one_error(with(k_deck, "[physics]", "[beam]\nx = 1\n[physics]"), 46, "beam");
    CHECK(contains(d.message, "belongs to beamline decks"));
    d = one_error(
        with(k_deck, "elements = { C = 0.9226, H = 0.0774 }", "elements = { C = 0.9226, Hx = 0.0774 }"), 7,
        "materials.scint.elements.Hx");
    CHECK(contains(d.message, "unknown element 'Hx' (did you mean 'H'?)"));
    d = one_error(with(k_deck, "elements = { C = 0.9226, H = 0.0774 }", "elements = { C = 0.5, H = 0.0774 }"),
                  7, "materials.scint.elements");
    CHECK(contains(d.message, "add up to"));
    d = one_error(with(k_deck, "replicas = { count = 5, step_r = \"4 cm\" }",
                       "replicas = { count = 5, step_r = \"4 cm\", step_z = 1 }"),
                  23, "geometry.volume[0].replicas");
    CHECK(contains(d.message, "give only one of"));
    d = one_error(with(k_deck, "name = \"tile\"", "name = \"tile\"\nmother = \"pixle\""), 26,
                  "geometry.volume[1].mother");
    CHECK(contains(d.message, "did you mean 'pixel'?"));
    d = one_error(with(k_deck, "max_substeps = 12", "max_substeps = 0"), 37, "propagation.max_substeps");
    d = one_error(with(k_deck, "type = \"solenoid\"", "type = \"solenoidal\""), 32, "field.type");
    CHECK(contains(d.message, "did you mean 'solenoid'?"));
}

TEST_CASE("all problems of a detector deck come at once, in line order")
{
    std::string bad = with(k_deck, "material = \"silicon\"", "material = \"silicn\"");
    bad = with(bad, "events = 10", "events = 0");
    bad = with(bad, "half_size = [1.0, \"100 cm\", \"2 m\"]", "half_size = [1.0, \"100 cm\"]");
    auto const ds = errors_of(bad);
    REQUIRE(ds.size() == 3);
    CHECK(ds[0].key == "geometry.world.half_size");
    CHECK(ds[1].key == "geometry.volume[0].material");
    CHECK(ds[2].key == "gun.events");
    CHECK(ds[0].where.line < ds[1].where.line);
}

TEST_CASE("track_slots belongs to detector decks")
{
    DeckConfig const cfg =
        read_deck_text(with(k_deck, "seed = 5", "seed = 5\ntrack_slots = 128"), "d.toml", {});
    CHECK(cfg.detector.track_slots == 128);
}

TEST_CASE("track_order: slots by default, alive, charge or compact, a choice with did-you-mean")
{
    CHECK(read_deck_text(k_deck, "d.toml", {}).detector.track_order == "slots");
    DeckConfig const cfg =
        read_deck_text(with(k_deck, "seed = 5", "seed = 5\ntrack_order = \"charge\""), "d.toml", {});
    CHECK(cfg.detector.track_order == "charge");
    DeckConfig const compact =
        read_deck_text(with(k_deck, "seed = 5", "seed = 5\ntrack_order = \"compact\""), "d.toml", {});
    CHECK(compact.detector.track_order == "compact");
    CHECK(make_detector_setup(compact).tables.track_order == TrackOrder::compact);
    auto const ds = errors_of(with(k_deck, "seed = 5", "seed = 5\ntrack_order = \"charged\""));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].key == "run.track_order");
    CHECK(ds[0].message.find("did you mean 'charge'?") != std::string::npos);
}

TEST_CASE("shower models: fluctuation_model and msc_exact_mean, defaults and errors")
{
    DeckConfig const plain = read_deck_text(k_deck, "d.toml", {});
    CHECK(plain.detector.physics.urban_fluctuations);
    CHECK(plain.detector.physics.msc_exact_mean);
    std::string const showers =
        with(k_deck, "max_step = \"1 mm\"",
             "max_step = \"1 mm\"\nshowers = true\nfluctuation_model = \"gaussian\"\nmsc_exact_mean = false");
    DeckConfig const cfg = read_deck_text(showers, "d.toml", {});
    CHECK_FALSE(cfg.detector.physics.urban_fluctuations);
    CHECK_FALSE(cfg.detector.physics.msc_exact_mean);
    // a misspelt model names the line and key, with the choices
    Diagnostic const d =
        one_error(with(showers, "model = \"gaussian\"", "model = \"urbn\""), 50, "physics.fluctuation_model");
    CHECK(contains(d.format(), "urban"));
    // without showers they are refused
    one_error(with(k_deck, "max_step = \"1 mm\"", "max_step = \"1 mm\"\nfluctuation_model = \"urban\""), 49,
              "physics.fluctuation_model");
}
