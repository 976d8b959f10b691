// The tunes and damping of a damped one-turn matrix (optics/DampedModes.hh) against matrices built from
// known eigenvalues: each plane a rotation by 2 pi Q in its Courant-Snyder frame scaled by exp(-alpha), then
// coupled by a symplectic similarity (which keeps the eigenvalues).
#include <doctest/doctest.h>

#include <cmath>

#include "Relative.hh"
#include "kernels/core/Types.hh"
#include "optics/DampedModes.hh"
#include "optics/ModeAnalysis.hh"

namespace gt::optics {
namespace {

//! Block-diagonal: plane p is exp(-alpha_p) [[cos + a sin, b sin], [-(1 + a^2)/b sin, cos - a sin]].
RMat damped_blocks(double const (&tune)[3], double const (&alpha)[3])
{
    RMat m{};
    double const beta[3] = {7.0, 3.0, 40.0}, a[3] = {-1.2, 0.4, 0.0};
    for (int p = 0; p < 3; ++p) {
        double const mu = constants::two_pi * tune[p], c = std::cos(mu), s = std::sin(mu),
                     f = std::exp(-alpha[p]);
        m[2 * p][2 * p] = f * (c + a[p] * s);
        m[2 * p][2 * p + 1] = f * beta[p] * s;
        m[2 * p + 1][2 * p] = -f * (1.0 + a[p] * a[p]) / beta[p] * s;
        m[2 * p + 1][2 * p + 1] = f * (c - a[p] * s);
    }
    return m;
}

RMat product(RMat const& a, RMat const& b)
{
    RMat c{};
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j)
            for (int k = 0; k < 6; ++k) c[i][j] += a[i][k] * b[k][j];
    return c;
}

TEST_CASE("damped modes: tunes and damping of a light source's one-turn map, plane by plane and coupled")
{
    // A light source's figures: Qs = 0.005, damping 1e-4 per turn. The symplectic shortcut (2 cos mu from the
    // palindromic polynomial) would read 2 |lambda| cos mu: Qs off by alpha / (2 pi Qs)^2 = 20%.
    double const tune[3] = {0.2256, 0.3632, 0.0051640}, alpha[3] = {1.2e-4, 1.0e-4, 2.0e-4};
    RMat m = damped_blocks(tune, alpha);
    SUBCASE("uncoupled") {}
    SUBCASE("coupled by a similarity (x-y and dispersion-like x-pt terms): same eigenvalues")
    {
        // D = 1 + N with N nilpotent (entries (0,5) and (2,0): N^2 has (2,5) only, N^3 = 0), so that
        // D^-1 = 1 - N + N^2 exactly.
        RMat n{}, d{}, dinv{};
        n[0][5] = 0.7;
        n[2][0] = 0.05;
        RMat const n2 = product(n, n);
        for (int i = 0; i < 6; ++i)
            for (int j = 0; j < 6; ++j) {
                double const id = i == j ? 1.0 : 0.0;
                d[i][j] = id + n[i][j];
                dinv[i][j] = id - n[i][j] + n2[i][j];
            }
        m = product(product(d, m), dinv);
    }
    auto const modes = damped_modes(m);
    REQUIRE(modes.size() == 3);
    for (int p = 0; p < 3; ++p) {
        CHECK(modes[static_cast<std::size_t>(p)].plane == p);
        // Round-off of the characteristic polynomial's roots: 1e-12 of a tune, 1e-10 of a damping rate.
        CHECK(modes[static_cast<std::size_t>(p)].tune == test::relative(tune[p], 1e-10));
        CHECK(modes[static_cast<std::size_t>(p)].damping == test::relative(alpha[p], 1e-8));
    }
}

TEST_CASE("damped modes: a mode that does not oscillate is refused")
{
    double const tune[3] = {0.2256, 0.3632, 0.0051640}, alpha[3] = {1.2e-4, 1.0e-4, 2.0e-4};
    RMat m = damped_blocks(tune, alpha);
    // The longitudinal block hyperbolic (RF on the wrong side of transition): real eigenvalues 1.1, 1/1.1.
    m[4][4] = 1.1;
    m[4][5] = 0.0;
    m[5][4] = 0.0;
    m[5][5] = 1.0 / 1.1;
    CHECK_THROWS_WITH(damped_modes(m), doctest::Contains("real eigenvalue"));
}

}  // namespace
}  // namespace gt::optics
