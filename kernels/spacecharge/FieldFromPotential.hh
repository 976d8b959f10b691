// The rest-frame electric field on the grid nodes: E = -grad phi by centred differences.
//
// Hockney's doubled grid gives the potential one node beyond each end of the physical grid
// (IntegratedGreenFunction.hh), so every node, the outermost included, has a centred difference.
// Centred differences of a convolution with an even G are an odd kernel: with the same shape for
// deposition and gather this makes the self-force exactly zero and the forces between two particles
// equal and opposite (momentum conservation; Hockney & Eastwood 1988, section 5-3).
#pragma once

#include "kernels/core/Macros.hh"
#include "kernels/core/Types.hh"
#include "kernels/spacecharge/GridGeometry.hh"

namespace gt {

//! The rest-frame field [V/m] at one node, padded to 32 bytes (one memory sector, aligned): a gather
//! reads each stencil node's three components in one sector, where three separate arrays cost three
//! sectors a node (12-15 a CIC stencil instead of 8; the gather in particle order reads the grid at
//! random, so this is its cost). The 2.5D model keeps its transverse field here with ez = 0.
struct alignas(32) NodeField {
    double ex, ey, ez;
    double unused;  //!< padding (0), never read
};
static_assert(sizeof(NodeField) == 32, "one node's field is one 32-byte sector");

struct FieldFromPotential {
    GridGeometry grid;
    double const* potential;  //!< raw inverse transform on the doubled grid
    double scale;             //!< potential_scale(grid) [V per raw unit]
    NodeField* field;         //!< [V/m] per node

    GT_HOST_DEVICE void operator()(size_type n) const
    {
        int const i = static_cast<int>(n % size_type(grid.nx));
        int const j = static_cast<int>((n / size_type(grid.nx)) % size_type(grid.ny));
        int const k = static_cast<int>(n / (size_type(grid.nx) * size_type(grid.ny)));
        DoubledGrid const d = DoubledGrid::of(grid);
        // Node -1 of the physical grid is index 2n - 1 of the doubled grid.
        int const im = i == 0 ? d.nx2 - 1 : i - 1, jm = j == 0 ? d.ny2 - 1 : j - 1,
                  km = k == 0 ? d.nz2 - 1 : k - 1;
        double const dx = potential[d.index(i + 1, j, k)] - potential[d.index(im, j, k)];
        double const dy = potential[d.index(i, j + 1, k)] - potential[d.index(i, jm, k)];
        double const dz = potential[d.index(i, j, k + 1)] - potential[d.index(i, j, km)];
        field[n] = NodeField{-scale * dx / (2.0 * grid.hx), -scale * dy / (2.0 * grid.hy),
                             -scale * dz / (2.0 * grid.hz), 0.0};
    }
};

//! Terms of the electrostatic energy W = 1/2 sum_i Q_i phi_i [J] (N = 1).
struct FieldEnergyTerms {
    GridGeometry grid;
    double const* charge;     //!< node charges [C]
    double const* potential;  //!< raw inverse transform on the doubled grid
    double scale;             //!< potential_scale(grid) / 2
    GT_HOST_DEVICE void operator()(size_type n, double* v) const
    {
        int const i = static_cast<int>(n % size_type(grid.nx));
        int const j = static_cast<int>((n / size_type(grid.nx)) % size_type(grid.ny));
        int const k = static_cast<int>(n / (size_type(grid.nx) * size_type(grid.ny)));
        v[0] = scale * charge[n] * potential[DoubledGrid::of(grid).index(i, j, k)];
    }
};

//! Terms of the total node charge [C] (N = 1).
struct NodeSumTerms {
    double const* values;
    GT_HOST_DEVICE void operator()(size_type n, double* v) const { v[0] = values[n]; }
};

}  // namespace gt
