// The strip volumes' owners under MPI (run/StripRanks.hh): contiguous ranges in rank order, balanced by
// the volumes' steps; the run itself is compared with one process by tests/mpi (mpi_strips_*).
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "run/StripRanks.hh"

using namespace gt;

TEST_CASE("strip volumes go to the ranks in contiguous ranges balanced by their steps")
{
    // equal volumes: 8 over 2 ranks, 4 each; over 3 ranks the midpoints fall at 1/16, 3/16, ... of the
    // steps: ranks 0, 0, 0, 1, 1, 2, 2, 2
    std::vector<std::uint64_t> const equal(8, 100);
    CHECK(strip_volume_owners(equal, 1) == std::vector<int>(8, 0));
    CHECK(strip_volume_owners(equal, 2) == std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1});
    CHECK(strip_volume_owners(equal, 3) == std::vector<int>{0, 0, 0, 1, 1, 2, 2, 2});
    // a heavy first volume takes a rank of its own
    CHECK(strip_volume_owners({700, 100, 100, 100}, 2) == std::vector<int>{0, 1, 1, 1});
    // more ranks than volumes: the middle rank holds none (tests/data/strips_two_stations.toml)
    CHECK(strip_volume_owners({500, 480}, 3) == std::vector<int>{0, 2});
    CHECK(strip_volume_owners({1, 1}, 8) == std::vector<int>{2, 6});
    // no steps at all: rank 0; volumes without steps keep the order
    CHECK(strip_volume_owners({0, 0, 0}, 4) == std::vector<int>{0, 0, 0});
    CHECK(strip_volume_owners({0, 10, 0, 10, 0}, 2) == std::vector<int>{0, 0, 1, 1, 1});
}
