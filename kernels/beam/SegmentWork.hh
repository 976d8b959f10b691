// Counted FP64 work of the beam kernels per particle: a segment of the element table (prefix sums of
// ElementWork's per-entry counts, so any [begin, end) costs two lookups) and the moments passes.
#pragma once

#include <vector>

#include "kernels/core/Types.hh"
#include "kernels/elements/ElementWork.hh"

namespace gt {

//! Moments per particle: the centroid sums 7 adds; the second moments 6 subtractions, 21 products
//! and 21 adds; the amplitudes are comparisons only.
inline constexpr double k_moments_flops_per_particle = 7 + (6 + 21 + 21);

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
