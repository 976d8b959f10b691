// Wake-function models and tables (see WakeFunction.hh; docs/physics.md "Wakefields").
#include "collective/WakeFunction.hh"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "collective/GaussLegendre.hh"
#include "kernels/core/Types.hh"

namespace gt {

namespace {

double const k_z0 = constants::mu0 * constants::c_light;  // impedance of free space [Ohm]

//! int_0^inf x^2 exp(-a x^2) / (x^6 + 8) dx (Bane & Sands): 16-point Gauss-Legendre on each of 16
//! segments of 1/2 over [0, 8], plus the tail beyond 8; for a > 100 (the integrand then lives at
//! x ~ a^-1/2 << 1) the leading term of its expansion, sqrt(pi) / (32 a^3/2) (relative error ~ a^-3).
double bane_sands_integral(double a)
{
    if (a > 100.0) return std::sqrt(constants::pi) / (32.0 * a * std::sqrt(a));
    GaussLegendre const& gl = gauss_legendre_16();
    double sum = 0;
    for (int seg = 0; seg < 16; ++seg) {
        for (int q = 0; q < gl.points; ++q) {
            double const x = 0.5 * (double(seg) + gl.x[q]);
            double const x2 = x * x;
            sum += 0.5 * gl.w[q] * x2 * std::exp(-a * x2) / (x2 * x2 * x2 + 8.0);
        }
    }
    // Beyond x = 8: x^2/(x^6 + 8) = x^-4 (1 - 8 x^-6 ...); int_8^inf x^-4 e^{-a x^2} dx, taken at a's
    // value e^{-64 a} times int_8^inf x^-4 = 1/(3 8^3) (exact for a = 0, and negligible for a > 0.1).
    return sum + std::exp(-64.0 * a) / (3.0 * 512.0);
}

}  // namespace

WakeFunction resonator_wake(WakePlane plane, double r_shunt, double q, double f_r)
{
    if (!(q > 0.5)) throw std::invalid_argument("resonator wake: Q must be > 1/2 (an underdamped resonator)");
    double const omega = constants::two_pi * f_r;
    double const alpha = omega / (2.0 * q);
    double const omega_bar = std::sqrt(omega * omega - alpha * alpha);
    double const c = constants::c_light;
    WakeFunction wf;
    wf.plane = plane;
    if (plane == WakePlane::longitudinal) {
        // Chao (1993) eq. 2.84 / ELEGANT WAKE: W(tau) = 2 alpha R e^{-alpha tau}(cos wb tau - (alpha/wb) sin wb tau).
        wf.w = [=](double s) {
            double const tau = s / c;
            return 2.0 * alpha * r_shunt * std::exp(-alpha * tau) *
                   (std::cos(omega_bar * tau) - alpha / omega_bar * std::sin(omega_bar * tau));
        };
    } else {
        // Chao eq. 2.87 / ELEGANT TRWAKE: W(tau) = (R omega^2 / (Q wb)) e^{-alpha tau} sin wb tau.
        wf.w = [=](double s) {
            double const tau = s / c;
            return r_shunt * omega * omega / (q * omega_bar) * std::exp(-alpha * tau) * std::sin(omega_bar * tau);
        };
    }
    wf.description = fmt::format("resonator R {:.6g} {}, Q {:.6g}, f {:.6g} Hz", r_shunt,
                                 plane == WakePlane::longitudinal ? "Ohm" : "Ohm/m", q, f_r);
    return wf;
}

WakeFunction resistive_wall_wake(WakePlane plane, double radius, double conductivity, double length)
{
    double const b = radius, c = constants::c_light;
    WakeFunction wf;
    wf.plane = plane;
    if (plane == WakePlane::longitudinal) {
        // Bane & Sands, SLAC-PUB-95-7074 (1995), eq. 9 (SI):
        // W(s) = (4 Z0 c L / (pi b^2)) [e^{-s/s0} cos(sqrt3 s/s0)/3 - (sqrt2/pi) int_0^inf x^2 e^{-x^2 s/s0}/(x^6+8) dx],
        // s0 = (2 b^2 / (Z0 sigma))^(1/3); W(0) = Z0 c L / (pi b^2), and for s >> s0 the classical
        // -(c L / (4 pi b)) sqrt(Z0 / (pi sigma)) s^-3/2 (Chao eq. 2.75).
        double const s0 = std::cbrt(2.0 * b * b / (k_z0 * conductivity));
        double const scale = 4.0 * k_z0 * c * length / (constants::pi * b * b);
        wf.w = [=](double s) {
            double const a = s / s0;
            return scale * (std::exp(-a) * std::cos(std::sqrt(3.0) * a) / 3.0 -
                            std::sqrt(2.0) / constants::pi * bane_sands_integral(a));
        };
    } else {
        // Chao (1993) eq. 2.76, in SI: W(s) = (c L / (pi b^3)) sqrt(Z0 / (pi sigma)) s^-1/2.
        double const scale = c * length / (constants::pi * b * b * b) * std::sqrt(k_z0 / (constants::pi * conductivity));
        wf.w = [=](double s) { return s > 0 ? scale / std::sqrt(s) : 0.0; };
    }
    wf.description = fmt::format("resistive wall b {:.6g} m, sigma {:.6g} S/m, L {:.6g} m", radius, conductivity, length);
    return wf;
}

WakeFunction table_wake(WakePlane plane, std::vector<double> s, std::vector<double> w, std::string description)
{
    auto const table = std::make_shared<std::pair<std::vector<double>, std::vector<double>>>(std::move(s), std::move(w));
    WakeFunction wf;
    wf.plane = plane;
    wf.description = std::move(description);
    wf.w = [table](double x) {
        auto const& [ss, ww] = *table;
        if (x < ss.front() || x > ss.back()) return 0.0;
        auto const it = std::upper_bound(ss.begin(), ss.end(), x);
        if (it == ss.end()) return ww.back();
        auto const i = std::size_t(it - ss.begin());
        double const f = (x - ss[i - 1]) / (ss[i] - ss[i - 1]);
        return ww[i - 1] + f * (ww[i] - ww[i - 1]);
    };
    return wf;
}

WakeFunction read_wake_table(std::string const& path, WakePlane plane)
{
    std::ifstream in(path);
    if (!in) throw std::runtime_error(fmt::format("{}: cannot open the wake table", path));
    char const* const want = plane == WakePlane::longitudinal ? "[V/C]" : "[V/C/m]";
    auto const fail = [&](std::size_t line, std::string const& what) {
        return std::runtime_error(fmt::format("{}:{}: {}", path, line, what));
    };
    std::vector<double> s, w;
    double first_scale = 0;  // 1 for s [m], c for t [s]; 0 until the units line
    std::string text;
    std::size_t line = 0;
    while (std::getline(in, text)) {
        ++line;
        auto const start = text.find_first_not_of(" \t\r");
        if (start == std::string::npos) continue;
        if (text[start] == '#') {
            if (first_scale == 0 && (text.find("[m]") != std::string::npos || text.find("[s]") != std::string::npos)) {
                bool const metres = text.find("[m]") != std::string::npos;
                std::string const rest = text.substr(text.find(metres ? "[m]" : "[s]") + 3);
                if (rest.find(want) == std::string::npos || (plane == WakePlane::longitudinal && rest.find("[V/C/m]") != std::string::npos))
                    throw fail(line, fmt::format("the second column must be the {} wake in {} (the header says '{}')",
                                                 plane == WakePlane::longitudinal ? "longitudinal" : "transverse",
                                                 want, text.substr(start)));
                first_scale = metres ? 1.0 : constants::c_light;
            }
            continue;
        }
        if (first_scale == 0)
            throw fail(line, fmt::format("data before the units line: the header must state them, e.g. '# s [m] W {}'", want));
        std::istringstream row(text);
        double a = 0, b = 0;
        std::string extra;
        if (!(row >> a >> b) || (row >> extra))
            throw fail(line, fmt::format("expected two numbers, got '{}'", text.substr(start)));
        if (!std::isfinite(a) || !std::isfinite(b)) throw fail(line, "a value is not finite");
        a *= first_scale;
        if (a < 0) throw fail(line, "the distance (or time) behind the source must be >= 0");
        if (!s.empty() && !(a > s.back())) throw fail(line, "the first column must increase strictly");
        s.push_back(a);
        w.push_back(b);
    }
    if (s.size() < 2) throw std::runtime_error(fmt::format("{}: a wake table needs at least two rows, found {}", path, s.size()));
    if (s.front() != 0.0)
        throw std::runtime_error(fmt::format("{}: the table must start at 0 (the wake just behind the source)", path));
    std::string description = fmt::format("table {} ({} points)", path, s.size());
    return table_wake(plane, std::move(s), std::move(w), std::move(description));
}

}  // namespace gt
