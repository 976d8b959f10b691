// Counted FP64 work of the beam kernels per particle: a segment of the element table (prefix sums of
// ElementWork's per-entry counts, so any [begin, end) costs two lookups) and the moments pass.
#pragma once

#include <array>
#include <vector>

#include "kernels/core/Types.hh"
#include "kernels/elements/ElementWork.hh"

namespace gt {

//! Moments per particle (moments::Merge::lane_add): 6 subtractions and 6 adds for the shifted sums,
//! 21 products and 21 adds for the second moments, 1 add for the count; the amplitudes are
//! comparisons only (the lane and tree merges, per 16 particles, are not counted).
inline constexpr double k_moments_flops_per_particle = 6 + 6 + 21 + 21 + 1;

//! The families of element maps whose FP64 rates `gtrack calibrate` measures apart (Ceilings::fp64_map_of):
//! one rate for a lattice of mixed maps no longer predicts a lattice of other proportions once some maps
//! run as CPU vector lanes (kernels/cpu/SegmentLanes.hh: drifts, thick multipoles, the exact bend) and
//! others per particle (the chromatic quadrupole), and on the GPU their register needs differ.
enum class MapFamily : int {
    drift,       //!< drifts of either model
    quadrupole,  //!< quadrupoles of every model
    multipole,   //!< thin and thick multipoles (split steps)
    bend,        //!< sector-bend bodies (either model) and dipole edges
    other,       //!< every other kind (calibrated on solenoids and RF cavities: per-particle maps on the CPU)
    //! profile elements (axial_field_map: RK4 in s through the paraxial field of an on-axis solenoid or
    //! cavity profile), calibrated on such elements; last, so that older files' five rates keep their places
    field_map,
    //! 3D field maps (field_map_3d: RK4 in s through fields interpolated on a Cartesian grid), calibrated on
    //! such maps: on the GPU the grid's loads, not the FLOPs, set their rate (the `other` family's priced the
    //! example deck at half its measured time on the H100)
    field_map_3d,
};
inline constexpr int k_map_families = 7;
inline constexpr char const* k_map_family_names[k_map_families] = {
    "drift", "quadrupole", "multipole", "bend", "other", "field_map", "field_map_3d"};

inline MapFamily map_family(ElementKind kind)
{
    switch (kind) {
        case ElementKind::drift:
            return MapFamily::drift;
        case ElementKind::quadrupole:
            return MapFamily::quadrupole;
        case ElementKind::multipole:
        case ElementKind::thick_multipole:
            return MapFamily::multipole;
        case ElementKind::sector_bend:
        case ElementKind::exact_bend:
        case ElementKind::dipole_edge:
            return MapFamily::bend;
        case ElementKind::axial_field_map:
            return MapFamily::field_map;
        case ElementKind::field_map_3d:
            return MapFamily::field_map_3d;
        default:
            return MapFamily::other;
    }
}

//! True for the entries the CPU's lanes (kernels/cpu/SegmentLanes.hh) track one particle at a time: a cost
//! per push beyond their FP64 work (each lane taken out of the vectors and put back) that the forecast
//! prices apart (Ceilings::fallback_push_seconds). Keep in step with track_element_lanes's switch; an
//! entry with classical radiation on (radiates(), Element.hh) is tracked per particle whatever its kind.
inline bool per_particle_in_lanes(Element const& e)
{
    if (radiates(e)) return true;
    switch (e.kind) {
        case ElementKind::marker:
        case ElementKind::monitor:
        case ElementKind::drift:
        case ElementKind::quadrupole:
        case ElementKind::multipole:
        case ElementKind::thick_multipole:
        case ElementKind::aperture:
        case ElementKind::dipole_edge:
            return false;
        case ElementKind::exact_bend:
            return e.exact_bend.kicked;
        default:
            return true;
    }
}

//! The family whose rate prices an entry: its kind's, except an entry with classical radiation on
//! (radiates(), Element.hh), priced at the `other` family's rate, the one measured on maps run one particle
//! at a time: the CPU's lanes track it per particle, and its radiation's square roots and divisions run
//! slower than the vector maps its kind's rate is measured on (light_source_ring, one thread: 3.8 GFLOP/s
//! in track against 9-19 for the bend and quadrupole families, forecast 0.43x measured at those rates).
inline MapFamily family_of(Element const& e) { return radiates(e) ? MapFamily::other : map_family(e.kind); }

//! FP64 operations per particle, by map family.
using FamilyFlops = std::array<double, k_map_families>;

class SegmentWork {
  public:
    SegmentWork() = default;
    explicit SegmentWork(std::vector<Element> const& elements)
        : prefix_(elements.size() + 1, FamilyFlops{}), per_particle_(elements.size() + 1, 0.0)
    {
        for (std::size_t i = 0; i < elements.size(); ++i) {
            prefix_[i + 1] = prefix_[i];
            prefix_[i + 1][int(family_of(elements[i]))] += work::element_flops(elements[i]);
            per_particle_[i + 1] = per_particle_[i] + (per_particle_in_lanes(elements[i]) ? 1.0 : 0.0);
        }
    }

    //! Entries of [begin, end) that the CPU's lanes track one particle at a time.
    double per_particle_entries(size_type begin, size_type end) const
    {
        return per_particle_[end] - per_particle_[begin];
    }

    //! FP64 operations of one particle that survives entries [begin, end).
    double flops_per_particle(size_type begin, size_type end) const
    {
        double sum = 0;
        for (int f = 0; f < k_map_families; ++f) sum += prefix_[end][f] - prefix_[begin][f];
        return sum;
    }

    //! The same by map family.
    FamilyFlops family_flops_per_particle(size_type begin, size_type end) const
    {
        FamilyFlops out{};
        for (int f = 0; f < k_map_families; ++f) out[f] = prefix_[end][f] - prefix_[begin][f];
        return out;
    }

  private:
    std::vector<FamilyFlops> prefix_;
    std::vector<double> per_particle_;
};

}  // namespace gt
