// The integrated Green's function against independent quadratures of 1/r, and its doubled-grid layout.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "Relative.hh"
#include "kernels/cpu/Executor.hh"
#include "kernels/spacecharge/IntegratedGreenFunction.hh"
#include "kernels/spacecharge/IntegratedGreenFunction2D.hh"

using namespace gt;

namespace {

//! Gauss-Legendre nodes and weights on [-1, 1] (Newton on the Legendre recurrence).
void gauss_legendre(int n, std::vector<double>& x, std::vector<double>& w)
{
    x.assign(n, 0.0);
    w.assign(n, 0.0);
    for (int i = 0; i < n; ++i) {
        double z = std::cos(constants::pi * (i + 0.75) / (n + 0.5)), dp = 0.0;
        for (int it = 0; it < 100; ++it) {
            double p0 = 1.0, p1 = z;
            for (int k = 2; k <= n; ++k) {
                double const p2 = ((2.0 * k - 1.0) * z * p1 - (k - 1.0) * p0) / k;
                p0 = p1;
                p1 = p2;
            }
            dp = n * (z * p1 - p0) / (z * z - 1.0);
            double const dz = p1 / dp;
            z -= dz;
            if (std::abs(dz) < 1e-16) break;
        }
        x[i] = z;
        w[i] = 2.0 / ((1.0 - z * z) * dp * dp);
    }
}

//! int over the box of 1/r by tensor Gauss-Legendre (the box must not contain the origin).
double box_quadrature(double x0, double x1, double y0, double y1, double z0, double z1, int n)
{
    std::vector<double> t, w;
    gauss_legendre(n, t, w);
    double sum = 0.0;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            for (int k = 0; k < n; ++k) {
                double const x = 0.5 * (x0 + x1) + 0.5 * (x1 - x0) * t[i];
                double const y = 0.5 * (y0 + y1) + 0.5 * (y1 - y0) * t[j];
                double const z = 0.5 * (z0 + z1) + 0.5 * (z1 - z0) * t[k];
                sum += w[i] * w[j] * w[k] / std::sqrt(x * x + y * y + z * z);
            }
    return sum * (x1 - x0) * (y1 - y0) * (z1 - z0) / 8.0;
}

double corner_difference(double x0, double x1, double y0, double y1, double z0, double z1)
{
    auto const F = igf_primitive;
    return ((F(x1, y1, z1) - F(x0, y1, z1)) - (F(x1, y0, z1) - F(x0, y0, z1))) -
           ((F(x1, y1, z0) - F(x0, y1, z0)) - (F(x1, y0, z0) - F(x0, y0, z0)));
}

}  // namespace

TEST_CASE("the primitive's eight-corner difference is the integral of 1/r over a box")
{
    // Boxes away from the origin, of several aspect ratios: Gauss-Legendre with 24 points per
    // dimension integrates this smooth integrand to ~1e-13 relative, so agree to 1e-10.
    double const boxes[][6] = {{0.5, 1.5, 0.5, 1.5, 0.5, 1.5},
                               {2.5, 3.5, 0.0, 0.5, 0.0, 0.5},
                               {0.2, 0.3, 1.0, 4.0, 0.5, 0.55},
                               {10.5, 11.5, 3.5, 4.5, 20.5, 21.5},
                               {0.0, 0.5, 0.5, 1.5, 0.0, 0.5}};
    for (auto const& b : boxes) {
        CAPTURE(b[0]);
        CAPTURE(b[2]);
        CAPTURE(b[4]);
        double const igf = corner_difference(b[0], b[1], b[2], b[3], b[4], b[5]);
        double const quad = box_quadrature(b[0], b[1], b[2], b[3], b[4], b[5], 24);
        CHECK(igf == test::relative(quad, 1e-10));
    }
}

TEST_CASE("the cell at the origin: the mean of 1/r over a cube")
{
    // Independent value: split the cube [-a, a]^3 into six pyramids with apex at the origin; in
    // (x, u = y/x, v = z/x) the integral is 6 int_0^a x dx int int du dv / sqrt(1 + u^2 + v^2)
    // = 3 a^2 I2, I2 over [-1, 1]^2, smooth: Gauss-Legendre to ~1e-14.
    std::vector<double> t, w;
    gauss_legendre(40, t, w);
    double i2 = 0.0;
    for (int i = 0; i < 40; ++i)
        for (int j = 0; j < 40; ++j) i2 += w[i] * w[j] / std::sqrt(1.0 + t[i] * t[i] + t[j] * t[j]);
    double const h = 0.37;
    double const exact_mean = 3.0 * (h / 2) * (h / 2) * i2 / (h * h * h);

    GridGeometry g{4, 4, 4, 0.0, 0.0, 0.0, h, h, h};
    std::vector<double> corners(size_type(6 * 6 * 6)), green(size_type(8 * 8 * 8));
    cpu::for_each(corners.size(), IgfCorners{g, corners.data()});
    cpu::for_each(green.size(), IgfDoubledGrid{g, corners.data(), green.data()});
    CHECK(green[0] == test::relative(exact_mean, 1e-12));
    CHECK(green[0] * h == test::relative(2.3800772, 1e-7));  // the known constant for a unit cube
}

TEST_CASE("the doubled grid holds G of |offset| and tends to 1/r far away")
{
    GridGeometry g{8, 6, 10, 0.0, 0.0, 0.0, 1e-3, 2e-3, 0.5e-3};
    DoubledGrid const d = DoubledGrid::of(g);
    std::vector<double> corners(size_type(10 * 8 * 12)), green(d.real_size());
    cpu::for_each(corners.size(), IgfCorners{g, corners.data()});
    cpu::for_each(green.size(), IgfDoubledGrid{g, corners.data(), green.data()});
    // Evenness: index 2n - i holds offset i (exactly the same arithmetic).
    CHECK(green[d.index(3, 2, 4)] == green[d.index(16 - 3, 12 - 2, 20 - 4)]);
    CHECK(green[d.index(1, 0, 0)] == green[d.index(15, 0, 0)]);
    // Far from the origin the cell mean of 1/r is 1/r (1 + O((h/r)^2)): the second-order term is
    // (hx^2 (3x^2 - r^2) + ...)/(24 r^4) in size, < 3e-3 relative at offset (8, 6, 10) cells.
    double const x = 8 * g.hx, y = 6 * g.hy, z = 10 * g.hz;
    double const r = std::sqrt(x * x + y * y + z * z);
    CHECK(green[d.index(8, 6, 10)] == test::relative(1.0 / r, 3e-3));
    // And it matches the box quadrature at that offset.
    double const quad = box_quadrature(x - g.hx / 2, x + g.hx / 2, y - g.hy / 2, y + g.hy / 2, z - g.hz / 2,
                                       z + g.hz / 2, 16) /
                        g.cell_volume();
    CHECK(green[d.index(8, 6, 10)] == test::relative(quad, 1e-9));
}

TEST_CASE("2D: the primitive's four-corner difference is the integral of ln r over a rectangle")
{
    // Gauss-Legendre with 32 points per dimension on rectangles away from the origin: ~1e-14.
    // For the rectangle touching both axes at the origin (integrable log singularity at a corner),
    // polar coordinates give the closed form independently (two triangles, r < a/cos(theta)):
    // int_0^a int_0^a ln r = a^2 (ln a + ln(2)/2 - 3/2 + pi/4).
    std::vector<double> t, w;
    gauss_legendre(32, t, w);
    double const boxes[][4] = {
        {0.5, 1.5, 0.5, 1.5}, {2.0, 3.0, 0.1, 0.7}, {0.0, 0.5, 0.5, 1.5}, {7.5, 8.5, 3.5, 4.5}};
    for (auto const& b : boxes) {
        CAPTURE(b[0]);
        CAPTURE(b[2]);
        double quad = 0.0;
        for (int i = 0; i < 32; ++i)
            for (int j = 0; j < 32; ++j) {
                double const x = 0.5 * (b[0] + b[1]) + 0.5 * (b[1] - b[0]) * t[i];
                double const y = 0.5 * (b[2] + b[3]) + 0.5 * (b[3] - b[2]) * t[j];
                quad += w[i] * w[j] * 0.5 * std::log(x * x + y * y);
            }
        quad *= (b[1] - b[0]) * (b[3] - b[2]) / 4.0;
        auto const F = igf2_primitive;
        double const igf = (F(b[1], b[3]) - F(b[0], b[3])) - (F(b[1], b[2]) - F(b[0], b[2]));
        CHECK(igf == test::relative(quad, 1e-11));
    }
    double const a = 0.3;
    CHECK(igf2_primitive(a, a) ==
          test::relative(a * a * (std::log(a) + 0.5 * std::log(2.0) - 1.5 + constants::pi / 4), 1e-14));

    // On the doubled grid: offset 0 is four times the quarter cell, negative offsets mirror.
    GridGeometry g{6, 4, 1, 0.0, 0.0, 0.0, 0.2, 0.3, 1.0};
    std::vector<double> corners(size_type(8 * 6)), green(size_type(12 * 8));
    cpu::for_each(corners.size(), IgfCorners2D{g, corners.data()});
    cpu::for_each(green.size(), IgfDoubledGrid2D{g, corners.data(), green.data()});
    double const hx = 0.1, hy = 0.15;  // the quarter cell
    auto const F = igf2_primitive;
    CHECK(green[0] == test::relative(4.0 * F(hx, hy) / (0.2 * 0.3), 1e-14));
    CHECK(green[size_type(1 * 12 + 2)] == green[size_type((8 - 1) * 12 + (12 - 2))]);
}
