// The backends' view of the other ranks, over the world communicator.
#include "parallel/WorldCrossRank.hh"

#include "parallel/Communicator.hh"

namespace gt::parallel {
namespace {

class WorldCrossRank final : public CrossRank {
  public:
    int count() const override { return Communicator::world().size(); }
    void fold_in_rank_order(std::span<double> running, FoldMine const& fold_mine) const override
    {
        Communicator::world().fold_in_rank_order(running, fold_mine);
    }
    void sum(std::span<std::int64_t> values) const override { Communicator::world().sum_in_place(values); }
    void min(std::span<double> values) const override { Communicator::world().min_in_place(values); }
    void max(std::span<double> values) const override { Communicator::world().max_in_place(values); }
};

}  // namespace

CrossRank const& world_cross_rank()
{
    if (Communicator::world().size() == 1) return single_process();
    static WorldCrossRank const world;
    return world;
}

}  // namespace gt::parallel
