// Longitudinal space charge: a small sinusoidal density modulation on a cold coasting beam in a
// drift oscillates at the plasma frequency that the LSC impedance predicts (linear theory).
#include <doctest/doctest.h>

#include <cmath>

#include "CollectiveTestSupport.hh"
#include "collective/CollectiveSolver.hh"

using namespace gt;

TEST_CASE("the LSC impedance in the long-wavelength limit is the g-factor model")
{
    // For k r_b / gamma << 1: E_z = -(g / (4 pi eps0 gamma^2)) d lambda / dz with
    // g = 2 [ln(2 gamma / (k r_b)) - gamma_E + 1/2] (the series of 1 - x K1(x)); above x = 1e-3 the
    // code uses std::cyl_bessel_k, which must meet the series to its next order (relative x^2 ln x
    // terms: below x^2 for these x).
    double const beta = 0.9, gamma = 1.0 / std::sqrt(1.0 - beta * beta), r_b = 1e-3, h = 1e-5;
    int const n = 4096;
    for (int m : {1, 2, 3}) {
        CAPTURE(m);
        double const k_t = constants::two_pi * m / (2.0 * n * h), k_z = k_t / beta;
        double const x = k_z * r_b / gamma;
        double const g = 2.0 * (std::log(2.0 / x) - 0.5772156649015329 + 0.5);
        // E_z(k_t) = i beta^-1 ... from lambda(z) with d/dz = -(1/beta) d/dt and d/dt -> i k_t:
        // -(g / (4 pi eps0 gamma^2)) (-(1/beta) i k_t) = i g k_t / (4 pi eps0 gamma^2 beta).
        double const expect = g * k_t / (4.0 * constants::pi * constants::eps0 * gamma * gamma * beta);
        std::complex<double> const z = lsc_response(m, n, h, r_b, beta, gamma, 1.0);
        CHECK(z.real() == 0.0);
        CHECK(x < 0.12);
        CHECK(z.imag() == test::relative(expect, x * x));
    }
    // The low-pass filter: 1 up to half the cutoff, 0 from the cutoff on.
    CHECK(lsc_response(n / 2, n, h, r_b, beta, gamma, 0.5).imag() == 0.0);
    CHECK(lsc_response(n / 4, n, h, r_b, beta, gamma, 0.5).imag() > 0.0);
}

TEST_CASE("a density modulation in a drift oscillates at the LSC plasma frequency")
{
    // Linear theory (a cold beam, displacement xi(t0) of the particle at t0, drift dt/ds = pt/(beta gamma)^2,
    // dpt/ds = -q E_z / (p c)): with n0 the charge per unit t and E_z(k_t) = i G(k_t) lambda_z,
    // lambda_z = n_t / beta, xi'' = -Omega^2 xi, Omega^2 = q n0 k G / (beta^3 gamma^2 p c), where
    // G(k_t) = beta Z0 c (1 - x K1(x)) / (pi k_t r_b^2), x = k_t r_b / (beta gamma)
    // (Huang et al., PRST-AB 7, 074401 (2004); Venturini, PRST-AB 11, 034401 (2008)).
    double const kinetic = 1.0;  // [MeV] electrons: gamma 2.96, beta 0.94
    double const length_t = 10e-3, wavelength = 0.5e-3, charge = 1e-9, sigma_r = 0.5e-3;
    size_type const n = 100000;
    double const k = constants::two_pi / wavelength, amplitude = 0.01 / k;  // density modulation 1 %
    BeamFrame const frame = test::collective_frame(constants::electron_mass_mev, -1, kinetic, charge, double(n));
    double const beta = frame.beta, gamma = frame.gamma;
    double const pc = beta * gamma * frame.mass * constants::c_light * constants::c_light;

    // The same beam without the modulation: its own edges' fields move it too (the field of a
    // uniform line charge falls off only as 1/distance from its ends); in the linear regime the
    // modulation's displacement is the difference of the two beams.
    ParticleState state(n, MemSpace::host), plain(n, MemSpace::host);
    ParticleView v = state.view(), u = plain.view();
    std::vector<double> t0(n);
    for (size_type i = 0; i < n; ++i) {
        t0[i] = length_t * ((double(i) + 0.5) / double(n) - 0.5);
        v.t[i] = t0[i] + amplitude * std::sin(k * t0[i]);
        u.t[i] = t0[i];
        // A quiet round transverse distribution: rms sigma_r in x and y (radius and angle lattices).
        double const r = sigma_r * std::sqrt(-2.0 * std::log(1.0 - (double(i % 997) + 0.5) / 997.0));
        double const phi = constants::two_pi * double((i * 61) % 1009) / 1009.0;
        v.x[i] = r * std::cos(phi);
        v.y[i] = r * std::sin(phi);
        v.px[i] = v.py[i] = v.pt[i] = 0;
        v.id[i] = i;
        v.lost_element[i] = v.lost_turn[i] = -1;
        u.x[i] = v.x[i], u.y[i] = v.y[i], u.px[i] = u.py[i] = u.pt[i] = 0, u.id[i] = i;
        u.lost_element[i] = u.lost_turn[i] = -1;
    }
    // The radius the theory uses is the code's r_b of the sample's rms sizes.
    double sx = 0, sy = 0;
    for (size_type i = 0; i < n; ++i) sx += v.x[i] * v.x[i], sy += v.y[i] * v.y[i];
    double const r_b = lsc_equivalent_radius(std::sqrt(sx / double(n)), std::sqrt(sy / double(n)));
    double const x = k * r_b / (beta * gamma);
    double const z0 = constants::mu0 * constants::c_light;
    double const g = beta * z0 * constants::c_light * (1.0 - x * std::cyl_bessel_k(1.0, x)) / (constants::pi * k * r_b * r_b);
    double const n0 = charge / length_t;
    double const omega = std::sqrt(frame.charge * -n0 * k * g / (beta * beta * beta * gamma * gamma * pc));
    double const quarter = constants::pi / (2.0 * omega);
    CAPTURE(quarter);

    // Leapfrog: half drift, kick, half drift; 100 steps to 1.5 quarter periods (phase error per step
    // (Omega ds)^2 / 24 ~ 2e-5).
    auto kernels = make_cpu_collective();
    CollectiveSolver solver(*kernels);
    CollectiveSettings settings;
    settings.bins = 2000;
    CollectiveKickSpec spec;
    spec.lsc = true;
    int const steps = 100;
    spec.ds = 1.5 * quarter / steps;
    double const drift = spec.ds / (beta * beta * gamma * gamma);
    // The modulation's amplitude in the middle half of the beam.
    auto const amplitude_now = [&] {
        double s = 0, w = 0;
        for (size_type i = n / 4; i < 3 * n / 4; ++i) {
            s += (v.t[i] - u.t[i]) * std::sin(k * t0[i]);
            w += std::sin(k * t0[i]) * std::sin(k * t0[i]);
        }
        return s / w;
    };
    double previous = amplitude_now(), crossing = -1;
    CHECK(previous == test::relative(amplitude, 1e-6));
    for (int step = 0; step < steps && crossing < 0; ++step) {
        for (ParticleView const& b : {v, u}) {
            for (size_type i = 0; i < n; ++i) b.t[i] += 0.5 * drift * b.pt[i];
            solver.kick(b, settings, frame, spec);
            for (size_type i = 0; i < n; ++i) b.t[i] += 0.5 * drift * b.pt[i];
        }
        double const now = amplitude_now();
        if (now <= 0 && previous > 0) crossing = spec.ds * (step + previous / (previous - now));
        previous = now;
    }
    // The first zero of A cos(Omega s) is at a quarter period: <= 5 % (the limit).
    REQUIRE(crossing > 0);
    CHECK(crossing == test::relative(quarter, 0.05));
}
