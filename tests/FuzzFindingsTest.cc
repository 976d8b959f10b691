// Every input with which fuzzing (fuzz/, scripts/fuzz.sh, docs/fuzzing.md) made gtrack crash, hang or
// trip a sanitizer, fed to the same entry point: each must now end in the documented error.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "TextTestSupport.hh"
#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"
#include "deck/Utf8.hh"

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

}  // namespace

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
