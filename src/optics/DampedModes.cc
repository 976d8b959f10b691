// Eigenvalues of a damped one-turn matrix (see DampedModes.hh).
#include "optics/DampedModes.hh"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "kernels/core/Types.hh"

namespace gt::optics {

namespace {

using Poly = std::array<double, 7>;  //!< p(l) = l^6 + c[1] l^5 + ... + c[6]; c[0] = 1

//! The characteristic polynomial of a 6x6 matrix from the traces t_k = tr(M^k) by Newton's identities
//! (Faddeev-LeVerrier): c_k = -(t_k + c_1 t_(k-1) + ... + c_(k-1) t_1) / k.
Poly characteristic(RMat const& m)
{
    std::array<double, 7> t{};
    RMat power = m;
    for (int k = 1; k <= 6; ++k) {
        for (int i = 0; i < 6; ++i) t[k] += power[i][i];
        RMat next{};
        for (int i = 0; i < 6; ++i)
            for (int j = 0; j < 6; ++j)
                for (int l = 0; l < 6; ++l) next[i][j] += power[i][l] * m[l][j];
        power = next;
    }
    Poly c{};
    c[0] = 1.0;
    for (int k = 1; k <= 6; ++k) {
        double s = t[k];
        for (int j = 1; j < k; ++j) s += c[j] * t[k - j];
        c[k] = -s / k;
    }
    return c;
}

//! p(z) and p'(z) by Horner's scheme.
void evaluate(Poly const& c, Complex z, Complex& p, Complex& dp)
{
    p = c[0];
    dp = 0.0;
    for (int k = 1; k <= 6; ++k) {
        dp = dp * z + p;
        p = p * z + c[k];
    }
}

//! The six roots by the Aberth-Ehrlich iteration (cubic convergence for simple roots, all at once),
//! started on the unit circle where the eigenvalues of a one-turn map lie, then two Newton steps.
std::array<Complex, 6> roots(Poly const& c)
{
    std::array<Complex, 6> z{};
    for (int k = 0; k < 6; ++k) z[k] = std::polar(1.0, 0.4 + constants::two_pi * k / 6.0);
    for (int it = 0; it < 500; ++it) {
        double largest = 0;
        for (int i = 0; i < 6; ++i) {
            Complex p, dp;
            evaluate(c, z[i], p, dp);
            if (p == 0.0) continue;
            Complex const ratio = p / dp;
            Complex sum = 0.0;
            for (int j = 0; j < 6; ++j)
                if (j != i) sum += 1.0 / (z[i] - z[j]);
            Complex const step = ratio / (1.0 - ratio * sum);
            z[i] -= step;
            largest = std::max(largest, std::abs(step));
        }
        if (largest < 1e-15) break;
    }
    for (Complex& r : z)
        for (int it = 0; it < 2; ++it) {
            Complex p, dp;
            evaluate(c, r, p, dp);
            if (dp != 0.0) r -= p / dp;
        }
    return z;
}

}  // namespace

std::vector<DampedMode> damped_modes(RMat const& m)
{
    std::array<Complex, 6> const all = roots(characteristic(m));
    std::vector<DampedMode> modes;
    for (Complex const& l : all) {
        // One of each conjugate pair; a real eigenvalue (|Im| at the iteration's noise) is no oscillation.
        if (!(l.imag() > 1e-12)) continue;
        DampedMode mode;
        mode.tune = std::arg(l) / constants::two_pi;
        mode.damping = -std::log(std::abs(l));
        CVec6 const v = eigenvector(m, 6, l);
        for (int p = 1; p < 3; ++p)
            if (std::abs(plane_action(v, p)) > std::abs(plane_action(v, mode.plane))) mode.plane = p;
        modes.push_back(mode);
    }
    if (modes.size() != 3)
        throw std::runtime_error(fmt::format(
            "the 6D one-turn matrix with RF and radiation has {} real eigenvalue(s): a mode that does not "
            "oscillate (RF phased on the wrong side of transition, or too little voltage)",
            2 * (3 - static_cast<int>(modes.size()))));
    std::sort(modes.begin(), modes.end(),
              [](DampedMode const& a, DampedMode const& b) { return a.plane < b.plane; });
    for (std::size_t k = 1; k < modes.size(); ++k)
        if (modes[k].plane == modes[k - 1].plane)
            throw std::runtime_error(fmt::format(
                "the 6D one-turn matrix's modes cannot be told apart (two modes mostly in the {} plane)",
                plane_name(modes[k].plane)));
    return modes;
}

}  // namespace gt::optics
