// Counted FP64 work of the beam kernels per particle: a segment of the element table (prefix sums of
// ElementWork's per-entry counts, so any [begin, end) costs two lookups) and the moments pass.
#pragma once

#include <vector>

#include "kernels/core/Types.hh"
#include "kernels/elements/ElementWork.hh"

namespace gt {

//! Moments per particle (moments::Merge::lane_add): 6 subtractions and 6 adds for the shifted sums,
//! 21 products and 21 adds for the second moments, 1 add for the count; the amplitudes are
//! comparisons only (the lane and tree merges, per 16 particles, are not counted).
inline constexpr double k_moments_flops_per_particle = 6 + 6 + 21 + 21 + 1;

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
