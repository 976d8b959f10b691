// Moving blocks of a global order to the ranks that want them (parallel/Redistribution.hh), on one rank:
// each item lands at its global place whatever the order of the blocks, and blocks that do not cover the
// wanted range are an error. Over 2 and 3 ranks the ctests mpi_beam_detector* exercise it.
#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "parallel/Redistribution.hh"

using namespace gt;
using parallel::Block;

TEST_CASE("redistribute puts every record at its place in the global order")
{
    // Two records of two values: items 3 and 4 first (an extracted block), then items 0 to 2 (lost).
    Block const blocks[2] = {{3, 2}, {0, 3}};
    std::vector<double> const records = {30, 31, 40, 41, 0, 1, 10, 11, 20, 21};
    std::vector<double> const all = parallel::redistribute(blocks, records, 2, {0, 5});
    CHECK(all == std::vector<double>{0, 1, 10, 11, 20, 21, 30, 31, 40, 41});
    // Empty blocks and an empty range.
    Block const none[2] = {{0, 0}, {0, 0}};
    CHECK(parallel::redistribute(none, {}, 9, {0, 0}).empty());
}

TEST_CASE("redistribute refuses blocks that do not cover what is wanted")
{
    Block const blocks[1] = {{0, 2}};
    std::vector<double> const records = {1, 2};
    CHECK_THROWS_AS(parallel::redistribute(blocks, records, 1, {0, 3}), std::logic_error);
    CHECK_THROWS_AS(parallel::redistribute(blocks, records, 2, {0, 2}),
                    std::logic_error);  // 2 values, 2 items
}
