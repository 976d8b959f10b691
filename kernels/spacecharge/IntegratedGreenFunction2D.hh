// The integrated Green's function of the 2D (line-charge) open-boundary Poisson problem, for the
// 2.5D solver: Hockney's doubled grid in x and y only.
//
// A line charge Lambda [C/m] has phi = -Lambda ln(r) / (2 pi eps0). With each transverse node's line
// charge spread over its cell, phi_i = -1/(2 pi eps0) sum_j Lambda_j G(r_i - r_j), with the cell mean
//   G(r) = (1/(hx hy)) int_cell ln|r - r'| d^2 r'
// as the 3D integrated Green's function (IntegratedGreenFunction.hh), from the primitive
//   F(x, y) = [x y ln(x^2 + y^2) - 3 x y + x^2 atan(y/x) + y^2 atan(x/y)] / 2,   d^2 F/dx dy = ln r,
// evaluated at x, y >= 0; the cell of offset 0 is four times its quarter (ln r is even in x and y).
#pragma once

#include <cmath>

#include "kernels/core/Macros.hh"
#include "kernels/spacecharge/GridGeometry.hh"
#include "kernels/spacecharge/IntegratedGreenFunction.hh"

namespace gt {

//! The primitive F above, for x, y >= 0.
GT_HOST_DEVICE inline double igf2_primitive(double x, double y)
{
    double f = 0.0;
    if (x > 0.0 && y > 0.0) f += x * y * (::log(x * x + y * y) - 3.0);
    if (x > 0.0) f += x * x * ::atan(y / x);
    if (y > 0.0) f += y * y * ::atan(x / y);
    return 0.5 * f;
}

//! F at the (nx + 2) x (ny + 2) corners 0, h/2, 3h/2, ... (x fastest).
struct IgfCorners2D {
    GridGeometry grid;
    double* corners;
    GT_HOST_DEVICE void operator()(size_type n) const
    {
        int const cx = grid.nx + 2;
        int const a = static_cast<int>(n % size_type(cx));
        int const b = static_cast<int>(n / size_type(cx));
        corners[n] = igf2_primitive(igf_corner(a, grid.hx), igf_corner(b, grid.hy));
    }
};

//! G on the doubled 2nx x 2ny grid from the corners (offsets 0..n, then -(n-1)..-1).
struct IgfDoubledGrid2D {
    GridGeometry grid;
    double const* corners;
    double* green;
    GT_HOST_DEVICE void operator()(size_type n) const
    {
        int const nx2 = 2 * grid.nx;
        int const i = IgfDoubledGrid::offset(static_cast<int>(n % size_type(nx2)), grid.nx);
        int const j = IgfDoubledGrid::offset(static_cast<int>(n / size_type(nx2)), grid.ny);
        size_type const cx = size_type(grid.nx + 2);
        auto const at = [&](int a, int b) { return corners[size_type(b) * cx + size_type(a)]; };
        double const sum = (at(i + 1, j + 1) - at(i, j + 1)) - (at(i + 1, j) - at(i, j));
        double const factor = (i == 0 ? 2.0 : 1.0) * (j == 0 ? 2.0 : 1.0);
        green[n] = factor * sum / (grid.hx * grid.hy);
    }
};

}  // namespace gt
