// Counted work of the space-charge stages, in one place: what the solver's timers record and what
// the forecast prices (bytes moved and FP64 operations per kick).
//
// FP64 operations are counted as in ElementWork.hh (add, subtract, multiply, divide one each).
// A particle's stencil (ShapeFunction.hh, DepositGeometry): (x - x0) / h per axis and the rest-frame
// z (7), then the weights: CIC 2 per axis (f, 1 - f), TSC 9 per axis (d, 1/2 -+ d, three weights).
// A real-to-complex or complex-to-real FFT of M real points is counted 2.5 M log2 M, half the usual
// 5 N log2 N of a complex FFT of N points (the operation count of the radix-2 Cooley-Tukey algorithm;
// cuFFT and FFTW do fewer, so FFT GFLOP/s figures are "FFT-equivalent" rates, as FFT benchmarks
// quote them). The integrated Green's function's corner values (logarithms and arc tangents through
// PortableMath) are not counted: the transform dominates the stage.
#pragma once

#include <cmath>

namespace gt::sc_work {

inline double stencil_flops(int w) { return 7.0 + 3.0 * (w == 2 ? 2.0 : 9.0); }

//! One r2c or c2r transform of `real_points` points.
inline double fft_flops(double real_points) { return 2.5 * real_points * std::log2(real_points); }

// Sort: x, y, t and the loss flag read (28 B), the packed position (32 B) and the key (4 B) written;
// the radix sort ~4 passes over key + value. The particles are not moved. Integer work only.
inline double sort_bytes(double n) { return n * (28.0 + 36.0 + 4.0 * 16.0); }

//! Deposit: 3 coordinates + loss flag read (in the particles' order, or one packed 32-byte record
//! through the order, counted alike) and W^3 nodes read-modify-written per particle; the nodes cleared
//! and converted (24 B each).
inline double deposit_bytes(double n, int w, double nodes)
{
    return n * (28.0 + 16.0 * w * w * w) + 24.0 * nodes;
}
//! The stencil, two products per node weight and one add (or fixed-point scaling) per node; the
//! node charges one multiply each.
inline double deposit_flops(double n, int w, double nodes)
{
    return n * (stencil_flops(w) + 3.0 * w * w * w) + nodes;
}

//! Solve: pad (read 1, write 8 per node), two FFTs (each ~ read + write of both arrays), the product.
inline double solve_bytes(double nodes, double real, double complex)
{
    return 8.0 * nodes + 2.0 * (8.0 * real + 16.0 * complex) * 2.0 + 48.0 * complex;
}
//! Two transforms and a complex product (4 multiplies, 2 adds) per spectral point.
inline double solve_flops(double real, double complex) { return 2.0 * fft_flops(real) + 6.0 * complex; }

inline double green_bytes(double corners, double real, double complex)
{
    return 8.0 * corners + 16.0 * real + 32.0 * complex;
}
inline double green_flops(double real) { return fft_flops(real); }

//! E = -grad phi: three central differences (subtract, multiply) per node.
inline double field_bytes(double nodes) { return 48.0 * nodes; }
inline double field_flops(double nodes) { return 6.0 * nodes; }

//! Gather and kick, one pass: 3 coordinates + loss flag read, W^3 nodes of 32 B read (NodeField: a
//! sector a node), 3 momenta read and written per particle.
inline double gather_kick_bytes(double n, int w) { return n * (28.0 + 32.0 * w * w * w + 48.0); }
//! The stencil, two products per node weight, a multiply-add per field and node, and three momentum
//! kicks (multiply, add).
inline double gather_kick_flops(double n, int w) { return n * (stencil_flops(w) + 8.0 * w * w * w + 6.0); }

}  // namespace gt::sc_work
