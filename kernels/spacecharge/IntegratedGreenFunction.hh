// The integrated Green's function (IGF) of the open-boundary Poisson problem on Hockney's doubled grid.
//
// With the charge Q_j of node j spread uniformly over its cell, the potential at node i is
//   phi_i = 1/(4 pi eps0) sum_j Q_j G(r_i - r_j),   G(r) = (1/V) int_cell 1/|r - r'| d^3r'
// (V = hx hy hz): the average of 1/r over the cell centred at offset r. This stays finite at r = 0
// and is accurate for cells of any aspect ratio, where the point value 1/r is not (Qiang, Lidia,
// Ryne & Limborg, Phys. Rev. ST Accel. Beams 9, 044204 (2006); Qiang, Comput. Phys. Commun. 203
// (2016) 122). The cell integral is the eight-corner difference of a primitive F of 1/r,
// d^3 F / dx dy dz = 1/r:
//   F(x,y,z) = yz ln(x + r) + xz ln(y + r) + xy ln(z + r)
//              - x^2/2 atan(yz/(x r)) - y^2/2 atan(xz/(y r)) - z^2/2 atan(xy/(z r)).
// F is only evaluated at x, y, z >= 0: the cell of offset 0 spans [-h/2, h/2], whose integral is
// twice that over [0, h/2] because 1/r is even in each coordinate.
//
// Hockney's method (Hockney & Eastwood, 1988, section 6-5-2): G on the doubled grid holds the offsets
// 0..n at indices 0..n and the negative offsets -(n-1)..-1 at indices n+1..2n-1 (G is even), so that
// the cyclic convolution of the zero-padded charge with G equals the open-boundary sum on the grid,
// and, because index n holds offset n, also one node beyond each end (indices -1 = 2n-1 and n).
#pragma once

#include <cmath>

#include "kernels/core/Macros.hh"
#include "kernels/spacecharge/GridGeometry.hh"

namespace gt {

//! The primitive F above, for x, y, z >= 0 (terms whose prefactor vanishes are exactly zero).
GT_HOST_DEVICE inline double igf_primitive(double x, double y, double z)
{
    double const r = ::sqrt(x * x + y * y + z * z);
    double f = 0.0;
    if (y > 0.0 && z > 0.0) f += y * z * ::log(x + r);
    if (x > 0.0 && z > 0.0) f += x * z * ::log(y + r);
    if (x > 0.0 && y > 0.0) f += x * y * ::log(z + r);
    if (x > 0.0) f -= 0.5 * x * x * ::atan(y * z / (x * r));
    if (y > 0.0) f -= 0.5 * y * y * ::atan(x * z / (y * r));
    if (z > 0.0) f -= 0.5 * z * z * ::atan(x * y / (z * r));
    return f;
}

//! Corner c of the primitive lattice along one dimension: 0, h/2, 3h/2, ..., (n + 1/2) h.
GT_HOST_DEVICE GT_FORCEINLINE double igf_corner(int c, double h)
{
    return c == 0 ? 0.0 : (double(c) - 0.5) * h;
}

//! F at every corner of the lattice of (nx + 2) x (ny + 2) x (nz + 2) corners (x fastest).
struct IgfCorners {
    GridGeometry grid;
    double* corners;
    GT_HOST_DEVICE void operator()(size_type n) const
    {
        int const cx = grid.nx + 2, cy = grid.ny + 2;
        int const a = static_cast<int>(n % size_type(cx));
        int const b = static_cast<int>((n / size_type(cx)) % size_type(cy));
        int const c = static_cast<int>(n / (size_type(cx) * size_type(cy)));
        corners[n] = igf_primitive(igf_corner(a, grid.hx), igf_corner(b, grid.hy), igf_corner(c, grid.hz));
    }
};

//! G on the doubled grid from the corner lattice: one value per doubled-grid index.
struct IgfDoubledGrid {
    GridGeometry grid;
    double const* corners;
    double* green;
    GT_HOST_DEVICE static int offset(int index, int n) { return index <= n ? index : 2 * n - index; }
    GT_HOST_DEVICE void operator()(size_type n) const
    {
        int const nx2 = 2 * grid.nx, ny2 = 2 * grid.ny;
        int const i = offset(static_cast<int>(n % size_type(nx2)), grid.nx);
        int const j = offset(static_cast<int>((n / size_type(nx2)) % size_type(ny2)), grid.ny);
        int const k = offset(static_cast<int>(n / (size_type(nx2) * size_type(ny2))), grid.nz);
        size_type const cx = size_type(grid.nx + 2), cy = size_type(grid.ny + 2);
        auto const at = [&](int a, int b, int c) {
            return corners[(size_type(c) * cy + size_type(b)) * cx + size_type(a)];
        };
        // Eight-corner difference over [i, i+1] x [j, j+1] x [k, k+1] of the corner lattice.
        double const sum =
            ((at(i + 1, j + 1, k + 1) - at(i, j + 1, k + 1)) - (at(i + 1, j, k + 1) - at(i, j, k + 1))) -
            ((at(i + 1, j + 1, k) - at(i, j + 1, k)) - (at(i + 1, j, k) - at(i, j, k)));
        double const factor = (i == 0 ? 2.0 : 1.0) * (j == 0 ? 2.0 : 1.0) * (k == 0 ? 2.0 : 1.0);
        green[n] = factor * sum / grid.cell_volume();
    }
};

}  // namespace gt
