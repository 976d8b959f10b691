// The other processes of a run, as a backend's collective steps see them (host side only).
//
// Under MPI each rank holds a share of the particles (src/parallel/ParticleDecomposition.hh); a
// reduction over the whole beam is then this rank's part followed by a step across ranks. kernels/
// never sees MPI: it calls this interface, which src/parallel implements, and which is the identity
// for one process. Every operation is exact or a concatenation in rank order, so results do not
// depend on the rank count.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace gt {

class CrossRank {
  public:
    virtual ~CrossRank() = default;
    //! Number of ranks (1: every operation below is the identity).
    virtual int count() const = 0;
    //! Every rank's `local` values, concatenated in rank order (on every rank). With the particle
    //! shares aligned to reduction chunks, the chunk partials of all ranks so joined are exactly the
    //! partials one process would have, in the same order.
    virtual std::vector<double> concatenate(std::vector<double> local) const = 0;
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
    std::vector<double> concatenate(std::vector<double> local) const override { return local; }
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
