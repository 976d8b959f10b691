// Every input with which fuzzing (fuzz/, scripts/fuzz.sh, docs/fuzzing.md) made gtrack crash, hang or
// trip a sanitizer, fed to the same entry point: each must now end in the documented error.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include <hdf5.h>

#include "IoTestSupport.hh"
#include "TextTestSupport.hh"
#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"
#include "deck/Utf8.hh"
#include "detector/DetectorSetup.hh"
#include "io/H5Access.hh"
#include "io/H5Handle.hh"
#include "io/OpenPmdWriter.hh"

using namespace gt;
using gt::test::contains;

namespace {

std::string example_deck(std::string const& name)
{
    std::ifstream in(std::string(GTRACK_SOURCE_DIR) + "/inputs/" + name);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

//! An openPMD beam file of 3 helium ions whose record momentum/x is a constant record of `shape`.
void write_beam_with_constant_px(std::string const& path, std::vector<std::uint64_t> const& shape)
{
    h5::File file(h5::check_path(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), "H5Fcreate", path));
    h5::write_attribute(file, "openPMD", "1.1.0");
    h5::write_attribute(file, "particlesPath", "particles/");
    h5::Group sp = h5::create_groups(file, "/data/0/particles/ion");
    std::vector<double> const values = {1e-3, -2e-3, 3e-3};
    std::vector<std::uint64_t> const ids = {1, 2, 3};
    for (char const* name : {"position/x", "position/y", "position/t", "momentum/y", "momentum/t"}) {
        std::string const n = name;
        h5::Group parent = h5::create_groups(sp, n.substr(0, n.find('/')));
        h5::write_dataset(parent, n.substr(n.find('/') + 1), std::span<double const>(values));
    }
    h5::write_dataset(sp, "weighting", std::span<double const>(values));
    h5::Group px = h5::create_groups(sp, "momentum/x");
    h5::write_attribute(px, "value", 0.0);
    h5::write_attribute(px, "shape", std::span<std::uint64_t const>(shape));
    h5::write_dataset(sp, "id", std::span<std::uint64_t const>(ids));
    h5::write_attribute(sp, "mass_ref_MeV", 3727.3794118);
    h5::write_attribute(sp, "charge_number_ref", 2.0);
    h5::write_attribute(sp, "kinetic_energy_ref_MeV", 400.0);
    file.close("H5Fclose", path);
}

}  // namespace

TEST_CASE("fuzz finding: a constant record's shape is checked against the ids before it is expanded")
{
    // BeamFileFuzz: momentum/x stored as a constant record with shape [2^63, 4] made read_phase_space
    // build a vector of 2^65 (wrapped) values: std::length_error, or an allocation of any size the file
    // asked for.
    gt::test::TempDir dir;
    std::string const path = dir.file("beam.h5");
    for (auto const& shape : std::vector<std::vector<std::uint64_t>>{{1ull << 63, 4}, {1ull << 40}, {4}, {}}) {
        write_beam_with_constant_px(path, shape);
        CAPTURE(shape.size());
        try {
            (void)read_phase_space(path);
            FAIL("accepted a constant record whose shape is not the particle count");
        } catch (IoError const& e) {
            CHECK(contains(e.what(), "constant record 'momentum/x'"));
            CHECK(contains(e.what(), "but the particle count of 'id' is 3"));
        }
    }
    // The shape that matches is read, every value the constant.
    write_beam_with_constant_px(path, {3});
    PhaseSpaceFile const f = read_phase_space(path);
    CHECK(f.beam.px == std::vector<double>{0.0, 0.0, 0.0});
    CHECK(f.beam.x == std::vector<double>{1e-3, -2e-3, 3e-3});
}

TEST_CASE("field map finding: a shape whose node count wraps around is refused, not read out of bounds")
{
    // Found while writing FieldMapFuzz (the fuzzer did not reach it in 84 872 inputs): shape
    // [2^63 + 1, 2, 2] has (2^63 + 1) * 4 = 4 nodes modulo 2^64, so 12 values of B passed the size
    // check, and the node count, cast to int, became 1: the interpolation then read B[-3...].
    gt::test::TempDir dir;
    FieldConfig cfg;
    cfg.type = "map";
    cfg.format = "cartesian";
    cfg.file = dir.file("map.h5");
    auto const write = [&](std::vector<std::uint64_t> const& shape) {
        h5::File file(h5::check_path(H5Fcreate(cfg.file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
                                     "H5Fcreate", cfg.file));
        std::vector<double> const b(12, 0.5);
        h5::write_dataset(file, "B", std::span<double const>(b));
        h5::Object obj = h5::open_object(file, "B");
        h5::write_attribute(obj, "shape", std::span<std::uint64_t const>(shape));
        std::vector<double> const spacing = {0.01, 0.01, 0.01}, lower = {0, 0, 0};
        h5::write_attribute(obj, "spacing", std::span<double const>(spacing));
        h5::write_attribute(obj, "lower", std::span<double const>(lower));
        file.close("H5Fclose", cfg.file);
    };
    MagneticField field;
    std::vector<double> values;
    write({(1ull << 63) + 1, 2, 2});
    CHECK_THROWS_WITH_AS(read_field_map(cfg, field, values), doctest::Contains("more nodes than a map can hold"),
                         std::invalid_argument);
    write({(1ull << 32) + 2, 2, 2});  // fits 64 bits, but not the device's int node count
    CHECK_THROWS_WITH_AS(read_field_map(cfg, field, values), doctest::Contains("more nodes than a map can hold"),
                         std::invalid_argument);
    write({2, 2, 1});
    CHECK_THROWS_WITH_AS(read_field_map(cfg, field, values), doctest::Contains("at least 2 nodes"),
                         std::invalid_argument);
    write({2, 2, 2});  // 8 nodes x 3 components: 24 values, B has 12
    CHECK_THROWS_WITH_AS(read_field_map(cfg, field, values), doctest::Contains("B holds 12 values"),
                         std::invalid_argument);
}

TEST_CASE("fuzz finding: a --set override that is not UTF-8 is a deck error, not a TOML exception")
{
    // DeckOverrideFuzz: an override with 0xff bytes in its key and value threw toml::parse_error out of
    // read_deck_text (std::terminate in gtrack).
    std::string const bad = "beam.bunch_\xff\xff.bunch_\xff\xff=2\xff";
    try {
        (void)read_deck_text(example_deck("fodo.toml"), "fodo.toml", {bad});
        FAIL("accepted an override that is not UTF-8");
    } catch (DeckError const& e) {
        CHECK(contains(e.what(), "not valid UTF-8"));
        CHECK(contains(e.what(), "--set"));
    }
    // A valid multi-byte override still works.
    DeckConfig const ok = read_deck_text(example_deck("fodo.toml"), "fodo.toml", {"run.name=f\xc2\xb5" "do"});
    CHECK(ok.run.name == "f\xc2\xb5" "do");
}

TEST_CASE("fuzz finding: control characters in a --set value are escaped, not handed raw to TOML")
{
    // DeckOverrideFuzz: a value with U+0005 and U+0000 in it, which is not TOML and so is taken as a
    // string, threw toml::parse_error ("unescaped control characters ... prohibited").
    std::string const bad = std::string("elements.QF.k1=\x05") + '\0' + "x=1.3";
    try {
        (void)read_deck_text(example_deck("fodo.toml"), "fodo.toml", {bad});
        FAIL("accepted a string for a quadrupole's k1");
    } catch (DeckError const& e) {
        CHECK(contains(e.what(), "elements.QF.k1"));
    }
    // As a string key's value the escaped characters arrive intact.
    DeckConfig const ok = read_deck_text(example_deck("fodo.toml"), "fodo.toml", {"run.name=a\x01\x7f" "b"});
    CHECK(ok.run.name == "a\x01\x7f" "b");
}

TEST_CASE("is_valid_utf8: RFC 3629's well-formed sequences only")
{
    CHECK(is_valid_utf8(""));
    CHECK(is_valid_utf8("ascii = 1"));
    CHECK(is_valid_utf8("\xc2\xb5"));          // U+00B5
    CHECK(is_valid_utf8("\xe2\x82\xac"));      // U+20AC
    CHECK(is_valid_utf8("\xf0\x9f\x98\x80"));  // U+1F600
    CHECK(!is_valid_utf8("\xff"));
    CHECK(!is_valid_utf8("\xc2"));              // truncated
    CHECK(!is_valid_utf8("\xe2\x82"));          // truncated
    CHECK(!is_valid_utf8("\xc0\xaf"));          // overlong '/'
    CHECK(!is_valid_utf8("\xe0\x80\xaf"));      // overlong
    CHECK(!is_valid_utf8("\xed\xa0\x80"));      // surrogate U+D800
    CHECK(!is_valid_utf8("\xf4\x90\x80\x80"));  // U+110000
    CHECK(!is_valid_utf8("\x80"));              // lone continuation byte
}
