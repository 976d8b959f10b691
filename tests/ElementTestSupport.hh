// Helpers for the element tests: 6x6 matrices, Jacobians by central differences, the symplectic
// check, an RK4 integrator for reference solutions, and reference particles.
#pragma once

#include <array>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "kernels/core/ParticleState.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "kernels/core/Types.hh"

namespace gt::test {

using Vec6 = std::array<double, 6>;
using Mat6 = std::array<Vec6, 6>;
using Map = std::function<bool(Particle&)>;

inline Vec6 to_vec(Particle const& p) { return {p.x, p.px, p.y, p.py, p.t, p.pt}; }
inline Particle to_particle(Vec6 const& v) { return Particle{v[0], v[1], v[2], v[3], v[4], v[5]}; }

inline Mat6 identity6()
{
    Mat6 m{};
    for (int i = 0; i < 6; ++i) m[i][i] = 1.0;
    return m;
}

inline Mat6 multiply(Mat6 const& a, Mat6 const& b)
{
    Mat6 c{};
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j)
            for (int k = 0; k < 6; ++k) c[i][j] += a[i][k] * b[k][j];
    return c;
}

//! Columns = images of the unit vectors: exact (up to rounding) for a linear map without offset.
inline Mat6 matrix_of_linear_map(Map const& map)
{
    Mat6 m{};
    for (int j = 0; j < 6; ++j) {
        Vec6 e{};
        e[j] = 1.0;
        Particle p = to_particle(e);
        if (!map(p)) throw std::runtime_error("particle lost while building a matrix");
        Vec6 const v = to_vec(p);
        for (int i = 0; i < 6; ++i) m[i][j] = v[i];
    }
    return m;
}

//! Jacobian at z0 by central differences with step h in every coordinate. Error per entry:
//! truncation h^2 |f'''| / 6 plus rounding ~ eps |f| / h.
inline Mat6 jacobian_central(Map const& map, Vec6 const& z0, double h)
{
    Mat6 m{};
    for (int j = 0; j < 6; ++j) {
        Vec6 plus = z0, minus = z0;
        plus[j] += h;
        minus[j] -= h;
        Particle a = to_particle(plus), b = to_particle(minus);
        if (!map(a) || !map(b)) throw std::runtime_error("particle lost while differentiating");
        Vec6 const va = to_vec(a), vb = to_vec(b);
        for (int i = 0; i < 6; ++i) m[i][j] = (va[i] - vb[i]) / (2.0 * h);
    }
    return m;
}

//! Central differences at h and h/2 combined by Richardson extrapolation, (4 D(h/2) - D(h)) / 3:
//! the h^2 term cancels, leaving ~h^4 |f^(5)| / 100 and rounding ~ 2 eps |f| / h.
inline Mat6 jacobian(Map const& map, Vec6 const& z0, double h)
{
    Mat6 const coarse = jacobian_central(map, z0, h);
    Mat6 const fine = jacobian_central(map, z0, 0.5 * h);
    Mat6 m{};
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j) m[i][j] = (4.0 * fine[i][j] - coarse[i][j]) / 3.0;
    return m;
}

//! max |M^T J M - scale J| over the entries, J the symplectic form of (x,px),(y,py),(t,pt).
inline double symplectic_error(Mat6 const& m, double scale = 1.0)
{
    Mat6 j{};
    for (int k = 0; k < 3; ++k) {
        j[2 * k][2 * k + 1] = 1.0;
        j[2 * k + 1][2 * k] = -1.0;
    }
    Mat6 mt{};
    for (int a = 0; a < 6; ++a)
        for (int b = 0; b < 6; ++b) mt[a][b] = m[b][a];
    Mat6 const r = multiply(mt, multiply(j, m));
    double err = 0.0;
    for (int a = 0; a < 6; ++a)
        for (int b = 0; b < 6; ++b) err = std::max(err, std::abs(r[a][b] - scale * j[a][b]));
    return err;
}

//! max_ij |a_ij - b_ij| / max(|b_ij|, floor)
inline double max_relative_difference(Mat6 const& a, Mat6 const& b, double floor = 1.0)
{
    double err = 0.0;
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j)
            err = std::max(err, std::abs(a[i][j] - b[i][j]) / std::max(std::abs(b[i][j]), floor));
    return err;
}

//! Classical Runge-Kutta for dz/ds = f(z) over `length` in `steps` steps (the independent reference).
inline Vec6 rk4(std::function<Vec6(Vec6 const&)> const& f, Vec6 z, double length, int steps)
{
    double const h = length / steps;
    auto axpy = [](Vec6 const& z0, Vec6 const& k, double a) {
        Vec6 r;
        for (int i = 0; i < 6; ++i) r[i] = z0[i] + a * k[i];
        return r;
    };
    for (int s = 0; s < steps; ++s) {
        Vec6 const k1 = f(z);
        Vec6 const k2 = f(axpy(z, k1, 0.5 * h));
        Vec6 const k3 = f(axpy(z, k2, 0.5 * h));
        Vec6 const k4 = f(axpy(z, k3, h));
        for (int i = 0; i < 6; ++i) z[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
    }
    return z;
}

//! |a - b| / |b| (0 when equal): a purely relative comparison (doctest::Approx adds a scale of 1,
//! which makes it absolute for small numbers).
inline double rel_diff(double a, double b) { return a == b ? 0.0 : std::abs(a - b) / std::abs(b); }

inline double max_abs_difference(Vec6 const& a, Vec6 const& b)
{
    double err = 0.0;
    for (int i = 0; i < 6; ++i) err = std::max(err, std::abs(a[i] - b[i]));
    return err;
}

//! An 800 MeV proton (beta ~ 0.84: the t-pt terms matter) and a slow 5 MeV proton (beta ~ 0.1).
inline ReferenceParticle proton(double kinetic_mev = 800.0)
{
    return ReferenceParticle::from_kinetic(constants::proton_mass_mev, 1.0, kinetic_mev);
}

}  // namespace gt::test
