// TestEm3 read from GDML against inputs/testem3.toml: a GDML file written from the TOML deck's own
// numbers (boxes, the 50 layer copies as <physvol>s, G4_Pb for lead, the deck's liquid argon, the
// world's G4_Galactic) gives the same geometry tables and therefore the same hits and tallies, bit for
// bit; and inputs/testem3_gdml.toml (its GDML written as a user would, in mm) places every volume
// where the TOML deck does, to rounding.
#include <cstring>
#include <sstream>

#include "GdmlTestSupport.hh"
#include "deck/Materials.hh"
#include "run/DetectorRun.hh"

using namespace gt;

namespace {

std::string const k_toml = std::string(GTRACK_SOURCE_DIR) + "/inputs/testem3.toml";

std::string g4_name(std::string const& m)
{
    if (m == "lead") return "G4_Pb";
    if (m == "vacuum") return "G4_Galactic";
    return m;
}

//! GDML for a deck of boxes (replicas along x), its numbers printed to round-trip exactly in m.
std::string gdml_from(DetectorConfig const& d)
{
    auto num = [](double x) { return fmt::format("{:.17g}", x); };
    std::string materials, solids, structure;
    for (MaterialConfig const& m : d.materials) {
        std::string fractions;
        for (auto const& [symbol, w] : m.elements) {
            materials +=
                fmt::format(R"(<element name="el_{0}" formula="{0}" Z="{1}"><atom value="1"/></element>)",
                            symbol, find_element(symbol)->z);
            fractions += fmt::format(R"(<fraction n="{}" ref="el_{}"/>)", num(w), symbol);
        }
        materials += fmt::format(
            R"(<material name="{}"><D value="{}" unit="kg/m3"/><MEE value="{}" unit="MeV"/>{}</material>)",
            m.name, num(m.density), num(*m.mean_excitation), fractions);
    }
    std::vector<VolumeConfig> all = {d.world};
    all.insert(all.end(), d.volumes.begin(), d.volumes.end());
    for (auto it = all.rbegin(); it != all.rend(); ++it) {
        VolumeConfig const& v = *it;
        REQUIRE(v.shape == "box");
        solids += fmt::format(R"(<box name="s_{}" x="{}" y="{}" z="{}" lunit="m"/>)", v.name,
                              num(2 * v.half_size[0]), num(2 * v.half_size[1]), num(2 * v.half_size[2]));
        std::string daughters;
        for (VolumeConfig const& c : d.volumes) {
            if (c.mother != v.name) continue;
            for (int k = 0; k < c.replicas; ++k) {
                std::string const x =
                    c.replicas > 1 ? fmt::format("{}+{}*{}", num(c.position[0]), k, num(c.replica_step))
                                   : num(c.position[0]);
                daughters += fmt::format(
                    R"(<physvol{}><volumeref ref="{}"/><position name="p" x="{}" y="{}" z="{}" unit="m"/></physvol>)",
                    c.replicas > 1 ? fmt::format(" copynumber=\"{}\"", k) : "", c.name, x, num(c.position[1]),
                    num(c.position[2]));
            }
        }
        structure +=
            fmt::format(R"(<volume name="{}"><materialref ref="{}"/><solidref ref="s_{}"/>{}{}</volume>)",
                        v.name, g4_name(v.material), v.name, daughters,
                        v.sensitive ? R"(<auxiliary auxtype="SensDet" auxvalue="sd"/>)" : "");
    }
    return test::gdml_text("", materials, solids, structure, "world");
}

//! inputs/testem3.toml with its [materials] and [geometry] replaced by [geometry] gdml = path.
std::string deck_with_gdml(std::string const& path)
{
    std::ifstream in(k_toml);
    std::string line, out;
    bool skip = false;
    while (std::getline(in, line)) {
        if (!line.empty() && line[0] == '[')
            skip = line.rfind("[materials", 0) == 0 || line.rfind("[geometry", 0) == 0 ||
                   line.rfind("[[geometry", 0) == 0;
        if (!skip) out += line + "\n";
    }
    return out + fmt::format("[geometry]\ngdml = \"{}\"\n", path);
}

DetectorRunResult run(DeckConfig const& cfg)
{
    DetectorRunOptions opt;
    opt.write_output = false;
    opt.quiet = true;
    return run_detector_deck(cfg, opt);
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

TEST_CASE("TestEm3 from GDML written with the TOML deck's numbers: the same hits and tallies, bit for bit")
{
    std::vector<std::string> const set = {"run.backend=cpu", "gun.events=2"};
    DeckConfig const toml = read_deck(k_toml, set);
    std::string const path = test::write_temp_file("testem3.gdml", gdml_from(toml.detector));
    DeckConfig const gdml = read_deck_text(deck_with_gdml(path), k_toml, set);
    DetectorSetup const a = make_detector_setup(toml), b = make_detector_setup(gdml);
    REQUIRE(a.geometry.volumes.size() == b.geometry.volumes.size());
    bool same_tables = true;
    for (std::size_t i = 0; i < a.geometry.volumes.size(); ++i) {
        PlacedVolume const &u = a.geometry.volumes[i], &v = b.geometry.volumes[i];
        same_tables = same_tables && u.mother == v.mother && u.material == v.material &&
                      u.logical == v.logical && u.replica == v.replica && u.sensitive == v.sensitive &&
                      u.bvh_root == v.bvh_root;
        for (int k = 0; k < 9; ++k)
            same_tables = same_tables && same_bits(u.placement.r[k], v.placement.r[k]);
        for (int k = 0; k < 3; ++k)
            same_tables = same_tables && same_bits(u.placement.t[k], v.placement.t[k]) &&
                          same_bits(u.shape.box.half[k], v.shape.box.half[k]) &&
                          same_bits(u.lo[k], v.lo[k]) && same_bits(u.hi[k], v.hi[k]);
    }
    CHECK(same_tables);
    CHECK(a.material_names == b.material_names);
    DetectorRunResult const ra = run(toml), rb = run(gdml);
    REQUIRE(ra.tallies.size() == rb.tallies.size());
    for (std::size_t i = 0; i < ra.tallies.size(); ++i) CHECK(same_bits(ra.tallies[i], rb.tallies[i]));
    REQUIRE(ra.hits.size() == rb.hits.size());
    CHECK(ra.hits.size() > 1000);
    bool same = true;
    for (std::size_t i = 0; i < ra.hits.size(); ++i)
        same = same && same_bits(ra.hits[i].edep, rb.hits[i].edep) &&
               ra.hits[i].volume == rb.hits[i].volume && ra.hits[i].replica == rb.hits[i].replica &&
               same_bits(ra.hits[i].post.x, rb.hits[i].post.x);
    CHECK(same);
}

TEST_CASE("inputs/testem3_gdml.toml places TestEm3's volumes where inputs/testem3.toml does")
{
    std::vector<std::string> const set = {"run.backend=cpu", "gun.events=1"};
    DetectorSetup const a = make_detector_setup(read_deck(k_toml, set));
    DetectorSetup const b =
        make_detector_setup(read_deck(std::string(GTRACK_SOURCE_DIR) + "/inputs/testem3_gdml.toml", set));
    REQUIRE(a.geometry.volumes.size() == b.geometry.volumes.size());
    // the same volumes in the same order; positions from "mm" expressions differ by rounding only
    // (1e-15 m is a few ulp of 0.2 m)
    for (std::size_t i = 0; i < a.geometry.volumes.size(); ++i) {
        PlacedVolume const &u = a.geometry.volumes[i], &v = b.geometry.volumes[i];
        CHECK(a.geometry.logical_names[u.logical] == b.geometry.logical_names[v.logical]);
        CHECK(u.replica == v.replica);
        CHECK(a.material_names[u.material] == b.material_names[v.material]);
        CHECK(u.sensitive == v.sensitive);
        for (int k = 0; k < 3; ++k) {
            CHECK(std::fabs(u.placement.t[k] - v.placement.t[k]) < 1e-15);
            CHECK(std::fabs(u.shape.box.half[k] - v.shape.box.half[k]) < 1e-15);
        }
    }
}

TEST_CASE("gtrack check on a GDML deck: the volume tree, materials with density and X0, solids by type")
{
    DeckConfig const cfg =
        read_deck(std::string(GTRACK_SOURCE_DIR) + "/inputs/testem3_gdml.toml", {"gun.events=1"});
    std::size_t problems = 99;
    std::string const text = describe_geometry(cfg, &problems);
    INFO(text);
    CHECK(problems == 0);
    CHECK(text.find("GDML file:") != std::string::npos);
    CHECK(text.find("    world (box, vacuum)\n") != std::string::npos);
    CHECK(text.find("      calorimeter (box, vacuum)\n") != std::string::npos);
    CHECK(text.find("        layer (box, vacuum) x50\n") != std::string::npos);
    CHECK(text.find("          lead (box, lead), sensitive\n") != std::string::npos);
    // liquid argon at 1.390 g/cm3: X0 = 19.55 g/cm2 / 1.390 = 14.06 cm (PDG), 14.3 cm from the Dahl fit
    // gtrack's user materials take; lead (built-in, PDG) 6.37 g/cm2 / 11.35 = 0.5612 cm
    CHECK(text.find("liquidArgon") != std::string::npos);
    CHECK(text.find("X0 = 14.") != std::string::npos);
    CHECK(text.find("X0 = 0.56") != std::string::npos);
    CHECK(text.find("solids by type: box 5") != std::string::npos);
}
