// Key paths that name a [[geometry.volume]] entry by its name (geometry.volume.NAME.KEY) in --set, --unset
// and [scan]: the value reaches that volume and is checked as in the file; an unknown name is a located
// error with a suggestion. Read through read_deck on inputs/absorber_scan.toml.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "Relative.hh"
#include "TextTestSupport.hh"
#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"
#include "deck/UnsetOverride.hh"

using namespace gt;
using gt::test::contains;

namespace {

std::string const k_deck = GTRACK_SOURCE_DIR "/inputs/absorber_scan.toml";
std::string const k_tracker = GTRACK_SOURCE_DIR "/inputs/tracker.toml";

std::vector<Diagnostic> errors_of(std::string const& deck, std::vector<std::string> const& overrides,
                                  std::optional<std::uint64_t> index = std::nullopt)
{
    try {
        read_deck(deck, overrides, index);
    } catch (DeckError const& e) {
        return e.diagnostics();
    }
    return {};
}

std::string read_text(std::string const& path)
{
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

VolumeConfig const& volume(DeckConfig const& cfg, std::string const& name)
{
    for (auto const& v : cfg.detector.volumes)
        if (v.name == name) return v;
    FAIL("no volume " << name);
    return cfg.detector.world;
}

}  // namespace

TEST_CASE("--set and --unset reach a volume by its name")
{
    std::vector<std::string> const no_scan = {unset_override("scan"), unset_override("output.file")};
    auto overrides = no_scan;
    overrides.push_back("geometry.volume.absorber.half_size=[\"1.5 mm\", \"10 cm\", \"10 cm\"]");
    overrides.push_back("geometry.volume.gap.material=silicon");
    DeckConfig cfg = read_deck(k_deck, overrides);
    CHECK(volume(cfg, "absorber").half_size[0] == test::relative(1.5e-3, 1e-15));
    CHECK(volume(cfg, "gap").material == "silicon");
    CHECK(volume(cfg, "layer").half_size[0] == test::relative(5e-3, 1e-15));  // untouched

    // A key the volume does not have yet is added; --unset takes a key or the whole volume out.
    overrides = no_scan;
    overrides.push_back("geometry.volume.gap.rotation=[0, 0, \"90 deg\"]");
    cfg = read_deck(k_deck, overrides);
    CHECK(volume(cfg, "gap").rotation[2] == doctest::Approx(3.14159265358979 / 2));
    overrides.push_back(unset_override("geometry.volume.gap.rotation"));
    CHECK(volume(read_deck(k_deck, overrides), "gap").rotation[2] == 0.0);
    overrides = no_scan;
    overrides.push_back(unset_override("geometry.volume.absorber"));
    cfg = read_deck(k_deck, overrides);
    CHECK(cfg.detector.volumes.size() == 2);
}

TEST_CASE("a volume's keys are checked as in the file; unknown names are located errors")
{
    std::vector<std::string> const no_scan = {unset_override("scan"), unset_override("output.file")};
    auto with = [&](std::string const& o) {
        auto v = no_scan;
        v.push_back(o);
        return v;
    };
    auto ds = errors_of(k_deck, with("geometry.volume.absorber.half_size=[\"1 mrad\", \"1 cm\", \"1 cm\"]"));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].where.file == "--set geometry.volume.absorber.half_size=[\"1 mrad\", \"1 cm\", \"1 cm\"]");
    CHECK(contains(ds[0].message, "expected a length"));

    ds = errors_of(k_deck, with("geometry.volume.absorber.thickness=2"));
    REQUIRE(ds.size() == 1);
    CHECK(contains(ds[0].message, "unknown key 'thickness'"));

    ds = errors_of(k_deck, with("geometry.volume.absorbr.half_size=[1, 1, 1]"));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].key == "geometry.volume.absorbr.half_size");
    CHECK(ds[0].message ==
          "cannot set 'geometry.volume.absorbr.half_size': [[geometry.volume]] has no entry named 'absorbr' "
          "(did you mean 'absorber'?)");

    ds = errors_of(k_deck, with("geometry.volume.absorber=1"));
    REQUIRE(ds.size() == 1);
    CHECK(contains(ds[0].message, "name a key of the entry, e.g. geometry.volume.absorber.KEY"));

    ds = errors_of(k_deck, with(unset_override("geometry.volume.gapp")));
    REQUIRE(ds.size() == 1);
    CHECK(contains(ds[0].message, "has no entry named 'gapp' (did you mean 'gap'?)"));
}

TEST_CASE("[scan] names a volume's key: each point reads its own thickness, every value checked")
{
    DeckConfig const base = read_deck(k_deck);
    REQUIRE(base.scan.size() == 3);
    CHECK(base.scan.parameters[0].key == "geometry.volume.absorber.half_size");
    double const half[] = {0.5e-3, 1e-3, 2e-3};
    for (std::uint64_t i = 0; i < 3; ++i) {
        DeckConfig const cfg = read_deck(k_deck, {}, i);
        CHECK(volume(cfg, "absorber").half_size[0] == test::relative(half[i], 1e-15));
        CHECK(cfg.output.file == "absorber_scan_" + std::to_string(i) + ".h5");
    }

    // A bad value of one point is an error at that value; an unknown volume, or a whole volume, at the key.
    std::string const text = read_text(k_deck);
    std::string const before_scan = text.substr(0, text.find("[scan]"));
    auto scan_errors = [&](std::string const& scan) {
        try {
            read_deck_text(before_scan + "[scan]\n" + scan + "\n[output]\nfile = \"s{index}.h5\"\n",
                           "s.toml");
        } catch (DeckError const& e) {
            return e.diagnostics();
        }
        return std::vector<Diagnostic>{};
    };
    auto ds = scan_errors("\"geometry.volume.absorber.half_size\" = [[1, 1, 1], [1, 1, \"1 T\"]]");
    REQUIRE(!ds.empty());
    CHECK(contains(ds[0].message, "expected a length"));
    ds = scan_errors("\"geometry.volume.lead.half_size\" = [[1, 1, 1]]");
    REQUIRE(ds.size() == 1);
    CHECK(contains(ds[0].message,
                   "unknown key path 'geometry.volume.lead.half_size': [[geometry.volume]] has "
                   "no entry named 'lead'"));
    ds = scan_errors("\"geometry.volume.gap\" = [1, 2]");
    REQUIRE(ds.size() == 1);
    CHECK(contains(ds[0].message, "is a whole entry of [[geometry.volume]]"));
}
