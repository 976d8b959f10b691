// NAFF: the frequencies of a turn-by-turn signal by Laskar's numerical analysis of fundamental frequencies.
//
// Method (J. Laskar, "Frequency analysis for multi-dimensional systems. Global dynamics and diffusion",
// Physica D 67 (1993) 257; "Frequency map analysis and quasiperiodic decompositions", in Hamiltonian
// systems and Fourier analysis, Cambridge Sci. Publ. 2005, arXiv:math/0305364):
//   1. the complex signal f_n (n = 0 ... N-1, e.g. x - i px in normalized coordinates) is multiplied by
//      the Hann window of order p, chi_p(t) = (1 + cos(pi t))^p, t = (2n - (N-1))/N in (-1, 1);
//   2. the windowed signal's FFT (zero-padded to M = 2^k >= N) gives the peak bin: a first guess of the
//      frequency to 1/M;
//   3. the frequency is refined by maximizing |phi(w)| = |sum_n chi_p(t_n) f_n exp(-2 pi i w n)| within
//      +-1/M of the bin: the zero of d|phi|^2/dw = 2 Re(phi* dphi/dw), found by bisection (the argmax of a
//      flat maximum itself is only located to sqrt(eps); the zero of its derivative to eps);
//   4. the tone's complex amplitude phi(nu) / sum chi_p is subtracted from the windowed signal and the
//      next tone is sought in the remainder.
// Accuracy (Laskar 2005, Thm. 3 and section 4): the error of a frequency from the other tones' leakage
// falls as N^-(2p+2) with the Hann window of order p (N^-4 for p = 1), against N^-1 for the FFT peak;
// a pure tone (complex exponential) is found to round-off, since |phi| is then even about nu.
//
// A GT_HOST_DEVICE function of one particle's samples: the same operations in the same order on the CPU
// and the GPU (the only transcendentals are PortableMath's sincos), so tunes are the same bits.
#pragma once

#include <cstdint>

#include "kernels/core/Macros.hh"
#include "kernels/core/PortableMath.hh"

namespace gt::naff {

inline constexpr double k_two_pi = 6.283185307179586476925;
inline constexpr double k_pi = 3.141592653589793238463;

//! One tone of a signal: f_n ~ amplitude exp(2 pi i frequency n).
struct Tone {
    double frequency = 0;  //!< [1/turn] in [0, 1)
    double amp_re = 0;     //!< real part of the complex amplitude
    double amp_im = 0;     //!< imaginary part
};

//! The FFT length for N samples: the smallest power of two >= N.
GT_HOST_DEVICE inline std::int64_t fft_length(std::int64_t n)
{
    std::int64_t m = 1;
    while (m < n) m *= 2;
    return m;
}

//! Doubles of scratch naff() needs for N samples: the windowed remainder (2N) and the FFT (2M).
GT_HOST_DEVICE inline std::int64_t scratch_size(std::int64_t n) { return 2 * n + 2 * fft_length(n); }

//! The Hann window of order p at sample n of N.
GT_HOST_DEVICE inline double hann(std::int64_t n, std::int64_t count, int order)
{
    double const t = static_cast<double>(2 * n - (count - 1)) / static_cast<double>(count);
    double const base = 1.0 + pmath::cos(k_pi * t);
    double w = 1.0;
    for (int k = 0; k < order; ++k) w *= base;
    return w;
}

namespace detail {

//! In-place radix-2 FFT (decimation in time, forward: exp(-2 pi i k n / M)) of M complex values stored
//! re, im interleaved. Twiddles from PortableMath, so both backends round alike.
GT_HOST_DEVICE inline void fft(double* a, std::int64_t m)
{
    for (std::int64_t i = 1, j = 0; i < m; ++i) {  // bit reversal
        std::int64_t bit = m >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) {
            double const tr = a[2 * i], ti = a[2 * i + 1];
            a[2 * i] = a[2 * j];
            a[2 * i + 1] = a[2 * j + 1];
            a[2 * j] = tr;
            a[2 * j + 1] = ti;
        }
    }
    for (std::int64_t len = 2; len <= m; len *= 2) {
        std::int64_t const half = len / 2;
        for (std::int64_t k = 0; k < half; ++k) {
            double ws = 0, wc = 0;
            pmath::sincos(-k_two_pi * static_cast<double>(k) / static_cast<double>(len), ws, wc);
            for (std::int64_t s = 0; s < m; s += len) {
                double* u = a + 2 * (s + k);
                double* v = a + 2 * (s + k + half);
                double const vr = v[0] * wc - v[1] * ws, vi = v[0] * ws + v[1] * wc;
                v[0] = u[0] - vr;
                v[1] = u[1] - vi;
                u[0] += vr;
                u[1] += vi;
            }
        }
    }
}

//! phi(w) = sum_n g_n exp(-2 pi i w n) and its derivative in w, of the windowed signal g (interleaved).
//! The phase exp(-2 pi i w n) is taken exactly every 32 samples and by rotation in between (round-off
//! of the recurrence stays below 1e-14 over 32 steps).
GT_HOST_DEVICE inline void projection(double const* g, std::int64_t n, double w, double& pr, double& pi,
                                      double& dr, double& di)
{
    double sr = 0, si = 0, tr = 0, ti = 0;
    double step_s = 0, step_c = 0;
    pmath::sincos(-k_two_pi * w, step_s, step_c);
    double er = 1, ei = 0;
    for (std::int64_t k = 0; k < n; ++k) {
        if ((k & 31) == 0) pmath::sincos(-k_two_pi * w * static_cast<double>(k), ei, er);
        double const gr = g[2 * k], gi = g[2 * k + 1];
        double const zr = gr * er - gi * ei, zi = gr * ei + gi * er;
        sr += zr;
        si += zi;
        double const kk = static_cast<double>(k);
        tr += kk * zr;
        ti += kk * zi;
        double const nr = er * step_c - ei * step_s;
        ei = er * step_s + ei * step_c;
        er = nr;
    }
    pr = sr;
    pi = si;
    // d/dw of exp(-2 pi i w n) is -2 pi i n exp(...): -2 pi i (tr + i ti) = 2 pi (ti - i tr).
    dr = k_two_pi * ti;
    di = -k_two_pi * tr;
}

//! d|phi|^2/dw / 2 at w.
GT_HOST_DEVICE inline double slope(double const* g, std::int64_t n, double w)
{
    double pr, pi, dr, di;
    projection(g, n, w, pr, pi, dr, di);
    return pr * dr + pi * di;
}

}  // namespace detail

//! The `tones` strongest frequencies of f_n = re[n*stride] + i im[n*stride], n < count, with the Hann
//! window of order `order` (>= 1: without a window the refinement has no bracket), in decreasing order of
//! found strength (the first is the dominant one). `scratch` holds scratch_size(count) doubles. `im` may be
//! null (a real signal: its spectrum is symmetric, and the tone found in [0, 0.5] is returned). Returns the
//! number of tones found (fewer when the remainder vanishes or a sample is not finite: then 0).
GT_HOST_DEVICE inline int analyse(double const* re, double const* im, std::int64_t stride, std::int64_t count,
                                  int order, int tones, double* scratch, Tone* out)
{
    if (count < 2) return 0;
    std::int64_t const m = fft_length(count);
    double* g = scratch;              // windowed remainder, 2 count
    double* f = scratch + 2 * count;  // FFT work, 2 m
    double wsum = 0;
    for (std::int64_t k = 0; k < count; ++k) {
        double const w = hann(k, count, order);
        double const r = re[k * stride], i = im ? im[k * stride] : 0.0;
        if (!(r - r == 0.0) || !(i - i == 0.0)) return 0;
        g[2 * k] = w * r;
        g[2 * k + 1] = w * i;
        wsum += w;
    }
    bool const real = im == nullptr;
    int found = 0;
    for (int t = 0; t < tones; ++t) {
        for (std::int64_t k = 0; k < 2 * m; ++k) f[k] = k < 2 * count ? g[k] : 0.0;
        detail::fft(f, m);
        std::int64_t best = -1;
        double best_p = 0;
        std::int64_t const last = real ? m / 2 : m - 1;
        for (std::int64_t k = 0; k <= last; ++k) {
            double const p = f[2 * k] * f[2 * k] + f[2 * k + 1] * f[2 * k + 1];
            if (p > best_p) {
                best_p = p;
                best = k;
            }
        }
        if (best < 0) break;
        double const bin = 1.0 / static_cast<double>(m);
        double lo = static_cast<double>(best) * bin - bin, hi = lo + 2.0 * bin;
        double nu = static_cast<double>(best) * bin;
        double s_lo = detail::slope(g, count, lo), s_hi = detail::slope(g, count, hi);
        if (s_lo > 0 && s_hi < 0) {
            // Bisection of the slope to the resolution of doubles: 2/M halved 60 times is below eps.
            for (int it = 0; it < 60; ++it) {
                double const mid = 0.5 * (lo + hi);
                if (mid <= lo || mid >= hi) break;
                if (detail::slope(g, count, mid) > 0)
                    lo = mid;
                else
                    hi = mid;
            }
            nu = 0.5 * (lo + hi);
        }
        double pr, pi, dr, di;
        detail::projection(g, count, nu, pr, pi, dr, di);
        double const ar = pr / wsum, ai = pi / wsum;
        // Subtract the tone (windowed) from the remainder.
        double step_s = 0, step_c = 0;
        pmath::sincos(k_two_pi * nu, step_s, step_c);
        double er = 1, ei = 0;
        for (std::int64_t k = 0; k < count; ++k) {
            if ((k & 31) == 0) pmath::sincos(k_two_pi * nu * static_cast<double>(k), ei, er);
            double const w = hann(k, count, order);
            g[2 * k] -= w * (ar * er - ai * ei);
            g[2 * k + 1] -= w * (ar * ei + ai * er);
            double const nr = er * step_c - ei * step_s;
            ei = er * step_s + ei * step_c;
            er = nr;
        }
        double fr = nu - pmath::floor(nu);
        if (fr >= 1.0) fr = 0.0;
        out[found++] = Tone{fr, ar, ai};
    }
    return found;
}

//! The dominant frequency of one signal (NaN when there is none): a particle's tune from its turn-by-turn
//! x and px (normalized), analysed as x - i px so that the betatron rotation is a positive frequency;
//! `amplitude` (if given) receives the tone's amplitude (0 when there is none).
GT_HOST_DEVICE inline double tune(double const* x, double const* px, std::int64_t stride, std::int64_t count,
                                  int order, double* scratch, double* amplitude = nullptr)
{
    Tone t;
    if (amplitude) *amplitude = 0.0;
    if (px == nullptr) {
        if (analyse(x, nullptr, stride, count, order, 1, scratch, &t) != 1) return NAN;
        if (amplitude) *amplitude = pmath::sqrt(t.amp_re * t.amp_re + t.amp_im * t.amp_im);
        return t.frequency;
    }
    // x - i px: negate px on the fly by analysing the conjugate's mirror frequency.
    if (analyse(x, px, stride, count, order, 1, scratch, &t) != 1) return NAN;
    if (amplitude) *amplitude = pmath::sqrt(t.amp_re * t.amp_re + t.amp_im * t.amp_im);
    // x + i px has frequency -Q: the tune of x - i px is 1 - nu.
    double q = 1.0 - t.frequency;
    if (q >= 1.0) q -= 1.0;
    return q;
}

}  // namespace gt::naff
