// Helpers for the space-charge tests: beams built from rest-frame points, quiet (lattice) samples of
// a uniform sphere, ellipsoid and Gaussian, the analytic fields they are checked against, and error norms.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "kernels/core/ParticleState.hh"
#include "kernels/core/Types.hh"
#include "kernels/spacecharge/SpaceChargeKernels.hh"

namespace gt::test {

struct Point3 {
    double x, y, z;
};

//! A proton beam frame at kinetic energy `kinetic_mev`, each macroparticle carrying `macro_charge` [C].
inline BeamFrame proton_frame(double kinetic_mev, double macro_charge)
{
    double const mc2_mev = constants::proton_mass_mev;
    BeamFrame f;
    f.gamma = 1.0 + kinetic_mev / mc2_mev;
    f.beta = std::sqrt(1.0 - 1.0 / (f.gamma * f.gamma));
    f.charge = constants::e_charge;
    f.mass = mc2_mev * 1e6 * constants::e_charge / (constants::c_light * constants::c_light);
    f.macro_charge = macro_charge;
    return f;
}

//! A host particle state at rest-frame positions (t = z / rest_z), momenta zero, ids 0, 1, ...
inline ParticleState beam_at(std::vector<Point3> const& points, BeamFrame const& frame)
{
    ParticleState s(points.size(), MemSpace::host);
    ParticleView v = s.view();
    for (size_type i = 0; i < points.size(); ++i) {
        v.x[i] = points[i].x;
        v.y[i] = points[i].y;
        v.t[i] = points[i].z / frame.rest_z();
        v.px[i] = v.py[i] = v.pt[i] = 0.0;
        v.id[i] = i;
        v.lost_element[i] = -1;
        v.lost_turn[i] = 0;
    }
    return s;
}

//! A cubic lattice of spacing d (offset by d/2 from the origin, so no point sits on an axis) inside
//! the ellipsoid of semi-axes a, b, c: a uniform density without sampling noise.
inline std::vector<Point3> lattice_ellipsoid(double a, double b, double c, double d)
{
    std::vector<Point3> out;
    int const nx = static_cast<int>(a / d) + 1, ny = static_cast<int>(b / d) + 1,
              nz = static_cast<int>(c / d) + 1;
    for (int k = -nz; k < nz; ++k)
        for (int j = -ny; j < ny; ++j)
            for (int i = -nx; i < nx; ++i) {
                double const x = (i + 0.5) * d, y = (j + 0.5) * d, z = (k + 0.5) * d;
                if ((x / a) * (x / a) + (y / b) * (y / b) + (z / c) * (z / c) <= 1.0)
                    out.push_back({x, y, z});
            }
    return out;
}

//! Standard normal quantile by bisection on erfc (only used for a few hundred lattice values).
inline double normal_quantile(double p)
{
    double lo = -40.0, hi = 40.0;
    for (int it = 0; it < 200; ++it) {
        double const mid = 0.5 * (lo + hi);
        if (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

//! A quiet Gaussian: the product lattice of the m midpoint quantiles (k + 1/2)/m in each dimension.
inline std::vector<Point3> quiet_gaussian(double sx, double sy, double sz, int m)
{
    std::vector<double> q(m);
    for (int k = 0; k < m; ++k) q[k] = normal_quantile((k + 0.5) / m);
    std::vector<Point3> out;
    out.reserve(size_type(m) * m * m);
    for (int k = 0; k < m; ++k)
        for (int j = 0; j < m; ++j)
            for (int i = 0; i < m; ++i) out.push_back({sx * q[i], sy * q[j], sz * q[k]});
    return out;
}

//! Composite Simpson's rule of f over [0, 1] with n (even) intervals.
inline double simpson01(std::function<double(double)> const& f, int n)
{
    double const h = 1.0 / n;
    double s = f(0.0) + f(1.0);
    for (int i = 1; i < n; ++i) s += (i % 2 ? 4.0 : 2.0) * f(i * h);
    return s * h / 3.0;
}

//! Field [V/m] of a uniformly charged ellipsoid (charge Q, semi-axes a, b, c) at (x, y, z), inside
//! and outside (Kellogg, Foundations of Potential Theory, 1929, ch. VII; Landau & Lifshitz vol. 8, sec. 4):
//!   E_i = (3 Q x_i / (8 pi eps0)) int_lambda^inf ds / ((a_i^2 + s) sqrt((a^2+s)(b^2+s)(c^2+s))),
//! lambda = 0 inside, else the positive root of sum x_i^2/(a_i^2 + lambda) = 1.
//! The integral is done with s = lambda + S u/(1-u), S = max(a, b, c)^2 + lambda, and Simpson's rule
//! (the integrand vanishes at u = 1).
inline Point3 ellipsoid_field(double Q, double a, double b, double c, Point3 p)
{
    double const x2[3] = {p.x * p.x, p.y * p.y, p.z * p.z};
    double const a2[3] = {a * a, b * b, c * c};
    double lambda = 0.0;
    if (x2[0] / a2[0] + x2[1] / a2[1] + x2[2] / a2[2] > 1.0) {
        double lo = 0.0, hi = 1.0;
        auto const g = [&](double l) {
            return x2[0] / (a2[0] + l) + x2[1] / (a2[1] + l) + x2[2] / (a2[2] + l) - 1.0;
        };
        while (g(hi) > 0.0) hi *= 2.0;
        for (int it = 0; it < 200; ++it) {
            double const mid = 0.5 * (lo + hi);
            (g(mid) > 0.0 ? lo : hi) = mid;
        }
        lambda = 0.5 * (lo + hi);
    }
    double e[3];
    double const coords[3] = {p.x, p.y, p.z};
    double const scale = std::max({a2[0], a2[1], a2[2]}) + lambda;
    for (int i = 0; i < 3; ++i) {
        auto const f = [&](double u) {
            if (u >= 1.0) return 0.0;
            double const s = lambda + scale * u / (1.0 - u);
            double const ds = scale / ((1.0 - u) * (1.0 - u));
            return ds / ((a2[i] + s) * std::sqrt((a2[0] + s) * (a2[1] + s) * (a2[2] + s)));
        };
        e[i] = 3.0 * Q * coords[i] / (8.0 * constants::pi * constants::eps0) * simpson01(f, 4000);
    }
    return {e[0], e[1], e[2]};
}

//! Field [V/m] of a 3D Gaussian charge Q (rms sx, sy, sz) from 1/r = (2/sqrt(pi)) int_0^inf exp(-r^2 t^2) dt:
//!   E_i = Q/(4 pi eps0) (2/sqrt(pi)) int_0^inf 2 x_i t^2/(1 + 2 s_i^2 t^2)
//!         prod_j exp(-x_j^2 t^2/(1 + 2 s_j^2 t^2)) / sqrt(1 + 2 s_j^2 t^2) dt,
//! integrated with t = T u/(1-u), T = 1/(sx sy sz)^(1/3), and Simpson's rule (the integrand falls as t^-3).
inline Point3 gaussian_field(double Q, double sx, double sy, double sz, Point3 p)
{
    double const x[3] = {p.x, p.y, p.z};
    double const s2[3] = {sx * sx, sy * sy, sz * sz};
    double e[3];
    double const scale = 1.0 / std::cbrt(sx * sy * sz);
    for (int i = 0; i < 3; ++i) {
        auto const f = [&](double u) {
            if (u >= 1.0) return 0.0;
            double const t = scale * u / (1.0 - u), dt = scale / ((1.0 - u) * (1.0 - u));
            double prod = 1.0;
            for (int j = 0; j < 3; ++j) {
                double const d = 1.0 + 2.0 * s2[j] * t * t;
                prod *= std::exp(-x[j] * x[j] * t * t / d) / std::sqrt(d);
            }
            return dt * 2.0 * x[i] * t * t / (1.0 + 2.0 * s2[i] * t * t) * prod;
        };
        e[i] = Q / (4.0 * constants::pi * constants::eps0) * (2.0 / std::sqrt(constants::pi)) *
               simpson01(f, 4000);
    }
    return {e[0], e[1], e[2]};
}

//! sqrt(sum |E - E_ref|^2 / sum |E_ref|^2) over the probes.
inline double relative_rms_error(std::vector<FieldProbe> const& probes, std::vector<Point3> const& reference)
{
    double num = 0.0, den = 0.0;
    for (size_type i = 0; i < probes.size(); ++i) {
        double const dx = probes[i].ex - reference[i].x, dy = probes[i].ey - reference[i].y,
                     dz = probes[i].ez - reference[i].z;
        num += dx * dx + dy * dy + dz * dz;
        den += reference[i].x * reference[i].x + reference[i].y * reference[i].y +
               reference[i].z * reference[i].z;
    }
    return std::sqrt(num / den);
}

//! Envelope of a cold uniform sphere: R'' = K / R^2, R(0) = R0, R'(0) = 0, where
//! K = q Q / (4 pi eps0 m c^2 beta^2 gamma^2) in every plane (transverse: dpx = q E'_x ds/(m c^2 beta^2
//! gamma^2) with E'_x = Q x/(4 pi eps0 R^3); longitudinal: z' = -beta gamma t and dz'/ds = -pt/(beta gamma)
//! in a linear drift give the same). Energy conservation, R'^2 = 2K (1/R0 - 1/R), integrates to
//!   s = sqrt(R0^3 / (2K)) [sqrt(u (u - 1)) + acosh(sqrt(u))],   u = R / R0,
//! inverted here by bisection.
inline double envelope_ratio(double s, double R0, double K)
{
    double const scale = std::sqrt(R0 * R0 * R0 / (2.0 * K));
    auto const s_of = [&](double u) { return scale * (std::sqrt(u * (u - 1.0)) + std::acosh(std::sqrt(u))); };
    double lo = 1.0, hi = 2.0;
    while (s_of(hi) < s) hi *= 2.0;
    for (int it = 0; it < 200; ++it) {
        double const mid = 0.5 * (lo + hi);
        (s_of(mid) < s ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

//! Deterministic pseudo-random numbers in [0, 1) for probe positions (a 64-bit LCG; quality is ample here).
struct Lcg {
    std::uint64_t state;
    double next()
    {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return double(state >> 11) * 0x1.0p-53;
    }
};

//! A lumpy bunch: a Gaussian core plus a uniform halo, so that cells hold very different counts.
inline std::vector<Point3> lumpy_bunch(size_type n, std::uint64_t seed)
{
    Lcg rng{seed};
    std::vector<Point3> out(n);
    for (size_type i = 0; i < n; ++i) {
        if (i % 5 == 0) {
            out[i] = {4e-3 * (rng.next() - 0.5), 3e-3 * (rng.next() - 0.5), 8e-3 * (rng.next() - 0.5)};
        } else {
            double const r = std::sqrt(-2.0 * std::log(1.0 - rng.next())), a = constants::two_pi * rng.next();
            double const r2 = std::sqrt(-2.0 * std::log(1.0 - rng.next())),
                         b = constants::two_pi * rng.next();
            out[i] = {0.5e-3 * r * std::cos(a), 0.4e-3 * r * std::sin(a), 1.0e-3 * r2 * std::cos(b)};
        }
    }
    return out;
}

}  // namespace gt::test
