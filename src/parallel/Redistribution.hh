// Items of one global order spread over the ranks in blocks, moved so that each rank holds a wanted
// contiguous range of that order (the lost and extracted particles of a beamline, which become the
// events of its detector: run/BeamPrimaries.hh). Only the items that change rank travel, each once,
// point to point: no rank gathers the whole list.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "parallel/ParticleDecomposition.hh"

namespace gt::parallel {

//! Items [first, first + count) of the global order.
struct Block {
    std::uint64_t first = 0;
    std::uint64_t count = 0;
};

//! Collective: every rank holds the items of its `blocks` (in the global order, not overlapping any
//! other rank's), their records of `width` doubles one after the other in `records`; returns the records
//! of this rank's `wanted` range, in order. The blocks of all ranks must cover the wanted ranges of all
//! ranks exactly (std::logic_error otherwise). In rounds, one per receiving rank: in round d every other
//! rank sends rank d what it holds of d's range (one message, when not empty) and d receives them in
//! rank order, so the exchange cannot deadlock; a rank's own items are copied.
std::vector<double> redistribute(std::span<Block const> blocks, std::span<double const> records,
                                 std::size_t width, ParticleShare wanted);

}  // namespace gt::parallel
