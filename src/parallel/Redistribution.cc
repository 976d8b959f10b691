// Moving blocks of a global order to the ranks that want them (parallel/Redistribution.hh).
#include "parallel/Redistribution.hh"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "parallel/Communicator.hh"

namespace gt::parallel {
namespace {

//! The part of `b` in [first, first + count), as a block (count 0 when they do not meet).
Block overlap(Block b, ParticleShare range)
{
    std::uint64_t const begin = std::max(b.first, range.first);
    std::uint64_t const end = std::min(b.first + b.count, range.first + range.count);
    return end > begin ? Block{begin, end - begin} : Block{begin, 0};
}

//! Items of `blocks` (one rank's) inside `range`.
std::uint64_t items_inside(std::span<Block const> blocks, ParticleShare range)
{
    std::uint64_t n = 0;
    for (Block const& b : blocks) n += overlap(b, range).count;
    return n;
}

}  // namespace

std::vector<double> redistribute(std::span<Block const> blocks, std::span<double const> records,
                                 std::size_t width, ParticleShare wanted)
{
    Communicator const& w = Communicator::world();
    std::size_t const ranks = std::size_t(w.size());
    std::uint64_t held = 0;
    for (Block const& b : blocks) held += b.count;
    if (records.size() != held * width)
        throw std::logic_error(
            fmt::format("redistribute: {} records of {} values for {} items", records.size(), width, held));
    // Every rank's blocks and wanted range.
    std::uint64_t const n_blocks = blocks.size();
    std::vector<std::uint64_t> const block_counts =
        w.all_gather(std::span<std::uint64_t const>(&n_blocks, 1));
    std::vector<std::uint64_t> flat;
    for (Block const& b : blocks) flat.insert(flat.end(), {b.first, b.count});
    std::vector<std::uint64_t> const all_flat = w.all_gather(std::span<std::uint64_t const>(flat));
    std::uint64_t const want[2] = {wanted.first, wanted.count};
    std::vector<std::uint64_t> const all_wanted = w.all_gather(std::span<std::uint64_t const>(want, 2));
    std::vector<std::vector<Block>> rank_blocks(ranks);
    std::vector<ParticleShare> rank_wanted(ranks);
    std::uint64_t total_held = 0, total_wanted = 0;
    for (std::size_t r = 0, k = 0; r < ranks; ++r) {
        for (std::uint64_t i = 0; i < block_counts[r]; ++i, k += 2) {
            rank_blocks[r].push_back(Block{all_flat[k], all_flat[k + 1]});
            total_held += all_flat[k + 1];
        }
        rank_wanted[r] = ParticleShare{all_wanted[2 * r], all_wanted[2 * r + 1]};
        total_wanted += rank_wanted[r].count;
    }
    if (total_held != total_wanted)
        throw std::logic_error(
            fmt::format("redistribute: the ranks hold {} items and want {}", total_held, total_wanted));

    // Copies the records of this rank's blocks inside `range` (in block order) to `to`.
    auto const pack = [&](ParticleShare range, auto&& to) {
        std::uint64_t at = 0;
        for (Block const& b : blocks) {
            Block const o = overlap(b, range);
            if (o.count > 0) to(o, records.subspan((at + o.first - b.first) * width, o.count * width));
            at += b.count;
        }
    };
    std::vector<double> mine(wanted.count * width);
    std::uint64_t placed = 0;
    auto const place = [&](Block o, std::span<double const> values) {
        std::copy(values.begin(), values.end(),
                  mine.begin() + std::ptrdiff_t((o.first - wanted.first) * width));
        placed += o.count;
    };
    int const me = w.rank();
    for (std::size_t d = 0; d < ranks; ++d) {
        if (int(d) != me) {
            std::vector<double> out;
            pack(rank_wanted[d],
                 [&](Block, std::span<double const> v) { out.insert(out.end(), v.begin(), v.end()); });
            if (!out.empty()) w.send(int(d), std::span<double const>(out));
            continue;
        }
        for (std::size_t s = 0; s < ranks; ++s) {
            if (int(s) == me) {
                pack(wanted, place);
                continue;
            }
            std::uint64_t const n = items_inside(rank_blocks[s], wanted);
            if (n == 0) continue;
            std::vector<double> const in = w.receive_doubles(int(s));
            if (in.size() != n * width)
                throw std::logic_error(
                    fmt::format("redistribute: rank {} sent {} values, not {}", s, in.size(), n * width));
            std::size_t at = 0;
            for (Block const& b : rank_blocks[s]) {
                Block const o = overlap(b, wanted);
                if (o.count == 0) continue;
                place(o, std::span<double const>(in).subspan(at, o.count * width));
                at += o.count * width;
            }
        }
    }
    if (placed != wanted.count)
        throw std::logic_error(
            fmt::format("redistribute: {} of the {} wanted items came", placed, wanted.count));
    return mine;
}

}  // namespace gt::parallel
