// field_map elements in decks: the keys and their errors, and the example deck run, checked and
// validated as a user runs it.
#include <doctest/doctest.h>

#include <string>

#include "CommandTestSupport.hh"
#include "DeckTestSupport.hh"
#include "FieldMap3DTestSupport.hh"
#include "IoTestSupport.hh"
#include "Relative.hh"
#include "TextTestSupport.hh"

using namespace gt;
using namespace gt::test;

namespace {

std::string deck_with(std::string const& elements)
{
    return deck_text(TestDeck{.kinetic_energy = "10 MeV", .elements = elements, .line = R"(["E", "E"])"});
}

//! The lattice-building error for `elements` in a deck beside map.h5 (a quadrupole map): "" when
//! it builds, and then `lattice` holds the table.
std::string error_of(std::string const& elements, Lattice* lattice = nullptr)
{
    TempDir dir;
    write_map_file(dir.file("map.h5"),
                   sampled_map({5, 5, 5}, {-0.02, -0.02, 0.0}, {0.01, 0.01, 0.05}, {},
                               [](double x, double y, double) { return std::array<double, 3>{2.0 * y, 2.0 * x, 0.0}; }));
    return lattice_error(deck_with(elements), dir.file("deck.toml"), lattice);
}

}  // namespace

TEST_CASE("field_map keys: a map builds, shares its grid between occurrences; errors name the key")
{
    Lattice lattice;
    CHECK(error_of(R"(E = { type = "field_map", file = "map.h5", length = 0.2, slices = 2 })", &lattice) == "");
    REQUIRE(lattice.elements.size() == 4);
    CHECK(lattice.elements[0].kind == ElementKind::field_map_3d);
    CHECK(lattice.elements[0].field_map_3d.steps == 2);  // one per map interval (5 cm) per 10 cm slice
    CHECK(lattice.elements[0].field_map_3d.grid.layout == k_default_field_layout);
    CHECK(lattice.elements[2].field_map_3d.grid.offset == lattice.elements[0].field_map_3d.grid.offset);
    CHECK(lattice.field_data->size() == 125 * 3);
    CHECK(lattice.length == test::relative(0.4, 1e-12));

    CHECK(error_of(R"(E = { type = "field_map", file = "map.h5", length = 0.2, layout = "planar", b_scale = -1 })",
                   &lattice) == "");
    CHECK(lattice.elements[0].field_map_3d.grid.layout == FieldLayout::planar);

    CHECK(contains(error_of(R"(E = { type = "field_map", length = 0.2 })"), "elements.E.file: missing"));
    CHECK(contains(error_of(R"(E = { type = "field_map", file = "map.h5" })"), "needs 'length'"));
    CHECK(contains(error_of(R"(E = { type = "field_map", file = "map.h5", length = 0.2, layout = "planer" })"),
                   "planar"));
    std::string const missing = error_of(R"(E = { type = "field_map", file = "other.h5", length = 0.2 })");
    CHECK(contains(missing, "deck.toml:"));
    CHECK(contains(missing, "elements.E.file: field map '"));
    CHECK(contains(missing, "other.h5"));
    // A map that reflects the reference: a 10 MeV proton against a 100 MV/m retarding static field.
    std::string const reflected = [] {
        TempDir dir;
        write_map_file(dir.file("map.h5"),
                       sampled_map({2, 2, 2}, {-0.1, -0.1, 0.0}, {0.2, 0.2, 0.2},
                                   [](double, double, double) { return std::array<double, 3>{0.0, 0.0, -1e8}; }, {}));
        return lattice_error(deck_with(R"(E = { type = "field_map", file = "map.h5", length = 0.2 })"),
                             dir.file("deck.toml"));
    }();
    CHECK(contains(reflected, "elements.E: the reference particle is reflected"));
}

TEST_CASE("the 3D field-map example deck: check, run, and validate on two CPU backends")
{
    TempDir dir;
    std::string const deck_path = std::string(GTRACK_SOURCE_DIR) + "/inputs/fieldmap3d_linac.toml";
    CommandResult const check = run_gtrack("check " + deck_path);
    CHECK(check.status == 0);
    CHECK(contains(check.output, "field map (3D)"));
    CommandResult const run = run_gtrack("run " + deck_path + " --threads 1 --set beam.macroparticles=500 --output " +
                                         dir.file("out.h5"));
    CHECK(run.status == 0);
    CHECK(contains(run.output, "alive 500 of 500"));
    check_cpu_backends_agree(read_deck(deck_path, {"beam.macroparticles=300"}));
}
