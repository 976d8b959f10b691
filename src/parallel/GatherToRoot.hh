// Per-item results spread over ranks, joined on rank 0: each rank's values in rank order, as the one
// process of a run without MPI holds them (a ring study's survival turns and tunes, src/study/). The
// whole array ends on rank 0 only; the others get an empty one.
#pragma once

#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "parallel/Communicator.hh"

namespace gt::parallel {

//! Collective: the concatenation of every rank's `mine` in rank order on rank 0 (empty elsewhere).
template <class T>
std::vector<T> gather_to_root(std::vector<T> const& mine)
{
    static_assert(std::is_same_v<T, double> || std::is_same_v<T, std::int64_t>, "doubles or int64s");
    Communicator const& world = Communicator::world();
    if (world.size() == 1) return mine;
    if (!world.is_root()) {
        world.send(0, std::span<T const>(mine));
        return {};
    }
    std::vector<T> all = mine;
    for (int r = 1; r < world.size(); ++r) {
        std::vector<T> part;
        if constexpr (std::is_same_v<T, double>)
            part = world.receive_doubles(r);
        else
            part = world.receive_int64s(r);
        all.insert(all.end(), part.begin(), part.end());
    }
    return all;
}

}  // namespace gt::parallel
