// Profile solenoids and cavities in decks: the keys and their errors, and the example linac decks
// run as a user runs them.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "CommandTestSupport.hh"
#include "DeckTestSupport.hh"
#include "IoTestSupport.hh"
#include "TextTestSupport.hh"

using namespace gt;
using namespace gt::test;

namespace {

std::string deck_with(std::string const& elements)
{
    return deck_text(TestDeck{.elements = elements, .line = R"(["E"])"});
}

//! The lattice-building error for `elements` in a deck beside profile.txt ("" when it builds).
std::string error_of(std::string const& elements, std::string const& profile_text)
{
    TempDir dir;
    std::ofstream(dir.file("profile.txt")) << profile_text;
    return lattice_error(deck_with(elements), dir.file("deck.toml"));
}

std::string const k_bz = "# z [m] Bz [T]\n-0.1 0\n-0.05 0.5\n0 1\n0.05 0.5\n0.1 0\n";

}  // namespace

TEST_CASE("profile keys: a profile solenoid builds; conflicting or missing keys are named")
{
    CHECK(error_of(R"(E = { type = "solenoid", profile = "profile.txt", amplitude = "2 T" })", k_bz) == "");
    CHECK(contains(error_of(R"(E = { type = "solenoid", profile = "profile.txt", length = 0.2 })", k_bz),
                   "elements.E.length: not used with a profile"));
    CHECK(contains(error_of(R"(E = { type = "solenoid", profile = "profile.txt", ks = 1.0 })", k_bz),
                   "elements.E.ks: not used with a profile"));
    CHECK(contains(
        error_of(R"(E = { type = "solenoid", profile = "profile.txt", scale = 2, amplitude = "1 T" })", k_bz),
        "give either scale or amplitude"));
    CHECK(contains(error_of(R"(E = { type = "solenoid", length = 0.2 })", k_bz), "elements.E.ks: missing"));
    CHECK(contains(error_of(R"(E = { type = "solenoid", length = 0.2, ks = 1.0, scale = 2.0 })", k_bz),
                   "only used with profile"));
    CHECK(contains(error_of(R"(E = { type = "rfcavity", profile = "profile.txt" })", k_bz),
                   "needs 'frequency'"));
    // The cavity needs an Ez file: the error names the profile file and its header line.
    std::string const wrong =
        error_of(R"(E = { type = "rfcavity", profile = "profile.txt", frequency = "352 MHz" })", k_bz);
    CHECK(contains(wrong, "profile.txt:1:"));
    CHECK(contains(wrong, "this element needs Ez"));
    CHECK(contains(error_of(R"(E = { type = "solenoid", profile = "missing.txt" })", k_bz),
                   "cannot open the profile file"));
    CHECK(contains(error_of(R"(E = { type = "solenoid", profile = "profile.txt", amplitude = "1 T" })",
                            "# z [m] Bz [T]\n0 0\n1 0\n2 0\n3 0\n"),
                   "elements.E.amplitude: the profile is zero everywhere"));
}

TEST_CASE("the example linac decks run on the CPU as a user runs them")
{
    TempDir dir;
    for (char const* name : {"photoinjector", "ion_linac", "photoinjector_cathode"}) {
        INFO(name);
        std::string const out = dir.file(std::string(name) + ".h5");
        CommandResult const check =
            run_gtrack(std::string("check ") + GTRACK_SOURCE_DIR + "/inputs/" + name + ".toml");
        CHECK(check.status == 0);
        CHECK(contains(check.output, "field map (axis)"));
        CommandResult const run = run_gtrack(
            std::string("run ") + GTRACK_SOURCE_DIR + "/inputs/" + name +
            ".toml --threads 1 --set beam.macroparticles=500 --set 'space_charge.grid=[16,16,16]' --output " +
            out);
        CHECK(run.status == 0);
        CHECK(contains(run.output, "alive 500 of 500"));
    }
}

TEST_CASE("validate on the CPU: the example linac decks agree bit for bit between two CPU backends")
{
    // Space charge included: the deposition is deterministic.
    for (char const* name : {"photoinjector", "ion_linac"}) {
        INFO(name);
        ValidationResult const r = check_cpu_backends_agree(
            read_deck(std::string(GTRACK_SOURCE_DIR) + "/inputs/" + name + ".toml",
                      {"beam.macroparticles=300", "space_charge.grid=[16, 16, 16]"}));
        CHECK(r.stages.size() > 10);
    }
}
