// The charge grid of one space-charge kick: nodes, spacing and origin in the beam rest frame.
//
// Nodes sit at (x0 + i hx, y0 + j hy, z0 + k hz) for i < nx, j < ny, k < nz; node (i, j, k) is
// element (k ny + j) nx + i of every node array (x fastest, the row-major layout FFTW and cuFFT use
// for dimensions (nz, ny, nx)). z is the rest-frame longitudinal coordinate (RestFrame.hh).
#pragma once

#include <cstdint>

#include "kernels/core/Macros.hh"
#include "kernels/core/Types.hh"

namespace gt {

struct GridGeometry {
    int nx = 0, ny = 0, nz = 0;     //!< nodes per dimension
    double x0 = 0, y0 = 0, z0 = 0;  //!< position of node (0, 0, 0) [m]
    double hx = 0, hy = 0, hz = 0;  //!< node spacing [m]

    GT_HOST_DEVICE size_type nodes() const { return size_type(nx) * size_type(ny) * size_type(nz); }
    GT_HOST_DEVICE size_type index(int i, int j, int k) const
    {
        return (size_type(k) * size_type(ny) + size_type(j)) * size_type(nx) + size_type(i);
    }
    GT_HOST_DEVICE double cell_volume() const { return hx * hy * hz; }
    //! Same node count and spacing: the Green's function of one is the Green's function of the other.
    bool same_green_function(GridGeometry const& o) const
    {
        return nx == o.nx && ny == o.ny && nz == o.nz && hx == o.hx && hy == o.hy && hz == o.hz;
    }
};

//! The doubled grid of Hockney's method: 2nx x 2ny x 2nz real values, and its half spectrum
//! 2nz x 2ny x (nx + 1) complex values (the r2c layout of FFTW and cuFFT).
struct DoubledGrid {
    int nx2 = 0, ny2 = 0, nz2 = 0;

    GT_HOST_DEVICE static DoubledGrid of(GridGeometry const& g) { return {2 * g.nx, 2 * g.ny, 2 * g.nz}; }
    GT_HOST_DEVICE size_type real_size() const { return size_type(nx2) * size_type(ny2) * size_type(nz2); }
    GT_HOST_DEVICE size_type complex_size() const
    {
        return size_type(nx2 / 2 + 1) * size_type(ny2) * size_type(nz2);
    }
    GT_HOST_DEVICE size_type index(int i, int j, int k) const
    {
        return (size_type(k) * size_type(ny2) + size_type(j)) * size_type(nx2) + size_type(i);
    }
};

//! A complex number laid out as FFTW's fftw_complex and cuFFT's cufftDoubleComplex.
struct Complex {
    double re, im;
};

}  // namespace gt
