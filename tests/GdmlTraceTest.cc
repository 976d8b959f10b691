// Ray traces through GDML files written by another project (tests/data/gdml/README.md): the volumes
// crossed, the distances and the safeties equal to the traces Celeritas publishes for the same files
// (its VecGeom and ORANGE tests), to 1e-9 relative (the tolerance; the values are exact
// decimal differences of the files' coordinates, so only rounding separates them).
#include "GdmlTestSupport.hh"
#include "deck/DeckError.hh"

using namespace gt;

namespace {

std::string data(std::string const& name)
{
    return std::string(GTRACK_SOURCE_DIR) + "/tests/data/gdml/" + name;
}

constexpr double cm = 1e-2;

}  // namespace

TEST_CASE("simple-cms.gdml: Celeritas' VecGeom track, distances and safeties")
{
    // Celeritas test/geocel/vg/Vecgeom.test.cc, SimpleCmsTest.track
    DetectorSetup const s =
        make_detector_setup(read_deck_text(test::gdml_deck(data("simple-cms.gdml")), "cms.toml", {}));
    GeometryTables const& g = s.geometry;
    CHECK(g.logical_names.size() == 7);
    Navigator const nav(g.view());
    auto name = [&](std::int32_t v) { return g.logical_names[g.volumes[v].logical]; };
    Vec3 p{0, 0, 0};
    std::int32_t v = nav.locate(p);
    CHECK(name(v) == "vacuum_tube");
    NextStep n = nav.find_next_step(v, p, {0, 0, 1}, 100 * cm);
    CHECK(n.distance == test::relative(100 * cm, 1e-9));
    CHECK_FALSE(n.boundary);
    p = {0, 0, 20 * cm};
    CHECK(nav.safety(v, p, 1e6) == test::relative(30 * cm, 1e-9));
    n = nav.find_next_step(v, p, {1, 0, 0}, 50 * cm);
    CHECK(n.boundary);
    CHECK(n.distance == test::relative(30 * cm, 1e-9));
    p = axpy(n.distance, Vec3{1, 0, 0}, p);
    v = nav.cross_boundary(v, p, {1, 0, 0});
    CHECK(name(v) == "si_tracker");
    // scattered to the tangent
    n = nav.find_next_step(v, p, {0, 1, 0}, 1000 * cm);
    CHECK(n.boundary);
    CHECK(n.distance == test::relative(121.34661099511597 * cm, 1e-9));
    p = axpy(10 * cm, Vec3{0, 1, 0}, p);
    CHECK(nav.safety(v, p, 1e6) == test::relative(1.6227766016837926 * cm, 1e-9));
    n = nav.find_next_step(v, p, {0, 1, 0}, 1000 * cm);
    CHECK(n.distance == test::relative(111.34661099511597 * cm, 1e-9));
    p = axpy(n.distance, Vec3{0, 1, 0}, p);
    n = nav.find_next_step(v, p, {-1, 0, 0}, 1000 * cm);
    CHECK(n.distance == test::relative(60 * cm, 1e-9));
    // the SensDet auxiliaries make the tracker and the EM calorimeter sensitive
    for (PlacedVolume const& pv : g.volumes) {
        std::string const nm = g.logical_names[pv.logical];
        CHECK_MESSAGE(pv.sensitive == (nm == "si_tracker" || nm == "em_calorimeter" ? 1 : 0), nm);
    }
}

TEST_CASE("simple-cms.gdml: the deck makes more volumes sensitive by name; an unknown name is an error")
{
    DeckConfig const cfg = read_deck_text(
        test::gdml_deck(data("simple-cms.gdml"), "gdml_sensitive = [\"had_calorimeter\"]"), "cms.toml", {});
    for (VolumeConfig const& v : cfg.detector.volumes)
        CHECK_MESSAGE(v.sensitive == (v.name == "si_tracker" || v.name == "em_calorimeter" ||
                                      v.name == "had_calorimeter"),
                      v.name);
    CHECK_THROWS_WITH_AS(
        read_deck_text(test::gdml_deck(data("simple-cms.gdml"), "gdml_sensitive = [\"hcal\"]"), "cms.toml",
                       {}),
        doctest::Contains("gdml_sensitive names 'hcal'"), DeckError);
}

TEST_CASE("testem3-flat.gdml (Geant4-exported names): Celeritas' ORANGE trace along +x")
{
    // Celeritas test/orange/OrangeGeant.test.cc, TestEm3FlatGeantTest.trace: from x = -20.1 cm along
    // +x, world, then gap_i (lead, 0.23 cm) and absorber_i (argon, 0.57 cm) for i = 0..49, then world
    // (4 cm); half-way safeties 0.05, then 0.115 / 0.285, then 2 cm
    DetectorSetup const s = make_detector_setup(read_deck_text(
        test::gdml_deck(data("testem3-flat.gdml"), "gdml_strip_pointers = true"), "em3.toml", {}));
    test::Trace const t = test::trace(s.geometry, {-20.1 * cm, 0, 0}, {1, 0, 0});
    std::vector<std::string> volumes = {"world"};
    std::vector<double> distances = {0.1 * cm}, safeties = {0.05 * cm};
    for (int i = 0; i < 50; ++i) {
        volumes.push_back(fmt::format("gap_{}", i));
        volumes.push_back(fmt::format("absorber_{}", i));
        distances.insert(distances.end(), {0.23 * cm, 0.57 * cm});
        safeties.insert(safeties.end(), {0.115 * cm, 0.285 * cm});
    }
    volumes.push_back("world");
    distances.push_back(4 * cm);
    safeties.push_back(2 * cm);
    REQUIRE(t.volumes.size() == volumes.size());
    for (std::size_t i = 0; i < volumes.size(); ++i) {
        CHECK(t.volumes[i] == volumes[i]);
        CHECK(t.distances[i] == test::relative(distances[i], 1e-9));
        CHECK(t.halfway_safeties[i] == test::relative(safeties[i], 1e-9));
    }
    // Geant4's names unstripped by default: the file's spelling
    DetectorSetup const raw =
        make_detector_setup(read_deck_text(test::gdml_deck(data("testem3-flat.gdml")), "em3.toml", {}));
    CHECK(raw.geometry.logical_names[0] == "world0x600000ef0d20");
}
