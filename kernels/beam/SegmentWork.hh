// Counted FP64 work of the beam kernels per particle: a segment of the element table (prefix sums of
// ElementWork's per-entry counts, so any [begin, end) costs two lookups) and the moments pass.
#pragma once

#include <vector>

#include "kernels/core/Types.hh"
#include "kernels/elements/ElementWork.hh"

namespace gt {

//! Moments per particle, one merge of a particle into its lane (moments::Merge::combine with
//! nb = 1): the count 1 add, f 1 divide, w 1 multiply; 6 x (subtract, 2 multiplies, add) for the
//! means; 21 x (2 adds, 1 multiply) for the second moments; the amplitudes are comparisons only.
inline constexpr double k_moments_flops_per_particle = 3 + 6 * 4 + 21 * 3;

class SegmentWork {
  public:
    SegmentWork() = default;
    explicit SegmentWork(std::vector<Element> const& elements) : prefix_(elements.size() + 1, 0.0)
    {
        for (std::size_t i = 0; i < elements.size(); ++i)
            prefix_[i + 1] = prefix_[i] + work::element_flops(elements[i]);
    }

    //! FP64 operations of one particle that survives entries [begin, end).
    double flops_per_particle(size_type begin, size_type end) const { return prefix_[end] - prefix_[begin]; }

  private:
    std::vector<double> prefix_;
};

}  // namespace gt
