// Normal modes of a one-turn matrix (see ModeAnalysis.hh).
#include "optics/ModeAnalysis.hh"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "kernels/core/Types.hh"

namespace gt::optics {

namespace {

using constants::two_pi;

//! Solves (a) x = b for a complex n x n system by Gaussian elimination with partial pivoting. A zero
//! pivot (an exactly singular shifted matrix) is replaced by a tiny one: inverse iteration only needs
//! the direction of the solution.
CVec6 solve(std::array<std::array<Complex, 6>, 6> a, CVec6 b, int n)
{
    for (int c = 0; c < n; ++c) {
        int piv = c;
        for (int r = c + 1; r < n; ++r)
            if (std::abs(a[r][c]) > std::abs(a[piv][c])) piv = r;
        std::swap(a[c], a[piv]);
        std::swap(b[c], b[piv]);
        if (std::abs(a[c][c]) == 0.0) a[c][c] = 1e-300;
        for (int r = c + 1; r < n; ++r) {
            Complex const f = a[r][c] / a[c][c];
            for (int k = c; k < n; ++k) a[r][k] -= f * a[c][k];
            b[r] -= f * b[c];
        }
    }
    CVec6 x{};
    for (int r = n - 1; r >= 0; --r) {
        Complex s = b[r];
        for (int k = r + 1; k < n; ++k) s -= a[r][k] * x[k];
        x[r] = s / a[r][r];
    }
    return x;
}

//! v^H J v over the first n entries (J: [[0, 1], [-1, 0]] per plane), and the share of plane p.
Complex symplectic_norm(CVec6 const& v, int n)
{
    Complex s = 0.0;
    for (int p = 0; p < n / 2; ++p)
        s += std::conj(v[2 * p]) * v[2 * p + 1] - std::conj(v[2 * p + 1]) * v[2 * p];
    return s;
}

RMat product(RMat const& a, RMat const& b, int n)
{
    RMat c{};
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            for (int k = 0; k < n; ++k) c[i][j] += a[i][k] * b[k][j];
    return c;
}

double trace(RMat const& a, int n)
{
    double t = 0;
    for (int i = 0; i < n; ++i) t += a[i][i];
    return t;
}

}  // namespace

double plane_action(CVec6 const& v, int p) { return std::imag(std::conj(v[2 * p]) * v[2 * p + 1]); }

CVec6 eigenvector(RMat const& m, int n, Complex lambda)
{
    std::array<std::array<Complex, 6>, 6> a{};
    Complex const shift = lambda * (1.0 + 1e-9);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) a[i][j] = m[i][j];
        a[i][i] -= shift;
    }
    CVec6 v{};
    for (int i = 0; i < n; ++i) v[i] = Complex(1.0 + 0.1 * i, 0.3 - 0.05 * i);
    for (int it = 0; it < 4; ++it) {
        v = solve(a, v, n);
        double norm = 0;
        for (int i = 0; i < n; ++i) norm = std::max(norm, std::abs(v[i]));
        for (int i = 0; i < n; ++i) v[i] /= norm;
    }
    return v;
}

char const* plane_name(int plane) { return plane == 0 ? "x" : plane == 1 ? "y" : "longitudinal"; }

CVec6 twiss_vector(double beta, double alpha, int plane)
{
    CVec6 v{};
    double const r = std::sqrt(beta);
    v[2 * plane] = Complex(r / std::sqrt(2.0), 0.0);
    v[2 * plane + 1] = Complex(-alpha, 1.0) / (r * std::sqrt(2.0));
    return v;
}

Mode plane_mode(RMat const& m, int plane)
{
    int const q = 2 * plane;
    double const c = 0.5 * (m[q][q] + m[q + 1][q + 1]);
    if (!(std::abs(c) < 1.0))
        throw std::runtime_error(
            fmt::format("no periodic solution in the {} plane: the one-turn matrix has |cos mu| = |(M{}{} + "
                        "M{}{})/2| = {:.9g} "
                        ">= 1 (an unstable lattice{})",
                        plane_name(plane), q + 1, q + 1, q + 2, q + 2, std::abs(c),
                        std::abs(c) < 1.0 + 1e-9 ? ", or a tune on a half-integer or integer" : ""));
    double const s = std::copysign(std::sqrt(1.0 - c * c), m[q][q + 1]);
    double const beta = m[q][q + 1] / s;
    double const alpha = (m[q][q] - m[q + 1][q + 1]) / (2.0 * s);
    Mode mode;
    mode.mu = std::atan2(s, c);
    if (mode.mu < 0) mode.mu += two_pi;
    mode.v = twiss_vector(beta, alpha, plane);
    mode.plane = plane;
    return mode;
}

std::vector<Mode> normal_modes(RMat const& m, int n, bool distinct)
{
    // Characteristic polynomial by Faddeev-LeVerrier: p(l) = l^n + c1 l^(n-1) + ... For a symplectic
    // matrix it is palindromic, so u = l + 1/l = 2 cos mu solves a polynomial of degree n/2:
    //   n = 4: u^2 + c1 u + (c2 - 2) = 0;  n = 6: u^3 + c1 u^2 + (c2 - 3) u + (c3 - 2 c1) = 0.
    RMat const m2 = product(m, m, n), m3 = product(m2, m, n);
    double const t1 = trace(m, n), t2 = trace(m2, n), t3 = trace(m3, n);
    double const c1 = -t1, c2 = -(c1 * t1 + t2) / 2.0, c3 = -(c2 * t1 + c1 * t2 + t3) / 3.0;
    std::vector<Complex> us;
    if (n == 4) {
        Complex const disc = std::sqrt(Complex(c1 * c1 - 4.0 * (c2 - 2.0), 0.0));
        us = {(-c1 + disc) / 2.0, (-c1 - disc) / 2.0};
    } else if (n == 6) {
        // Depressed cubic u = w - c1/3, w^3 + p w + q = 0; three real roots when stable.
        double const a = c1, b = c2 - 3.0, c = c3 - 2.0 * c1;
        double const p = b - a * a / 3.0, q = 2.0 * a * a * a / 27.0 - a * b / 3.0 + c;
        // Three real roots: 4 p^3 + 27 q^2 <= 0; a double root (two planes of equal tune) makes it zero,
        // to rounding, so a small positive value relative to its terms is still taken as real.
        double const disc = 4.0 * p * p * p + 27.0 * q * q;
        if (p < 0.0 && disc <= 1e-9 * (std::abs(4.0 * p * p * p) + 27.0 * q * q)) {
            double const r = 2.0 * std::sqrt(-p / 3.0);
            double const phi = std::acos(std::clamp(3.0 * q / (p * r), -1.0, 1.0)) / 3.0;
            for (int k = 0; k < 3; ++k) us.emplace_back(r * std::cos(phi - two_pi * k / 3.0) - a / 3.0, 0.0);
        } else {
            throw std::runtime_error(
                "no periodic solution in 6D: the one-turn matrix with RF has complex 2 cos mu (an unstable "
                "synchrotron or coupled motion)");
        }
    } else {
        throw std::logic_error("normal_modes: n must be 4 or 6");
    }
    std::vector<Mode> modes;
    for (Complex u : us) {
        // Stable: u real in (-2, 2). Otherwise name the plane the mode lives in, as well as one can.
        bool const stable = std::abs(u.imag()) < 1e-9 && std::abs(u.real()) < 2.0;
        double const cmu = std::clamp(u.real() / 2.0, -1.0, 1.0);
        Complex const lambda(cmu, std::sqrt(1.0 - cmu * cmu));
        // Inverse iteration with a shift next to the eigenvalue.
        CVec6 v = eigenvector(m, n, lambda);
        int plane = 0;
        for (int p = 1; p < n / 2; ++p)
            if (std::abs(plane_action(v, p)) > std::abs(plane_action(v, plane))) plane = p;
        if (!stable)
            throw std::runtime_error(fmt::format(
                "no periodic solution in the {} plane (the mode mostly in {}): the one-turn matrix has "
                "2 cos mu = {:.9g}{:+.3g}i, outside [-2, 2] (an unstable lattice{})",
                plane_name(plane), plane_name(plane), u.real(), u.imag(),
                n == 6 ? ", or RF phased on the wrong side of transition" : ", or coupling resonance"));
        Mode mode;
        mode.mu = std::acos(cmu);
        // v^H J v = i for the eigenvalue exp(+i mu); the other sign of the product means the mode
        // turns the other way: take the conjugate pair, exp(-i mu) = exp(i (2 pi - mu)).
        Complex const sn = symplectic_norm(v, n);
        if (sn.imag() < 0) {
            for (int i = 0; i < n; ++i) v[i] = std::conj(v[i]);
            mode.mu = two_pi - mode.mu;
        }
        double const scale = 1.0 / std::sqrt(std::abs(symplectic_norm(v, n).imag()));
        // The phase of the vector: real and positive in its own plane's position.
        Complex const phase =
            std::abs(v[2 * plane]) > 0 ? std::conj(v[2 * plane]) / std::abs(v[2 * plane]) : 1.0;
        for (int i = 0; i < n; ++i) v[i] *= scale * phase;
        mode.v = v;
        mode.plane = plane;
        modes.push_back(mode);
    }
    std::sort(modes.begin(), modes.end(), [](Mode const& a, Mode const& b) { return a.plane < b.plane; });
    for (std::size_t k = 1; distinct && k < modes.size(); ++k)
        if (modes[k].plane == modes[k - 1].plane)
            throw std::runtime_error(fmt::format(
                "the one-turn matrix's modes cannot be told apart (two modes mostly in the {} plane: "
                "equal tunes with strong coupling); the optics of such a lattice is not computed",
                plane_name(modes[k].plane)));
    return modes;
}

}  // namespace gt::optics
