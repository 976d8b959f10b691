// MPI particle decomposition: shares that tile the beam on reduction-chunk boundaries, and the
// property that makes statistics independent of the rank count: the chunk partials of the shares,
// folded in rank order, combine to the same bits as one process's reduction.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "kernels/cpu/Executor.hh"
#include "parallel/ParticleDecomposition.hh"

using namespace gt;
using parallel::ParticleShare;

TEST_CASE("particle shares tile the beam on chunk boundaries, within one chunk of each other")
{
    for (std::uint64_t total : {0ull, 1ull, 2047ull, 2048ull, 2049ull, 7000ull, 100000ull, 12345678ull}) {
        for (int ranks = 1; ranks <= 9; ++ranks) {
            std::uint64_t next = 0, smallest = total, largest = 0;
            for (int r = 0; r < ranks; ++r) {
                ParticleShare const s = parallel::particle_share(total, r, ranks);
                CHECK(s.first == next);
                if (s.count > 0 && s.first < total) CHECK(s.first % reduce::k_chunk == 0);
                next = s.first + s.count;
                smallest = std::min(smallest, s.count);
                largest = std::max(largest, s.count);
            }
            CHECK(next == total);
            // Whole chunks are dealt out evenly; only the last, partial chunk can make it uneven.
            CHECK(largest - smallest <= reduce::k_chunk);
        }
    }
}

TEST_CASE("events are dealt out contiguously, within one of each other")
{
    for (std::uint64_t total : {0ull, 1ull, 5ull, 20ull, 1000003ull}) {
        for (int ranks = 1; ranks <= 7; ++ranks) {
            std::uint64_t next = 0;
            for (int r = 0; r < ranks; ++r) {
                ParticleShare const s = parallel::even_share(total, r, ranks);
                CHECK(s.first == next);
                CHECK(s.count >= total / std::uint64_t(ranks));
                CHECK(s.count <= total / std::uint64_t(ranks) + 1);
                next += s.count;
            }
            CHECK(next == total);
        }
    }
}

namespace {
//! Item i's values (x_i, x_i^2) for x_i spread over 12 decades, so that the summation order shows.
struct Terms {
    double const* x;
    std::uint64_t first;
    void operator()(size_type i, double* v) const
    {
        v[0] = x[first + i];
        v[1] = x[first + i] * x[first + i];
    }
};

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
}  // namespace

TEST_CASE("shares' chunk partials folded in rank order reduce to the one-process bits")
{
    // What CrossRank::fold_in_rank_order does over MPI: each rank folds its own partials into what the
    // rank before it ended with.
    using R = reduce::Each<2, reduce::Sum>;
    std::uint64_t const n = 23456;  // 12 chunks, the last one partial
    std::vector<double> x(n);
    for (std::uint64_t i = 0; i < n; ++i)
        x[i] = std::pow(10.0, double(i % 13) - 6.0) * (1.0 + 1e-3 * double(i % 977)) * (i % 2 ? -1.0 : 1.0);
    auto const whole = cpu::reduce<2, reduce::Sum>(n, Terms{x.data(), 0});
    for (int ranks = 1; ranks <= 13; ++ranks) {
        double running[2];
        R::identity(running);
        for (int r = 0; r < ranks; ++r) {
            ParticleShare const s = parallel::particle_share(n, r, ranks);
            auto const part = cpu::reduce_chunks<2, reduce::Sum>(s.count, Terms{x.data(), s.first});
            reduce::fold_chunks_of<R>(part.data(), part.size() / 2, running);
        }
        CAPTURE(ranks);
        CHECK(same_bits(running[0], whole[0]));
        CHECK(same_bits(running[1], whole[1]));
    }
}
