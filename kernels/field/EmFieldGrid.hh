// Static E and B on a uniform Cartesian grid, interpolated trilinearly: the field of a 3D field-map
// element (FieldMap3D), with the device layout of its values chosen by one constant.
#pragma once

#include <cstdint>

#include "kernels/core/Macros.hh"
#include "kernels/field/ParaxialField.hh"

namespace gt {

//! How the components of the grid's nodes lie in memory.
//!   interleaved: the components of a node together, node after node: value(node, c) at
//!                node * components + c (one contiguous read of a node's components);
//!   planar:      one array per component: value(node, c) at c * nodes + node (a warp's neighbouring
//!                particles read neighbouring addresses of each array).
//! bench/FieldMapBench.cc measures both (particle-substeps/s, CPU and GPU).
enum class FieldLayout : std::int32_t { interleaved, planar };

//! The layout field maps use unless the deck says otherwise (element key `layout`).
inline constexpr FieldLayout k_default_field_layout = FieldLayout::interleaved;

//! The deck's name of a layout.
constexpr char const* field_layout_name(FieldLayout l)
{
    return l == FieldLayout::interleaved ? "interleaved" : "planar";
}

//! E [V/m] and B [T] on nx x ny x nz nodes, node (i, j, k) at lo + (i dx, j dy, k dz) and numbered
//! node = (i ny + j) nz + k. `components` is 3 (E only or B only) or 6 (E then B). Outside the grid
//! (beyond k_edge) the field is zero. The values belong to the lattice's field data (`offset` says where they start);
//! the backend points `values` at its copy.
struct EmFieldGrid {
    double const* values;           //!< [V/m and T]
    std::int64_t offset;            //!< index of the first value in the lattice's field data
    std::int64_t nodes;             //!< nx ny nz
    std::int32_t n[3];              //!< nodes along x, y, z (each >= 2)
    std::int32_t components;        //!< 3 or 6
    bool has_e, has_b;              //!< which fields the map holds (E first when both)
    FieldLayout layout;
    std::int64_t node_stride;       //!< distance between the values of neighbouring nodes
    std::int64_t component_stride;  //!< distance between the components of one node
    double lo[3];                   //!< [m] position of node (0, 0, 0)
    double inv_spacing[3];          //!< [1/m]

    //! Points this close to the grid's faces (in cells) count as inside, so that an element whose
    //! end is the last node sees the field at its end whatever the rounding of the step positions.
    static constexpr double k_edge = 1e-9;

    //! Host: sets layout and the strides it implies (nodes and components must be set).
    void set_layout(FieldLayout l)
    {
        layout = l;
        node_stride = l == FieldLayout::interleaved ? components : 1;
        component_stride = l == FieldLayout::interleaved ? 1 : nodes;
    }

    //! Index of component c of node `node` in `values`.
    GT_HOST_DEVICE GT_FORCEINLINE std::int64_t index(std::int64_t node, std::int32_t c) const
    {
        return node * node_stride + std::int64_t(c) * component_stride;
    }

    //! The static field at (x, y, z) [m] in the map's coordinates: the eight surrounding nodes
    //! weighted by the trilinear weights, summed in one fixed order (the same bits on CPU and GPU).
    GT_HOST_DEVICE FieldValue operator()(double x, double y, double z) const
    {
        double const pos[3] = {x, y, z};
        std::int64_t idx[3];
        double frac[3];
        for (int a = 0; a < 3; ++a) {
            double const u = (pos[a] - lo[a]) * inv_spacing[a];
            if (!(u >= -k_edge) || u > double(n[a] - 1) + k_edge) return FieldValue{0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
            std::int32_t i = static_cast<std::int32_t>(u);
            if (i > n[a] - 2) i = n[a] - 2;
            idx[a] = i;
            frac[a] = u - double(i);
        }
        double sum[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
        for (int c = 0; c < 8; ++c) {
            int const di = c >> 2, dj = (c >> 1) & 1, dk = c & 1;
            double const w = (di ? frac[0] : 1.0 - frac[0]) * (dj ? frac[1] : 1.0 - frac[1]) *
                             (dk ? frac[2] : 1.0 - frac[2]);
            std::int64_t const node = ((idx[0] + di) * n[1] + (idx[1] + dj)) * n[2] + (idx[2] + dk);
            std::int64_t const base = node * node_stride;
            // Fixed trip counts keep `sum` in registers on the GPU.
                for (std::int32_t q = 0; q < 6; ++q)
                if (q < components) sum[q] += w * values[base + std::int64_t(q) * component_stride];
        }
        FieldValue f{0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
        if (has_e) {
            f.ex = sum[0];
            f.ey = sum[1];
            f.ez = sum[2];
        }
        if (has_b) {
            f.bx = has_e ? sum[3] : sum[0];
            f.by = has_e ? sum[4] : sum[1];
            f.bz = has_e ? sum[5] : sum[2];
        }
        return f;
    }
};

}  // namespace gt
