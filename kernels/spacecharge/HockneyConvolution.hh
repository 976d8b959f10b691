// The steps of Hockney's open-boundary convolution around the FFTs: zero-padding the node charges
// onto the doubled grid, multiplying the spectra, and reading the potential back.
//
// phi = 1/(4 pi eps0) IFFT(FFT(Q padded) FFT(G)) / (8 nx ny nz): FFTW and cuFFT leave the inverse
// transform unnormalized, so the 1/(2nx 2ny 2nz) is folded into `potential_scale`.
#pragma once

#include <cstdint>

#include "kernels/core/Macros.hh"
#include "kernels/core/Types.hh"
#include "kernels/spacecharge/ChargeDeposit.hh"
#include "kernels/spacecharge/GridGeometry.hh"

namespace gt {

//! Node charges [C] from the accumulated weights (double or fixed point), times the macro charge.
template <class Acc>
struct NodeCharge {
    Acc const* weights;
    double scale;  //!< macro charge [C], divided by k_fixed_point_unit for fixed point
    double* charge;
    GT_HOST_DEVICE void operator()(size_type n) const { charge[n] = static_cast<double>(weights[n]) * scale; }
};

//! The doubled real grid: node charges where the physical grid is, zeros elsewhere.
struct PadCharge {
    GridGeometry grid;
    double const* charge;
    double* padded;
    GT_HOST_DEVICE void operator()(size_type n) const
    {
        int const nx2 = 2 * grid.nx, ny2 = 2 * grid.ny;
        int const i = static_cast<int>(n % size_type(nx2));
        int const j = static_cast<int>((n / size_type(nx2)) % size_type(ny2));
        int const k = static_cast<int>(n / (size_type(nx2) * size_type(ny2)));
        bool const inside = i < grid.nx && j < grid.ny && k < grid.nz;
        padded[n] = inside ? charge[grid.index(i, j, k)] : 0.0;
    }
};

//! spectrum *= green_spectrum, element by element.
struct SpectralProduct {
    Complex* spectrum;
    Complex const* green;
    GT_HOST_DEVICE void operator()(size_type n) const
    {
        Complex const a = spectrum[n], b = green[n];
        spectrum[n] = Complex{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
    }
};

//! 1/(4 pi eps0) / (8 nx ny nz): turns the raw inverse transform into the potential [V].
inline double potential_scale(GridGeometry const& g)
{
    return 1.0 / (4.0 * constants::pi * constants::eps0 * 8.0 * double(g.nodes()));
}

}  // namespace gt
