// "Did you mean": edit distance and the closeness rule.
#include <doctest/doctest.h>

#include "deck/Suggest.hh"

using namespace gt;

TEST_CASE("edit distance counts insertions, deletions, substitutions and transpositions")
{
    CHECK(edit_distance("length", "length") == 0);
    CHECK(edit_distance("lenght", "length") == 1);  // transposition
    CHECK(edit_distance("lengt", "length") == 1);
    CHECK(edit_distance("k", "k1") == 1);
    CHECK(edit_distance("kitten", "sitting") == 3);
    CHECK(edit_distance("QF", "qf") == 0);  // case-insensitive
}

TEST_CASE("closest_name suggests near names only")
{
    std::vector<std::string> const keys = {"length", "k1", "model", "kicks"};
    CHECK(closest_name("lenght", keys) == "length");
    CHECK(closest_name("kiks", keys) == "kicks");
    CHECK(!closest_name("frequency", keys));
    CHECK(!closest_name("xy", {"k1"}));                              // short words: one edit at most
    CHECK(closest_name("gauss", {"gaussian", "kv"}) == "gaussian");  // a prefix
    CHECK(did_you_mean("modle", keys) == " (did you mean 'model'?)");
    CHECK(did_you_mean("zzzzzz", keys).empty());
}
