// Which element switch (ElementCases) each segment of the table needs: prefix counts of the entries
// only the full switch tracks, of those the linear-map and optics-map switches do not, of those that
// emit photons and of the misaligned ones, so any [begin, end) costs a few lookups on the host. This table
// is the only picker of a segment's switch: the linear-map and optics-map switches no longer re-check an
// entry's model, radiation or body multipoles per particle (issue 29), so a segment given a switch that
// cases() would not pick is tracked wrongly, not refused.
#pragma once

#include <vector>

#include "kernels/core/Types.hh"
#include "kernels/elements/Element.hh"

namespace gt {

class SegmentCaseTable {
  public:
    SegmentCaseTable() = default;
    explicit SegmentCaseTable(std::vector<Element> const& elements)
        : needs_all_(elements.size() + 1, 0),
          not_linear_(elements.size() + 1, 0),
          not_optics_(elements.size() + 1, 0),
          photons_(elements.size() + 1, 0),
          misaligned_(elements.size() + 1, 0)
    {
        for (std::size_t i = 0; i < elements.size(); ++i) {
            needs_all_[i + 1] = needs_all_[i] + (needs_all_cases(elements[i].kind) ? 1 : 0);
            not_linear_[i + 1] = not_linear_[i] + (is_linear_map(elements[i]) ? 0 : 1);
            not_optics_[i + 1] = not_optics_[i] + (is_optics_map(elements[i]) ? 0 : 1);
            photons_[i + 1] = photons_[i] + (gt::emits_photons(elements[i]) ? 1 : 0);
            misaligned_[i + 1] = misaligned_[i] + (elements[i].misaligned ? 1 : 0);
        }
    }

    //! The smallest switch that tracks every entry of [begin, end).
    ElementCases cases(size_type begin, size_type end) const
    {
        if (not_linear_[end] == not_linear_[begin]) return ElementCases::linear_maps;
        if (not_optics_[end] == not_optics_[begin]) return ElementCases::optics_maps;
        return needs_all_[end] == needs_all_[begin] ? ElementCases::without_integrators : ElementCases::all;
    }

    //! True when [begin, end) holds an entry that emits photons (quantum excitation, Element.hh): the segment
    //! is tracked by the kernels with photon streams (TrackSegment's `Photons`), whose switch is the one
    //! without integrators or, where cases() says so, all.
    bool emits_photons(size_type begin, size_type end) const { return photons_[end] != photons_[begin]; }

    //! True when [begin, end) holds a misaligned entry. A segment without one is tracked by the kernels
    //! compiled without the misalignment (TrackSegment's `Misalignments` false: on the GPU the shift and
    //! roll of every entry were predicated instructions issued whether or not the entry is misaligned).
    bool misaligned(size_type begin, size_type end) const { return misaligned_[end] != misaligned_[begin]; }

  private:
    std::vector<size_type> needs_all_;
    std::vector<size_type> not_linear_;
    std::vector<size_type> not_optics_;
    std::vector<size_type> photons_;
    std::vector<size_type> misaligned_;
};

}  // namespace gt
