// The fixed summation tree shared by the CPU and CUDA reductions, so that both give the same bits.
//
// Items are cut into chunks of k_lanes * k_per_lane. Inside a chunk, lane l combines the items
// chunk_begin + k * k_lanes + l for k = 0, 1, ... in that order; the lanes are then combined by a
// pairwise tree (stride 64, 32, ..., 1); the chunk results are combined on the host in chunk order.
// The tree depends only on n, never on the number of threads or on the device.
//
// A reduction R combines states of R::size values (R::identity, R::combine: the tree and the
// chunks). An item gives R::item_size values (f(i, v)); a lane gathers its items into a lane state
// of R::lane_size values (R::lane_identity, R::lane_add, in item order) and turns it into a state
// (R::lane_finish) before the tree. `Each<N, Op>` combines N values one by one (sums, minima,
// maxima), its lane state being its state; the beam moments (kernels/beam/Moments.hh) sum about a
// lane's first particle and merge states by Chan's formula.
#pragma once

#include <cmath>
#include <limits>

#include "kernels/core/Macros.hh"
#include "kernels/core/Types.hh"

namespace gt::reduce {

inline constexpr int k_lanes = 128;
inline constexpr int k_per_lane = 16;
inline constexpr size_type k_chunk = size_type(k_lanes) * k_per_lane;

struct Sum {
    GT_HOST_DEVICE static constexpr double identity() { return 0.0; }
    GT_HOST_DEVICE static double combine(double a, double b) { return a + b; }
};
struct Min {
    GT_HOST_DEVICE static constexpr double identity() { return std::numeric_limits<double>::infinity(); }
    GT_HOST_DEVICE static double combine(double a, double b) { return b < a ? b : a; }
};
struct Max {
    GT_HOST_DEVICE static constexpr double identity() { return -std::numeric_limits<double>::infinity(); }
    GT_HOST_DEVICE static double combine(double a, double b) { return b > a ? b : a; }
};

//! N independent values, each combined with Op (Sum, Min or Max).
template<int N, class Op>
struct Each {
    static constexpr int size = N, item_size = N, lane_size = N;
    GT_HOST_DEVICE static void identity(double* a)
    {
        for (int j = 0; j < N; ++j) a[j] = Op::identity();
    }
    GT_HOST_DEVICE static void combine(double* a, double const* b)
    {
        for (int j = 0; j < N; ++j) a[j] = Op::combine(a[j], b[j]);
    }
    GT_HOST_DEVICE static void lane_identity(double* lane) { identity(lane); }
    GT_HOST_DEVICE static void lane_add(double* lane, double const* v) { combine(lane, v); }
    GT_HOST_DEVICE static void lane_finish(double const* lane, double* a)
    {
        for (int j = 0; j < N; ++j) a[j] = lane[j];
    }
};

//! M values combined with Max, then S with Sum: two Each reductions in one pass over the items,
//! each value combined in the same order as by its own Each, so with the same bits.
template<int M, int S>
struct MaxThenSum {
    static constexpr int size = M + S, item_size = M + S, lane_size = M + S;
    GT_HOST_DEVICE static void identity(double* a)
    {
        for (int j = 0; j < M; ++j) a[j] = Max::identity();
        for (int j = M; j < M + S; ++j) a[j] = Sum::identity();
    }
    GT_HOST_DEVICE static void combine(double* a, double const* b)
    {
        for (int j = 0; j < M; ++j) a[j] = Max::combine(a[j], b[j]);
        for (int j = M; j < M + S; ++j) a[j] = Sum::combine(a[j], b[j]);
    }
    GT_HOST_DEVICE static void lane_identity(double* lane) { identity(lane); }
    GT_HOST_DEVICE static void lane_add(double* lane, double const* v) { combine(lane, v); }
    GT_HOST_DEVICE static void lane_finish(double const* lane, double* a)
    {
        for (int j = 0; j < M + S; ++j) a[j] = lane[j];
    }
};

inline size_type chunk_count(size_type n) { return (n + k_chunk - 1) / k_chunk; }

//! Folds per-chunk partial results (host side, chunk order) into `running` (R::size values), left to
//! right: what a run of several ranks does with each rank's chunks in turn (CrossRank.hh).
template<class R>
void fold_chunks_of(double const* partials, size_type chunks, double* running)
{
    for (size_type c = 0; c < chunks; ++c) R::combine(running, partials + c * R::size);
}

//! Combines per-chunk partial results (host side, chunk order) into the final R::size values.
template<class R>
void combine_chunks_of(double const* partials, size_type chunks, double* out)
{
    R::identity(out);
    fold_chunks_of<R>(partials, chunks, out);
}

template<int N, class Op>
void combine_chunks(double const* partials, size_type chunks, double* out)
{
    combine_chunks_of<Each<N, Op>>(partials, chunks, out);
}

}  // namespace gt::reduce
