// One collective kick: histogram, smoothing, convolutions, kick (see CollectiveSolver.hh).
#include "collective/CollectiveSolver.hh"

#include <chrono>
#include <algorithm>
#include <cmath>

#include "collective/CsrTransient.hh"
#include "collective/LineSmoothing.hh"
#include "kernels/core/Types.hh"

namespace gt {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

//! The smallest power of two >= v (1 for v <= 0): the fixed-point scale of the x, y sums.
double power_of_two_above(double v) { return v > 0 ? std::exp2(std::ceil(std::log2(v))) : 1.0; }

void add_to(std::vector<double>& total, std::vector<double> const& v, double scale)
{
    if (total.empty()) total.assign(v.size(), 0.0);
    for (std::size_t i = 0; i < v.size(); ++i) total[i] += scale * v[i];
}

}  // namespace

double lsc_equivalent_radius(double sigma_x, double sigma_y) { return 1.747 * 0.5 * (sigma_x + sigma_y); }

std::complex<double> lsc_response(int m, int n, double h, double r_b, double beta, double gamma, double cutoff)
{
    if (m == 0) return 0.0;
    // Harmonic m of the 2n-point padded grid: wavenumber in t; along the bunch k_z = k_t / beta.
    double const k_t = constants::two_pi * double(m) / (2.0 * double(n) * h);
    double const x = k_t * r_b / (beta * gamma);
    // 1 - x K1(x) by its series below x = 1e-3 (x K1(x) -> 1: cancellation), else std::cyl_bessel_k.
    double const one_minus_xk1 =
        x < 1e-3 ? 0.5 * x * x * (std::log(2.0 / x) - 0.5772156649015329 + 0.5) : 1.0 - x * std::cyl_bessel_k(1.0, x);
    double const z0 = constants::mu0 * constants::c_light;
    // E_z(k_z) = -i Z0 c / (pi k_z r_b^2) [1 - x K1(x)] lambda(k_z), with k_z = -k_t / beta (z = -beta t).
    double const magnitude = beta * z0 * constants::c_light / (constants::pi * k_t * r_b * r_b) * one_minus_xk1;
    // Low-pass: 1 up to half the cutoff, a cos^2 roll-off to 0 at the cutoff (fraction of Nyquist, m = n).
    double const f = double(m) / (cutoff * double(n));
    double const pass = f <= 0.5 ? 1.0 : f >= 1.0 ? 0.0 : std::pow(std::cos(constants::pi * (f - 0.5)), 2);
    return {0.0, magnitude * pass};
}

CollectiveDiagnostics CollectiveSolver::kick(ParticleView particles, CollectiveSettings const& settings,
                                             BeamFrame const& frame, CollectiveKickSpec const& spec)
{
    CollectiveDiagnostics d;
    dpt_.clear();
    dpx_.clear();
    dpy_.clear();
    auto const start = Clock::now();
    bool transverse = false;
    for (auto const* w : spec.wakes) transverse = transverse || w->plane == WakePlane::transverse;
    // x and y only where used: the x, y scales of transverse wakes, the rms radius of LSC.
    LineBunchShape const shape = kernels_.shape(particles, transverse || spec.lsc);
    double const span = shape.t_max - shape.t_min;
    if (!(shape.alive > 0) || !(span > 0)) return d;

    // The grid: the bunch plus a margin of the smoothing window and one node on each side.
    int const n = settings.bins;
    int const margin = settings.smoothing + 1;
    grid_.n = n;
    grid_.h = span / double(n - 1 - 2 * margin);
    grid_.t0 = shape.t_min - double(margin) * grid_.h;
    d.bins = n;
    d.h = grid_.h;

    LineChannels ch;
    ch.count = transverse ? 3 : 1;
    ch.x_scale = power_of_two_above(shape.max_abs_x);
    ch.y_scale = power_of_two_above(shape.max_abs_y);
    std::vector<double> const hist = kernels_.histogram(particles, grid_, ch, settings.method);
    d.t_histogram = seconds_since(start);
    // Bytes from the code: the shape reduction reads t and the loss flag (+ x, y for transverse
    // wakes and LSC: 12 or 28 per particle);
    // the deposit reads t and the flag (+ x, y for the dipole channels) and the nodes are written
    // and converted (16 per value).
    double const np = double(particles.size);
    timer_.add("coll.histogram", d.t_histogram, np * ((transverse || spec.lsc ? 28.0 : 12.0) + 12.0 + (transverse ? 16.0 : 0.0)) + 16.0 * double(ch.count * n),
               np);
    // A 2n-point real transform counted as one read and one write of its 2n doubles (32 n bytes).
    double const transform_bytes = 32.0 * double(n);
    auto const timed = [&](char const* stage, Clock::time_point from, int transforms) {
        timer_.add(stage, seconds_since(from), transform_bytes * double(transforms), double(n));
    };

    auto const t_conv = Clock::now();
    auto const channel = [&](int c) {
        return std::vector<double>(hist.begin() + c * n, hist.begin() + (c + 1) * n);
    };
    std::vector<double> const count = channel(0);
    double total = 0;
    for (double v : count) total += v;
    d.charge_on_grid = total * frame.macro_charge;

    double const pc = frame.beta * frame.gamma * frame.mass * constants::c_light * constants::c_light;  // [J]
    double const q = frame.charge;
    double const qm = frame.macro_charge;

    // Wakes: one summed kernel per plane, convolved with the node charges (dipole moments).
    auto const t_wake = Clock::now();
    std::vector<double> k_long, k_trans;
    for (auto const* w : spec.wakes)
        add_to(w->plane == WakePlane::longitudinal ? k_long : k_trans, line_kernel(w->w, grid_.h, n, true), 1.0);
    if (!k_long.empty()) add_to(dpt_, convolver_.convolve(k_long, count), q * qm / pc);
    if (!k_trans.empty()) {
        add_to(dpx_, convolver_.convolve(k_trans, channel(1)), q * qm / pc);
        add_to(dpy_, convolver_.convolve(k_trans, channel(2)), q * qm / pc);
    }
    if (!spec.wakes.empty()) timed("coll.wake", t_wake, 3 * ((k_long.empty() ? 0 : 1) + (k_trans.empty() ? 0 : 2)));

    // LSC and CSR act on the (smoothed) line density along the bunch, lambda_z = dQ/dz [C/m].
    if (spec.lsc || spec.csr_radius > 0) {
        auto const t_smooth = Clock::now();
        std::vector<double> lambda = savitzky_golay(count, settings.smoothing);
        for (double& v : lambda) v *= qm / (frame.beta * grid_.h);
        timed("coll.smooth", t_smooth, 0);
        if (spec.lsc) {
            auto const t_lsc = Clock::now();
            double const r_b = lsc_equivalent_radius(shape.sigma_x, shape.sigma_y);
            if (r_b > 0) {
                auto const ez = convolver_.filter(lambda, [&](int m) {
                    return lsc_response(m, n, grid_.h, r_b, frame.beta, frame.gamma, settings.lsc_cutoff);
                });
                add_to(dpt_, ez, -q * spec.ds / pc);  // dE = q E_z ds, pt = -dE / (p c)
            }
            timed("coll.lsc", t_lsc, 2);
        }
        auto const t_csr = Clock::now();
        if (spec.csr_radius > 0 && spec.csr_angle > 0) {
            // Entrance transient or drift wake (CsrTransient.hh) in z = -beta t: node spacing beta h,
            // d lambda/dz = -(d lambda/dt) / beta; dE/ds = -q W / (4 pi eps0), dpt = -ds dE/ds / (p c).
            double const hs = frame.beta * grid_.h;
            std::vector<double> slope = savitzky_golay_slope(lambda, grid_.h, std::max(1, settings.smoothing));
            for (double& v : slope) v /= -frame.beta;
            CsrTransientWake const wake =
                spec.csr_exit_distance >= 0 ? csr_drift_wake(spec.csr_radius, spec.csr_angle, spec.csr_exit_distance)
                                            : csr_entrance_wake(spec.csr_radius, spec.csr_angle);
            std::vector<double> const field = csr_transient_field(wake, lambda, slope, hs, convolver_);
            add_to(dpt_, field, spec.ds * q / (4.0 * constants::pi * constants::eps0 * pc));
        } else if (spec.csr_radius > 0) {
            // Saldin et al. (1997) eq. 10: dE/ds = -2 q / (4 pi eps0 3^1/3 R^2/3) int_-inf^z (z - z')^-1/3 dlambda/dz' dz',
            // in t (z = -beta t): the integral is -beta^-1/3 int_t^inf (t' - t)^-1/3 dlambda/dt' dt'.
            std::vector<double> const slope = savitzky_golay_slope(
                lambda, grid_.h, std::max(1, settings.smoothing));
            // K_m(h) = (1/h) int u^-1/3 tri(u/h - m) du = h^-1/3 K_m(1) (u = h v).
            if (csr_unit_kernel_.size() != std::size_t(2 * n))
                csr_unit_kernel_ = line_kernel([](double u) { return u > 0 ? 1.0 / std::cbrt(u) : 0.0; }, 1.0, n, false);
            std::vector<double> kernel = csr_unit_kernel_;
            double const scale = 1.0 / std::cbrt(grid_.h);
            for (double& k : kernel) k *= scale;
            std::vector<double> integral = convolver_.convolve(kernel, slope);
            double const de_ds_scale = 2.0 * q / (4.0 * constants::pi * constants::eps0 * std::cbrt(3.0) *
                                                  std::pow(spec.csr_radius, 2.0 / 3.0));
            // dpt = -dE/(p c) = -ds (dE/ds) / (p c), dE/ds = -scale * I, I = -beta^-1/3 h * conv.
            add_to(dpt_, integral, -spec.ds * de_ds_scale * grid_.h / (std::cbrt(frame.beta) * pc));
        }
        if (spec.csr_radius > 0) timed("coll.csr", t_csr, 3);
    }
    for (std::size_t i = 0; i < dpt_.size(); ++i) d.energy_change -= pc * count[i] * dpt_[i];
    d.energy_change *= std::abs(qm / q);  // real particles per macroparticle
    d.t_convolve = seconds_since(t_conv);

    auto const t_kick = Clock::now();
    kernels_.kick(particles, grid_, dpt_, dpx_, dpy_);
    d.t_kick = seconds_since(t_kick);
    // The kick reads t, the flag and pt (+ px, py) and writes the momenta.
    timer_.add("coll.kick", d.t_kick, np * (12.0 + 16.0 + (dpx_.empty() ? 0.0 : 32.0)), np);
    return d;
}

}  // namespace gt
