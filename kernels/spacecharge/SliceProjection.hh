// The 2.5D solver's steps: the transverse projection and the line density of the 3D charge grid,
// the 2D convolution's padding, and the transverse field of a unit line charge.
//
// Model (long bunches, docs/physics.md 6.8): E'_perp(x, y, z) = lambda(z) E_1(x, y), with lambda the
// rest-frame line density [C/m] and E_1 the 2D field of the bunch's transverse distribution carrying
// 1 C/m; no longitudinal field. Sums run in a fixed order: the same bits on every backend.
#pragma once

#include "kernels/core/Macros.hh"
#include "kernels/core/Types.hh"
#include "kernels/spacecharge/FieldFromPotential.hh"
#include "kernels/spacecharge/GridGeometry.hh"

namespace gt {

//! Transverse node (i, j): its fraction of the total charge, summed over k, on the doubled 2D grid
//! (zeros outside the physical nodes).
struct PadTransverse {
    GridGeometry grid;
    double const* charge;  //!< 3D node charges [C]
    double inv_total;      //!< 1 / total charge [1/C]
    double* padded;        //!< 2nx x 2ny
    GT_HOST_DEVICE void operator()(size_type n) const
    {
        int const nx2 = 2 * grid.nx;
        int const i = static_cast<int>(n % size_type(nx2));
        int const j = static_cast<int>(n / size_type(nx2));
        if (i >= grid.nx || j >= grid.ny) {
            padded[n] = 0.0;
            return;
        }
        double s = 0.0;
        for (int k = 0; k < grid.nz; ++k) s += charge[grid.index(i, j, k)];
        padded[n] = s * inv_total;
    }
};

//! Line density lambda_k = (charge in plane k) / hz [C/m].
struct LineDensity {
    GridGeometry grid;
    double const* charge;
    double* line;
    GT_HOST_DEVICE void operator()(size_type k) const
    {
        double s = 0.0;
        size_type const plane = size_type(grid.nx) * size_type(grid.ny);
        for (size_type m = 0; m < plane; ++m) s += charge[k * plane + m];
        line[k] = s / grid.hz;
    }
};

//! E_1 = -grad phi_1 on the transverse nodes (centred differences; the doubled grid gives phi one
//! node beyond each edge), for a unit line charge [V/m per C/m].
struct TransverseField {
    GridGeometry grid;
    double const* potential;  //!< raw inverse transform on the 2nx x 2ny grid
    double scale;             //!< -1/(2 pi eps0 4 nx ny)
    NodeField* field;         //!< nx x ny (ez = 0)
    GT_HOST_DEVICE void operator()(size_type n) const
    {
        int const i = static_cast<int>(n % size_type(grid.nx));
        int const j = static_cast<int>(n / size_type(grid.nx));
        int const nx2 = 2 * grid.nx, ny2 = 2 * grid.ny;
        int const im = i == 0 ? nx2 - 1 : i - 1, jm = j == 0 ? ny2 - 1 : j - 1;
        auto const at = [&](int a, int b) { return potential[size_type(b) * size_type(nx2) + size_type(a)]; };
        field[n] = NodeField{-scale * (at(i + 1, j) - at(im, j)) / (2.0 * grid.hx),
                             -scale * (at(i, j + 1) - at(i, jm)) / (2.0 * grid.hy), 0.0, 0.0};
    }
};

}  // namespace gt
