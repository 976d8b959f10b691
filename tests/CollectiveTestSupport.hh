// Helpers for the collective-effect tests: quiet Gaussian bunches, beam frames, the direct O(n^2)
// convolution that the FFT one is checked against, and analytic Gaussian integrals.
#pragma once

#include <cmath>
#include <random>
#include <vector>

#include <doctest/doctest.h>

#include "Relative.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/Types.hh"
#include "kernels/spacecharge/BeamFrame.hh"

namespace gt::test {

//! A beam frame of the species (rest energy [MeV], charge [e]) at `kinetic_mev`; the bunch charge
//! |bunch_charge| [C] shared by `macroparticles`.
inline BeamFrame collective_frame(double mass_mev, double charge_e, double kinetic_mev, double bunch_charge,
                                  double macroparticles)
{
    BeamFrame f;
    f.gamma = 1.0 + kinetic_mev / mass_mev;
    f.beta = std::sqrt(1.0 - 1.0 / (f.gamma * f.gamma));
    f.charge = charge_e * constants::e_charge;
    f.mass = mass_mev * 1e6 * constants::e_charge / (constants::c_light * constants::c_light);
    f.macro_charge = (charge_e < 0 ? -1.0 : 1.0) * bunch_charge / macroparticles;
    return f;
}

//! The standard normal quantile, by Newton's method on erfc (to round-off).
inline double normal_quantile(double p)
{
    double x = 0;
    for (int it = 0; it < 100; ++it) {
        double const cdf = 0.5 * std::erfc(-x / std::sqrt(2.0));
        double const pdf = std::exp(-0.5 * x * x) / std::sqrt(constants::two_pi);
        double const dx = (cdf - p) / pdf;
        x -= dx;
        if (std::abs(dx) < 1e-15 * (1.0 + std::abs(x))) break;
    }
    return x;
}

//! A host bunch of n particles with t at the Gaussian quantiles (i + 1/2)/n times sigma_t (a quiet,
//! noise-free line density), x = x0, y = y0, all momenta 0.
inline ParticleState quiet_gaussian_bunch(size_type n, double sigma_t, double x0 = 0, double y0 = 0)
{
    ParticleState s(n, MemSpace::host);
    ParticleView v = s.view();
    for (size_type i = 0; i < n; ++i) {
        v.x[i] = x0;
        v.y[i] = y0;
        v.px[i] = v.py[i] = v.pt[i] = 0;
        v.t[i] = sigma_t * normal_quantile((double(i) + 0.5) / double(n));
        v.id[i] = i;
        v.lost_element[i] = -1;
        v.lost_turn[i] = -1;
    }
    return s;
}

//! A noisy Gaussian bunch (sigma_t 1 mm, x offset by 0.2 mm), every 10th particle lost.
inline ParticleState noisy_bunch(size_type n, unsigned seed)
{
    ParticleState s(n, MemSpace::host);
    ParticleView v = s.view();
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> g(0.0, 1.0);
    for (size_type i = 0; i < n; ++i) {
        v.x[i] = 1e-3 * g(rng) + 2e-4;
        v.y[i] = 5e-4 * g(rng);
        v.t[i] = 1e-3 * g(rng);
        v.px[i] = v.py[i] = v.pt[i] = 0;
        v.id[i] = i;
        v.lost_element[i] = i % 10 == 3 ? 7 : -1;
        v.lost_turn[i] = i % 10 == 3 ? 0 : -1;
    }
    return s;
}

//! out_i = sum_j kernel(i - j) source_j in LineConvolver's 2n layout: the O(n^2) oracle.
inline std::vector<double> direct_convolution(std::vector<double> const& kernel,
                                              std::vector<double> const& source)
{
    long const n = static_cast<long>(source.size());
    std::vector<double> out(source.size(), 0.0);
    for (long i = 0; i < n; ++i)
        for (long j = 0; j < n; ++j) {
            long const d = i - j;
            out[std::size_t(i)] += kernel[std::size_t(d >= 0 ? d : 2 * n + d)] * source[std::size_t(j)];
        }
    return out;
}

}  // namespace gt::test
