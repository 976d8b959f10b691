// CSR entrance transient and drift wake (Saldin et al. 1997; Stupakov and Emma 2002): the energy
// change of a quiet Gaussian bunch against closed forms and independent quadratures of the wake,
// the steady state deep in a long bend, the 2 lambda / x decay far after the bend.
#include <doctest/doctest.h>

#include <cmath>

#include "CollectiveTestSupport.hh"
#include "collective/CollectiveSolver.hh"
#include "collective/CsrTransient.hh"
#include "collective/GaussLegendre.hh"

using namespace gt;

namespace {

// 1 nC of 1 GeV electrons, sigma_t = 100 um, in a bend of R = 10 m; 4 * 10^5 quiet particles on
// 2000 nodes (h = sigma / 200 over the +-5 sigma bunch).
double const sigma_t = 100e-6, charge = 1e-9, radius = 10.0;
size_type const n_particles = 400000;
int const bins = 2000;

BeamFrame frame() { return test::collective_frame(constants::electron_mass_mev, -1, 1000.0, charge, double(n_particles)); }

//! The mean and rms energy change [J] of the bunch's particles after one kick of `spec`.
struct Moments {
    double mean = 0, rms = 0;
};
Moments kick(CollectiveKickSpec const& spec)
{
    ParticleState state = test::quiet_gaussian_bunch(n_particles, sigma_t);
    ParticleView v = state.view();
    auto kernels = make_cpu_collective();
    CollectiveSolver solver(*kernels);
    CollectiveSettings settings;
    settings.bins = bins;
    BeamFrame const f = frame();
    solver.kick(v, settings, f, spec);
    double const pc = f.beta * f.gamma * f.mass * constants::c_light * constants::c_light;
    double s1 = 0, s2 = 0;
    for (size_type i = 0; i < n_particles; ++i) {
        double const de = -pc * v.pt[i];
        s1 += de;
        s2 += de * de;
    }
    Moments m;
    m.mean = s1 / double(n_particles);
    m.rms = std::sqrt(s2 / double(n_particles) - m.mean * m.mean);
    return m;
}

//! The lower incomplete gamma function gamma(s, x) by its series (x <= 40; Gamma(s) beyond, e^-40 off).
double lower_gamma(double s, double x)
{
    if (x > 40.0) return std::tgamma(s);
    double term = 1.0 / s, sum = term;
    for (int k = 1; k < 1000 && term > 1e-17 * sum; ++k) {
        term *= x / (s + double(k));
        sum += term;
    }
    return std::pow(x, s) * std::exp(-x) * sum;
}

//! The Gaussian's autocorrelation int g(z) g(z - d) dz = e^(-d^2 / 4 sigma^2) / (2 sqrt(pi) sigma).
double autocorrelation(double d, double sigma)
{
    return std::exp(-d * d / (4.0 * sigma * sigma)) / (2.0 * std::sqrt(constants::pi) * sigma);
}

//! Per particle: mean dE = -ds q Q / (4 pi eps0) M, M = int g W_g dz for the unit-charge Gaussian g:
//! M = edge [A(near) - A(far)] + int_0^near k(u) u / (2 sigma^2) A(u) du (A the autocorrelation;
//! int g(z) g'(z - u) dz = -A'(u)). This gives the factor in front of M.
double mean_scale(double ds)
{
    return -ds * constants::e_charge * charge / (4.0 * constants::pi * constants::eps0);
}

//! M of the entrance wake at angle phi, in closed form: with k = c u^-1/3 the integral is
//! c (2 sigma)^2/3 gamma(5/6, near^2 / 4 sigma^2) / (4 sqrt(pi) sigma^2).
double entrance_m(double phi, double sigma)
{
    double const near = radius * phi * phi * phi / 24.0, c = 2.0 / std::cbrt(3.0 * radius * radius);
    return 4.0 / (radius * phi) * (autocorrelation(near, sigma) - autocorrelation(4.0 * near, sigma)) +
           c * std::cbrt(4.0 * sigma * sigma) * lower_gamma(5.0 / 6.0, near * near / (4.0 * sigma * sigma)) /
               (4.0 * std::sqrt(constants::pi) * sigma * sigma);
}

//! psi of the drift wake by bisection on R psi^3 (psi + 4X) = 24 u (psi + X) (independent of the
//! code's Newton iteration).
double psi_by_bisection(double u, double big_x)
{
    double lo = 0, hi = std::cbrt(24.0 * u / radius) + 1e-300;
    for (int i = 0; i < 200; ++i) {
        double const mid = 0.5 * (lo + hi);
        (radius * mid * mid * mid * (mid + 4.0 * big_x) < 24.0 * u * (mid + big_x) ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

//! M of the drift wake at x after a bend of angle phi_m, by Gauss-Legendre on 400 segments of [0, near]
//! (the kernel is bounded for x > 0).
double drift_m(double phi_m, double x, double sigma)
{
    double const big_x = x / radius;
    double const near = radius * phi_m * phi_m * phi_m / 24.0 * (phi_m + 4.0 * big_x) / (phi_m + big_x);
    double const far = radius / 6.0 * phi_m * phi_m * (phi_m + 3.0 * big_x);
    double const top = std::min(near, 40.0 * sigma);  // A(u) < e^-400 beyond
    GaussLegendre const& gl = gauss_legendre_16();
    double integral = 0;
    int const segments = 400;
    for (int s = 0; s < segments; ++s)
        for (int q = 0; q < gl.points; ++q) {
            double const u = top * (double(s) + gl.x[q]) / segments;
            double const k = 4.0 / radius / (psi_by_bisection(u, big_x) + 2.0 * big_x);
            integral += gl.w[q] * top / segments * k * u / (2.0 * sigma * sigma) * autocorrelation(u, sigma);
        }
    return 4.0 / (radius * (phi_m + 2.0 * big_x)) * (autocorrelation(near, sigma) - autocorrelation(far, sigma)) +
           integral;
}

//! The rms over the unit Gaussian of W_g(z) = edge [g(z - near) - g(z - 4 near)] + c int_0^near
//! u^-1/3 g'(z - u) du (the entrance wake), by quadrature (u = w^3 removes the singularity).
double entrance_rms(double phi, double sigma)
{
    double const near = radius * phi * phi * phi / 24.0, c = 2.0 / std::cbrt(3.0 * radius * radius);
    double const edge = 4.0 / (radius * phi);
    auto const g = [sigma](double z) {
        return std::exp(-0.5 * z * z / (sigma * sigma)) / (std::sqrt(constants::two_pi) * sigma);
    };
    GaussLegendre const& gl = gauss_legendre_16();
    double const top = std::cbrt(std::min(near, 40.0 * sigma));
    auto const wake = [&](double z) {
        double integral = 0;
        for (int s = 0; s < 64; ++s)
            for (int q = 0; q < gl.points; ++q) {
                double const w = top * (double(s) + gl.x[q]) / 64.0, u = w * w * w;
                integral += gl.w[q] * top / 64.0 * 3.0 * w * (-(z - u) / (sigma * sigma)) * g(z - u);
            }
        return edge * (g(z - near) - g(z - 4.0 * near)) + c * integral;
    };
    double m1 = 0, m2 = 0;
    for (int s = 0; s < 200; ++s)  // z over +-10 sigma
        for (int q = 0; q < gl.points; ++q) {
            double const z = sigma * (-10.0 + 20.0 * (double(s) + gl.x[q]) / 200.0);
            double const weight = gl.w[q] * 0.1 * sigma * g(z), w = wake(z);
            m1 += weight * w;
            m2 += weight * w * w;
        }
    return std::sqrt(m2 - m1 * m1);
}

}  // namespace

TEST_CASE("CSR drift angle: the positive root of the Stupakov-Emma quartic")
{
    for (double u : {1e-9, 1e-6, 1e-4, 1e-2})
        for (double big_x : {0.0, 1e-3, 0.1, 2.0}) {
            CAPTURE(u);
            CAPTURE(big_x);
            double const psi = csr_drift_angle(u, radius, big_x);
            CHECK(psi > 0);
            double const lhs = radius * psi * psi * psi * (psi + 4.0 * big_x), rhs = 24.0 * u * (psi + big_x);
            CHECK(lhs == test::relative(rhs, 1e-13));
            if (big_x == 0.0) CHECK(psi == test::relative(std::cbrt(24.0 * u / radius), 1e-14));
        }
}

TEST_CASE("CSR entrance transient: energy change of a Gaussian bunch against the closed form")
{
    double const sigma_z = frame().beta * sigma_t;
    double const overtaking = std::cbrt(24.0 * sigma_z * radius * radius);  // L_o = 0.62 m here
    double const ds = 1.0;
    // From early in the transient (the wake reaches 1/64 sigma behind) to past the overtaking length.
    for (double s_over_lo : {0.25, 0.5, 1.0, 1.5, 2.0}) {
        CAPTURE(s_over_lo);
        double const phi = s_over_lo * overtaking / radius;
        CollectiveKickSpec spec;
        spec.csr_radius = radius;
        spec.csr_angle = phi;
        spec.ds = ds;
        Moments const m = kick(spec);
        // The discretization at h = sigma/200 (Savitzky-Golay slope and smoothing, node-averaged
        // kernel, shifts interpolated between nodes) errs by O((h/sigma)^2) ~ 1e-5 times the wake's
        // curvature; measured: rms <= 4e-5, mean <= 2e-5 except at 0.25 L_o (1.8e-4, where the wake
        // reaches only 3 nodes behind and the mean is a cancellation of two phi^5 terms). Bound 1e-3
        // (the issue asks 2 % of the steady state).
        CHECK(m.mean == test::relative(mean_scale(ds) * entrance_m(phi, sigma_z), 1e-3));
        CHECK(m.rms == test::relative(std::abs(mean_scale(ds)) * entrance_rms(phi, sigma_z), 1e-3));
        CHECK(m.mean < 0);
    }
    // Early in the bend the loss grows as phi^5 (near << sigma: both terms of M go as phi^5).
    double const early = entrance_m(0.1 * overtaking / radius, sigma_z) / entrance_m(0.05 * overtaking / radius, sigma_z);
    CHECK(early == test::relative(32.0, 0.02));
}

TEST_CASE("CSR entrance transient: deep in a long bend it is the steady state")
{
    double const sigma_z = frame().beta * sigma_t;
    double const overtaking = std::cbrt(24.0 * sigma_z * radius * radius);
    CollectiveKickSpec steady;
    steady.csr_radius = radius;
    steady.ds = 1.0;
    Moments const ss = kick(steady);
    double previous = INFINITY;
    for (double s_over_lo : {0.5, 1.0, 1.5, 2.0, 6.0}) {
        CAPTURE(s_over_lo);
        CollectiveKickSpec spec = steady;
        spec.csr_angle = s_over_lo * overtaking / radius;
        Moments const m = kick(spec);
        double const gap = std::abs(m.mean - ss.mean) + std::abs(m.rms - ss.rms);
        CHECK(gap < previous);  // converges monotonically
        previous = gap;
    }
    // At 6 L_o the wake reaches 216 sigma behind, past the grid: only the kernel's spacing (beta h
    // against h times beta^-1/3) differs, at round-off (measured 5e-16; 3e-8 at 2 L_o).
    CHECK(previous < 1e-13 * std::abs(ss.mean));
}

TEST_CASE("CSR drift wake: continuous at the exit and decaying as Stupakov and Emma predict")
{
    double const sigma_z = frame().beta * sigma_t;
    double const phi_m = 0.2, ds = 1.0;  // a 2 m bend: 3.2 overtaking lengths, the steady state reached
    CollectiveKickSpec spec;
    spec.csr_radius = radius;
    spec.csr_angle = phi_m;
    spec.ds = ds;
    Moments const inside = kick(spec);
    spec.csr_exit_distance = 0;
    Moments const exit = kick(spec);
    // x = 0 is the entrance wake at phi_m: the same formula through another kernel (psi by Newton,
    // exact at X = 0 to the last bit or two).
    CHECK(exit.mean == test::relative(inside.mean, 1e-13));
    CHECK(exit.rms == test::relative(inside.rms, 1e-13));
    for (double x : {0.02, 0.1, 0.5, 2.0, 10.0}) {
        CAPTURE(x);
        spec.csr_exit_distance = x;
        Moments const m = kick(spec);
        // Same discretization as in the bend (measured <= 2.3e-5; bound 1e-3 as above).
        CHECK(m.mean == test::relative(mean_scale(ds) * drift_m(phi_m, x, sigma_z), 1e-3));
        CHECK(m.mean < 0);
    }
    // Far after the bend (x >> 4 sigma / phi_m^2 = 1 cm and psi << 2 x / R) the wake is 2 lambda(z) / x:
    // M x -> 2 A(0) = 1 / (sqrt(pi) sigma). At x = 10 m psi ~ (6 u / R)^1/3 ~ 0.04 against 2X = 2: 2 %
    // below (measured 0.977; 0.89 at 2 m, 0.65 at 0.5 m, 0.24 at 0.1 m).
    double const far = 10.0;
    CHECK(drift_m(phi_m, far, sigma_z) * far == test::relative(1.0 / (std::sqrt(constants::pi) * sigma_z), 0.03));
}
