// Which element switch (ElementCases) each segment of the table needs: a prefix count of the
// entries only the full switch tracks, so any [begin, end) costs two lookups on the host.
#pragma once

#include <vector>

#include "kernels/core/Types.hh"
#include "kernels/elements/Element.hh"

namespace gt {

class SegmentCaseTable {
  public:
    SegmentCaseTable() = default;
    explicit SegmentCaseTable(std::vector<Element> const& elements) : prefix_(elements.size() + 1, 0)
    {
        for (std::size_t i = 0; i < elements.size(); ++i)
            prefix_[i + 1] = prefix_[i] + (needs_all_cases(elements[i].kind) ? 1 : 0);
    }

    //! The smallest switch that tracks every entry of [begin, end).
    ElementCases cases(size_type begin, size_type end) const
    {
        return prefix_[end] == prefix_[begin] ? ElementCases::without_integrators : ElementCases::all;
    }

  private:
    std::vector<size_type> prefix_;
};

}  // namespace gt
