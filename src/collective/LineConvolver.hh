// Zero-padded FFT convolutions on the longitudinal grid (real-to-complex, 2n points; FFTW on the host
// or cuFFT on the GPU, kernels/collective/LineFft.hh): a kernel against a histogram, free of the
// periodic wrap-around (Hockney's doubling in one dimension, kernels/spacecharge/HockneyConvolution.hh),
// and a spectral filter (the LSC impedance).
#pragma once

#include <complex>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

#include "kernels/collective/LineFft.hh"

namespace gt {

class LineConvolver {
  public:
    //! fft: the transforms (nullptr: FFTW, make_fftw_line_fft).
    explicit LineConvolver(std::unique_ptr<LineFft> fft = nullptr);
    LineConvolver(LineConvolver const&) = delete;
    LineConvolver& operator=(LineConvolver const&) = delete;
    ~LineConvolver();

    //! out_i = sum_j kernel(i - j) source_j for i, j in [0, n): `kernel` holds 2n values, offsets
    //! 0 ... n - 1 at [0, n) and offsets -(n - 1) ... -1 at [n + 1, 2n) ([n] unused, zero).
    std::vector<double> convolve(std::vector<double> const& kernel, std::vector<double> const& source);

    //! The inverse transform of response(m) times the transform of `source` zero-padded to 2n, for
    //! the harmonics m = 0 ... n of the padded grid (wavenumber 2 pi m / (2 n h)); first n values.
    std::vector<double> filter(std::vector<double> const& source,
                               std::function<std::complex<double>(int)> const& response);

    LineFft const& fft() const { return *fft_; }

  private:
    std::unique_ptr<LineFft> fft_;
    std::vector<double> real_;                   //!< 2n
    std::vector<std::complex<double>> spectrum_;  //!< n + 1
};

//! The 2n-value kernel layout of LineConvolver::convolve for a function of the distance between a
//! test particle and its source along the bunch, averaged over each node offset with the
//! cloud-in-cell triangle (consistent with a piecewise-linear density; integrable singularities at
//! 0 such as u^-1/2 and u^-1/3 are fine): K_m = (1/hs) int_0^inf f(u) tri(u/hs - m) du.
//!  trailing = true: f acts on particles behind the source (wakes; larger t, offset +m);
//!  trailing = false: on particles ahead of it (CSR; offset -m).
//! hs [m]: the distance between nodes, beta times the spacing in t.
//! cut [m]: f is zero for u >= cut (the CSR transients' finite reach), integrated exactly up to it.
std::vector<double> line_kernel(std::function<double(double)> const& f, double hs, int n, bool trailing,
                                double cut = std::numeric_limits<double>::infinity());

}  // namespace gt
