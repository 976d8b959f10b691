// Wakefields: FFT convolution against the direct sum, the energy loss of a Gaussian bunch in a
// resonator against its loss factor, the transverse kick of an offset bunch against the dipole-wake
// integral, the resistive-wall wake's limits, and the wake-table reader's errors.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <random>

#include "CollectiveTestSupport.hh"
#include "IoTestSupport.hh"
#include "TextTestSupport.hh"
#include "collective/CollectiveSolver.hh"
#include "collective/GaussLegendre.hh"
#include "collective/LineConvolver.hh"
#include "collective/WakeFunction.hh"

using namespace gt;

namespace {

double relative_max_difference(std::vector<double> const& a, std::vector<double> const& b)
{
    double diff = 0, scale = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        diff = std::max(diff, std::abs(a[i] - b[i]));
        scale = std::max(scale, std::abs(b[i]));
    }
    return diff / scale;
}

//! The loss factor of a Gaussian bunch (rms sigma_tau [s]) in a resonator, from its impedance
//! Re Z = R / (1 + Q^2 (w/wr - wr/w)^2): k = (1/pi) int_0^inf Re Z(w) exp(-w^2 sigma_tau^2) dw
//! (Chao 1993, eq. 2.105 with the Gaussian bunch spectrum), by Gauss-Legendre on 4000 segments of
//! [0, 12/sigma_tau] (the integrand is below e^-144 beyond; the peak, of width wr/Q, spans many).
double resonator_loss_factor(double r, double q, double f_r, double sigma_tau)
{
    double const wr = constants::two_pi * f_r, top = 12.0 / sigma_tau;
    int const segments = 4000;
    GaussLegendre const& gl = gauss_legendre_16();
    double sum = 0;
    for (int s = 0; s < segments; ++s)
        for (int k = 0; k < gl.points; ++k) {
            double const w = top * (double(s) + gl.x[k]) / segments;
            double const d = w / wr - wr / w;
            sum += gl.w[k] * top / segments * r / (1.0 + q * q * d * d) * std::exp(-w * w * sigma_tau * sigma_tau);
        }
    return sum / constants::pi;
}

struct LossRun {
    double from_particles;  //!< [J] sum over the particles' energy changes
    double reported;        //!< [J] CollectiveDiagnostics::energy_change
};

LossRun resonator_energy_change(int bins, WakeFunction const& wake, double sigma_t, double bunch_charge)
{
    auto kernels = make_cpu_collective();
    CollectiveSolver solver(*kernels);
    size_type const n = 400000;
    ParticleState state = test::quiet_gaussian_bunch(n, sigma_t);
    ParticleView v = state.view();
    BeamFrame const frame = test::collective_frame(constants::electron_mass_mev, -1, 50.0, bunch_charge, double(n));
    CollectiveSettings settings;
    settings.bins = bins;
    CollectiveKickSpec spec;
    spec.wakes = {&wake};
    CollectiveDiagnostics const d = solver.kick(v, settings, frame, spec);
    double const pc = frame.beta * frame.gamma * frame.mass * constants::c_light * constants::c_light;
    double de = 0;
    for (size_type i = 0; i < n; ++i) de += -pc * v.pt[i];
    return {de * bunch_charge / double(n) / constants::e_charge, d.energy_change};
}

}  // namespace

TEST_CASE("the zero-padded FFT convolution equals the direct sum to 1e-10")
{
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int n : {7, 64, 500, 1001}) {
        CAPTURE(n);
        std::vector<double> kernel(static_cast<std::size_t>(2 * n)), source(static_cast<std::size_t>(n));
        for (auto& k : kernel) k = u(rng);
        kernel[std::size_t(n)] = 0.0;  // the unused slot of the layout
        for (auto& s : source) s = u(rng);
        LineConvolver conv;
        CHECK(relative_max_difference(conv.convolve(kernel, source), test::direct_convolution(kernel, source)) < 1e-10);
        // A causal resonator kernel and a CSR-like leading one on a Gaussian.
        for (bool trailing : {true, false}) {
            WakeFunction const w = resonator_wake(WakePlane::longitudinal, 1e3, 2.0, 1e10);
            auto const k = line_kernel(w.w, 1e-4, n, trailing);
            for (int i = 0; i < n; ++i) source[std::size_t(i)] = std::exp(-std::pow((i - n / 2.0) / (n / 8.0 + 1), 2));
            CHECK(relative_max_difference(conv.convolve(k, source), test::direct_convolution(k, source)) < 1e-10);
        }
    }
}

TEST_CASE("a Gaussian bunch loses k Q^2 in a resonator wake, independently of the bin count")
{
    // 1 nC, sigma_t = 3 mm (sigma_tau = 10 ps), 10 GHz, Q = 2, R = 1 kOhm: omega_r sigma_tau = 0.63,
    // the regime where the loss depends on both the bunch and the resonator shape.
    double const sigma_t = 3e-3, charge = 1e-9;
    WakeFunction const w = resonator_wake(WakePlane::longitudinal, 1e3, 2.0, 1e10);
    double const expected = resonator_loss_factor(1e3, 2.0, 1e10, sigma_t / constants::c_light) * charge * charge;
    std::vector<double> losses;
    for (int bins : {250, 500, 1000, 2000}) {
        CAPTURE(bins);
        LossRun const r = resonator_energy_change(bins, w, sigma_t, charge);
        // The particles' sum and the reported change are the same sum over nodes (CIC weights).
        CHECK(r.reported == test::relative(r.from_particles, 1e-9));
        losses.push_back(-r.from_particles);
        // <= 1 % (the limit); the binning error is O(h^2), h = 10 sigma / bins.
        CHECK(-r.from_particles == test::relative(expected, 0.01));
    }
    // Converged: 1000 and 2000 bins agree to 1e-3 (the quiet sample of 4e5 particles and O(h^2)).
    CHECK(losses[3] == test::relative(losses[2], 1e-3));
    CHECK(std::abs(losses[3] - expected) < std::abs(losses[0] - expected) + 1e-6 * expected);
}

TEST_CASE("an offset bunch gets the transverse kick of the dipole-wake integral")
{
    // W_perp(s) = a s (a linear wake, read from a table): Delta px(t) = q Q x0 a sigma (u Phi(u) + phi(u)) / (p c),
    // u = t / sigma (the integral of the Gaussian ahead of t, weighted by its distance).
    test::TempDir dir;
    std::string const path = dir.file("linear.wake");
    double const a = 1e16;  // [V/(C m^2)]
    {
        std::ofstream f(path);
        f << "# a linear transverse wake\n# s [m]  W [V/C/m]\n0 0\n1 " << a << "\n";
    }
    WakeFunction const w = read_wake_table(path, WakePlane::transverse);
    auto kernels = make_cpu_collective();
    CollectiveSolver solver(*kernels);
    size_type const n = 400000;
    double const sigma = 1e-3, x0 = 1e-3, charge = 1e-9;
    ParticleState state = test::quiet_gaussian_bunch(n, sigma, x0, -0.5 * x0);
    ParticleView v = state.view();
    BeamFrame const frame = test::collective_frame(constants::electron_mass_mev, -1, 50.0, charge, double(n));
    CollectiveSettings settings;
    settings.bins = 1000;
    CollectiveKickSpec spec;
    spec.wakes = {&w};
    solver.kick(v, settings, frame, spec);
    double const pc = frame.beta * frame.gamma * frame.mass * constants::c_light * constants::c_light;
    double const scale = frame.charge * -charge * x0 * a * sigma / pc;
    double worst = 0, peak = 0;
    for (size_type i = 0; i < n; ++i) {
        double const u = v.t[i] / sigma;
        double const expect = scale * (u * 0.5 * std::erfc(-u / std::sqrt(2.0)) +
                                       std::exp(-0.5 * u * u) / std::sqrt(constants::two_pi));
        worst = std::max(worst, std::abs(v.px[i] - expect));
        peak = std::max(peak, std::abs(expect));
        CHECK(v.py[i] == test::relative(-0.5 * v.px[i], 1e-6));
        CHECK(v.pt[i] == 0.0);
    }
    // Positive: towards the offset for like charges. Error O(h^2) with h = 0.01 sigma, plus the
    // fixed-point x sums (2^-32 x_scale per particle): 1e-4 of the largest kick.
    CHECK(scale > 0);
    CHECK(worst < 1e-4 * peak);
}

TEST_CASE("the resistive-wall wake: W(0) = Z0 c L / (pi b^2) and the classical long-range limit")
{
    double const b = 5e-3, sigma = 5.8e7, length = 2.0;
    WakeFunction const w = resistive_wall_wake(WakePlane::longitudinal, b, sigma, length);
    double const z0 = constants::mu0 * constants::c_light;
    CHECK(w.w(0.0) == test::relative(z0 * constants::c_light * length / (constants::pi * b * b), 1e-4));
    double const s0 = std::cbrt(2.0 * b * b / (z0 * sigma));
    for (double a : {60.0, 99.0, 150.0, 1000.0}) {
        // Chao eq. 2.75 (SI), valid for s >> s0; the next term of the expansion is ~a^-3 relative.
        double const s = a * s0;
        double const classical = -(constants::c_light * length / (4.0 * constants::pi * b)) *
                                 std::sqrt(z0 / (constants::pi * sigma)) * std::pow(s, -1.5);
        CHECK(w.w(s) == test::relative(classical, 1e-4));
    }
}

TEST_CASE("wake tables: units in the header, two increasing columns from 0, errors with file and line")
{
    test::TempDir dir;
    auto const error_of = [&](std::string const& text, WakePlane plane) {
        std::string const path = dir.file("w.txt");
        std::ofstream(path) << text;
        try {
            read_wake_table(path, plane);
        } catch (std::runtime_error const& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK(test::contains(error_of("0 1\n1 2\n", WakePlane::longitudinal), "w.txt:1: data before the units line"));
    CHECK(test::contains(error_of("# s [m] W [V/C/m]\n0 1\n", WakePlane::longitudinal), "w.txt:1: the second column must be the longitudinal wake in [V/C]"));
    CHECK(test::contains(error_of("# s [m] W [V/C]\n0 1\n", WakePlane::transverse), "must be the transverse wake"));
    CHECK(test::contains(error_of("# s [m] W [V/C]\n0 1\n0 2\n", WakePlane::longitudinal), "w.txt:3: the first column must increase"));
    CHECK(test::contains(error_of("# s [m] W [V/C]\n0 1\n1 x\n", WakePlane::longitudinal), "w.txt:3: expected two numbers"));
    CHECK(test::contains(error_of("# s [m] W [V/C]\n0 1 2\n", WakePlane::longitudinal), "w.txt:2: expected two numbers"));
    CHECK(test::contains(error_of("# s [m] W [V/C]\n0.1 1\n1 2\n", WakePlane::longitudinal), "must start at 0"));
    CHECK(test::contains(error_of("# s [m] W [V/C]\n0 1\n", WakePlane::longitudinal), "at least two rows"));
    CHECK(test::contains(error_of("", WakePlane::longitudinal), "at least two rows"));
    // Time in the first column: t [s] is converted to s = c t.
    std::string const path = dir.file("t.txt");
    std::ofstream(path) << "# t [s] W [V/C]\n0 2\n1e-9 0\n";
    WakeFunction const w = read_wake_table(path, WakePlane::longitudinal);
    CHECK(w.w(0.5e-9 * constants::c_light) == test::relative(1.0, 1e-12));
    CHECK(w.w(2.0) == 0.0);
}
