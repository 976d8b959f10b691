// The other processes of a run, as a backend's collective steps see them (host side only).
//
// Under MPI each rank holds a share of the particles (src/parallel/ParticleDecomposition.hh); a
// reduction over the whole beam is then this rank's part followed by a step across ranks. kernels/
// never sees MPI: it calls this interface, which src/parallel implements, and which is the identity
// for one process. Every operation is exact or a fold in rank order, so results do not depend on the
// rank count.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

namespace gt {

class CrossRank {
  public:
    virtual ~CrossRank() = default;
    //! Number of ranks (1: every operation below is the identity).
    virtual int count() const = 0;
    //! A left fold over every rank's part in rank order, the order of one process: rank 0 applies
    //! `fold_mine` to `running` as given, every other rank to what the rank before it ended with (sent
    //! to it: `running.size()` values, not the partials); every rank returns with the last rank's
    //! result. With the particle shares aligned to reduction chunks, folding each rank's chunk partials
    //! so performs exactly the combines one process would, in the same order: the same bits.
    using FoldMine = std::function<void(std::span<double> running)>;
    virtual void fold_in_rank_order(std::span<double> running, FoldMine const& fold_mine) const = 0;
    //! Element-wise sum over ranks, in place (integers: exact).
    virtual void sum(std::span<std::int64_t> values) const = 0;
    //! Element-wise minimum / maximum over ranks, in place.
    virtual void min(std::span<double> values) const = 0;
    virtual void max(std::span<double> values) const = 0;
};

//! One process: every operation is the identity.
class SingleProcess final : public CrossRank {
  public:
    int count() const override { return 1; }
    void fold_in_rank_order(std::span<double> running, FoldMine const& fold_mine) const override
    {
        fold_mine(running);
    }
    void sum(std::span<std::int64_t>) const override {}
    void min(std::span<double>) const override {}
    void max(std::span<double>) const override {}
};

inline CrossRank const& single_process()
{
    static SingleProcess const one;
    return one;
}

}  // namespace gt
