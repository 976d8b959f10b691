// Host side of the 3D field-map element: the grid laid out for the device, slicing, and the
// reference particle tracked through the map (the same kernel code as the beam) to find the RF crest.
#pragma once

#include <stdexcept>
#include <vector>

#include "beam/FieldMap3DFile.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "kernels/elements/FieldMap3D.hh"

namespace gt {

//! What a deck's `field_map` element asks for (SI).
struct FieldMap3DRequest {
    double dz = 0.0;         //!< [m] the map's spacing along z (sets the default substeps)
    double length = 0.0;     //!< [m] the element spans map z in [0, length]
    double frequency = 0.0;  //!< [Hz] 0: static fields
    double phase = 0.0;      //!< [rad] relative to the crest (maximum energy gain of the reference)
    int slices = 1;
    int steps_per_slice = 0;  //!< RK4 steps per slice; 0: one per map interval along z
};

//! The slices of one occurrence and the reference after each.
struct FieldMap3DSlices {
    std::vector<FieldMap3D> slices;
    std::vector<ReferenceParticle> reference_after;
    double crest_phase = 0.0;  //!< [rad] phase at the reference's entry that is on crest
};

//! The reference is reflected or stopped in the map: the lattice builder adds the deck key and line.
class FieldMap3DError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

//! The grid of `map` with the request's scales, in `layout`: the values FieldMap3D reads.
std::vector<double> lay_out_field_map(FieldMap3DFile const& map, double e_scale, double b_scale,
                                      FieldLayout layout);

//! Appends the grid of `map` (scaled, in `layout`) to `field_data`: the grid's values point into it
//! as it is on return (rebind after it grows). Occurrences of one map share one grid.
EmFieldGrid append_field_grid(FieldMap3DFile const& map, double e_scale, double b_scale, FieldLayout layout,
                              std::vector<double>& field_data);

//! The largest |E| [V/m] and |B| [T] over the nodes of `grid` (its scales applied): what the t-code's
//! accuracy rule bounds the time step by.
struct GridPeaks {
    double e = 0.0, b = 0.0;
};
GridPeaks grid_peaks(EmFieldGrid const& grid);

//! The slices of `request` through `grid` for a reference entering as `entry`.
FieldMap3DSlices build_field_map_3d(FieldMap3DRequest const& request, EmFieldGrid const& grid,
                                    ReferenceParticle const& entry);

}  // namespace gt
