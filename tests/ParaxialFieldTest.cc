// Paraxial off-axis fields against exact fields: a finite solenoid (elliptic integrals) and the
// TM010 pillbox mode (Bessel functions).
#include <doctest/doctest.h>

#include <cmath>
#include <initializer_list>

#include "Relative.hh"
#include "kernels/core/Types.hh"
#include "kernels/field/ParaxialField.hh"
#include "kernels/field/SolenoidField.hh"

using namespace gt;

TEST_CASE("solenoid: the third-order expansion of the on-axis field matches the exact field off axis")
{
    SolenoidField exact;
    exact.b0 = 1.0;
    exact.radius = 0.05;
    exact.half_length = 0.1;
    // On-axis Bz of a finite solenoid and its derivatives, analytically:
    // B(z) = (B0/2) (g(z + b) - g(z - b)), g(u) = u / sqrt(u^2 + a^2).
    double const a = exact.radius, b = exact.half_length;
    auto g = [&](double u, int n) {
        double const q = u * u + a * a;
        switch (n) {
            case 0:
                return u / std::sqrt(q);
            case 1:
                return a * a / std::pow(q, 1.5);
            case 2:
                return -3.0 * a * a * u / std::pow(q, 2.5);
            default:
                return -3.0 * a * a * (a * a - 4.0 * u * u) / std::pow(q, 3.5);
        }
    };
    auto on_axis = [&](double z) {
        return ProfileSample{0.5 * (g(z + b, 0) - g(z - b, 0)), 0.5 * (g(z + b, 1) - g(z - b, 1)),
                             0.5 * (g(z + b, 2) - g(z - b, 2)), 0.5 * (g(z + b, 3) - g(z - b, 3))};
    };
    for (double z : {-0.2, -0.1, -0.03, 0.0, 0.07, 0.12}) {
        // The first neglected terms: r^4/64 B'''' in Bz, r^5/384 B^(5) in Br (docs/physics.md),
        // with B'''' and B^(5) by central differences of the analytic B'''. The tolerance is 1.5x
        // that term, plus 1e-9 for the next order ((r/a)^6 / 2304 ~ 1e-9 at r = 5 mm, a = 5 cm).
        double const h = 1e-4;
        double const b4 = (on_axis(z + h).d3 - on_axis(z - h).d3) / (2 * h);
        double const b5 = (on_axis(z + h).d3 - 2 * on_axis(z).d3 + on_axis(z - h).d3) / (h * h);
        for (double r : {0.002, 0.005}) {
            FieldValue const f = paraxial_solenoid(on_axis(z), r, 0.0);
            Vec3 const e = exact(Vec3{r, 0.0, z});
            CHECK(std::abs(f.bz - e.z) <= 1.5 * std::pow(r, 4) / 64 * std::abs(b4) + 1e-9);
            CHECK(std::abs(f.bx - e.x) <= 1.5 * std::pow(r, 5) / 384 * std::abs(b5) + 1e-9);
            CHECK(f.by == 0.0);
        }
    }
}

TEST_CASE("pillbox TM010: the expansion of a flat on-axis profile is the Bessel series of the exact mode")
{
    // Exact mode: Ez = E0 J0(k r) cos(psi), Btheta = -(E0/c) J1(k r) sin(psi), k = 2.405 / R
    // (Wangler, RF Linear Accelerators, eq. 5.8). Inside the gap e(z) = E0: e' = e'' = e''' = 0.
    double const e0 = 2e7, k = 2.404825557695773 / 0.1;
    ProfileSample const flat{e0, 0.0, 0.0, 0.0};
    double const psi = 0.3;
    for (double r : {0.001, 0.005, 0.01}) {
        double const x = r * std::cos(0.7), y = r * std::sin(0.7);
        FieldValue const f =
            paraxial_tm0(flat, k, 1.0 / constants::c_light, x, y, std::cos(psi), std::sin(psi));
        double const ez = e0 * std::cyl_bessel_j(0.0, k * r) * std::cos(psi);
        double const bt = -e0 / constants::c_light * std::cyl_bessel_j(1.0, k * r) * std::sin(psi);
        // Next terms: (kr)^4/64 in J0, (kr)^5/384 in J1: at kr = 0.24, 5e-5 and 2e-6 relative.
        double const kr = k * r;
        CHECK(std::abs(f.ez - ez) <= 1.1 * e0 * std::pow(kr, 4) / 64.0);
        CHECK(std::abs(f.ex) + std::abs(f.ey) == 0.0);
        CHECK(std::abs(std::hypot(f.bx, f.by) - std::abs(bt)) <=
              1.1 * e0 / constants::c_light * std::pow(kr, 5) / 384.0);
        // B_theta points along (-y, x) times its sign.
        CHECK(f.by * x - f.bx * y == test::relative(bt * r, 1e-4));
    }
}
