// A one-line description of the ranks, shared by both communicator implementations.
#include <fmt/format.h>

#include "parallel/Communicator.hh"

namespace gt::parallel {

std::string describe_world()
{
    Communicator const& w = Communicator::world();
    return fmt::format("{} rank{} on {} node{}", w.size(), w.size() == 1 ? "" : "s", w.node_count(),
                       w.node_count() == 1 ? "" : "s");
}

}  // namespace gt::parallel
