// The CPU executor: runs a per-item functor over n items with OpenMP, and reduces deterministically.
#pragma once

#include <array>
#include <vector>

#include "kernels/core/Reduction.hh"
#include "kernels/core/Types.hh"

namespace gt::cpu {

//! f(i) for i in [0, n), spread over the OpenMP threads (static schedule: contiguous blocks).
template<class F>
void for_each(size_type n, F const& f)
{
    auto const count = static_cast<long long>(n);
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < count; ++i) f(static_cast<size_type>(i));
}

//! The per-chunk partial results of a reduction R (R::size per chunk, chunk order), before they are
//! combined: what crosses ranks under MPI (kernels/core/CrossRank.hh). f(i, double* v) writes item
//! i's R::size values.
template<class R, class F>
std::vector<double> reduce_chunks_of(size_type n, F const& f)
{
    using namespace gt::reduce;
    constexpr int N = R::size;
    size_type const chunks = chunk_count(n);
    std::vector<double> partials(chunks * N);
    auto const nchunks = static_cast<long long>(chunks);
#pragma omp parallel for schedule(static)
    for (long long c = 0; c < nchunks; ++c) {
        double acc[k_lanes][N];
        double lane[R::lane_size];
        double v[R::item_size];
        size_type const begin = static_cast<size_type>(c) * k_chunk;
        for (int l = 0; l < k_lanes; ++l) {
            R::lane_identity(lane);
            for (int k = 0; k < k_per_lane; ++k) {
                size_type const i = begin + size_type(k) * k_lanes + size_type(l);
                if (i >= n) break;
                f(i, v);
                R::lane_add(lane, v);
            }
            R::lane_finish(lane, acc[l]);
        }
        for (int stride = k_lanes / 2; stride > 0; stride /= 2)
            for (int l = 0; l < stride; ++l) R::combine(acc[l], acc[l + stride]);
        for (int j = 0; j < N; ++j) partials[static_cast<size_type>(c) * N + j] = acc[0][j];
    }
    return partials;
}

//! The reduction R of every item's values; the summation tree is reduce's, so the result matches
//! the CUDA executor bit for bit.
template<class R, class F>
std::array<double, R::size> reduce_of(size_type n, F const& f)
{
    std::vector<double> const partials = reduce_chunks_of<R>(n, f);
    std::array<double, R::size> out{};
    reduce::combine_chunks_of<R>(partials.data(), reduce::chunk_count(n), out.data());
    return out;
}

template<int N, class Op, class F>
std::vector<double> reduce_chunks(size_type n, F const& f)
{
    return reduce_chunks_of<reduce::Each<N, Op>>(n, f);
}

//! Reduces N values per item with Op (reduce::Sum, Min or Max); f(i, double* v) writes item i's N
//! values.
template<int N, class Op, class F>
std::array<double, N> reduce(size_type n, F const& f)
{
    return reduce_of<reduce::Each<N, Op>>(n, f);
}

//! The CPU executor as a policy type, for code written once over executors (e.g. BeamDriver).
struct Policy {
    template<class F>
    static void for_each(size_type n, F const& f)
    {
        cpu::for_each(n, f);
    }
    //! The GPU's register budget has no meaning here: for_each.
    template<int MinBlocks, class F>
    static void for_each_resident(size_type n, F const& f)
    {
        cpu::for_each(n, f);
    }
    template<int N, class Op, class F>
    static std::array<double, N> reduce(size_type n, F const& f)
    {
        return cpu::reduce<N, Op>(n, f);
    }
    template<int N, class Op, class F>
    static std::vector<double> reduce_chunks(size_type n, F const& f)
    {
        return cpu::reduce_chunks<N, Op>(n, f);
    }
    template<class R, class F>
    static std::vector<double> reduce_chunks_of(size_type n, F const& f)
    {
        return cpu::reduce_chunks_of<R>(n, f);
    }
};

//! Number of threads the CPU executor uses.
int thread_count();
//! Sets the number of OpenMP threads (n <= 0: leave the default).
void set_thread_count(int n);

}  // namespace gt::cpu
