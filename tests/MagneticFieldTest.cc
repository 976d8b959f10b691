// Field models: Bulirsch's cel against quadrature, the finite solenoid against its on-axis closed
// form, the long-solenoid limit and Maxwell's equations; field maps interpolate linear fields exactly
// and are read back from HDF5 as written.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <vector>

#include "Relative.hh"
#include "detector/DetectorSetup.hh"
#include "io/H5Access.hh"
#include "io/H5Handle.hh"
#include "kernels/field/MagneticField.hh"

using namespace gt;

namespace {

//! Composite Simpson quadrature of cel's integrand; 20000 panels resolve it to ~1e-13 for kc >= 0.05.
double cel_quadrature(double kc, double p, double c, double s)
{
    int const n = 20000;
    double const h = 0.5 * constants::pi / n;
    auto f = [&](double phi) {
        double const cs = std::cos(phi), sn = std::sin(phi);
        double const c2 = cs * cs, s2 = sn * sn;
        return (c * c2 + s * s2) / ((c2 + p * s2) * std::sqrt(c2 + kc * kc * s2));
    };
    double sum = f(0) + f(0.5 * constants::pi);
    for (int i = 1; i < n; ++i) sum += (i % 2 ? 4.0 : 2.0) * f(i * h);
    return sum * h / 3.0;
}

}  // namespace

TEST_CASE("Bulirsch's cel matches quadrature and the complete elliptic integral K")
{
    for (double kc : {0.05, 0.3, 0.7, 1.0, 1.6}) {
        for (double p : {1.0, 0.25, 2.0, 1e-3}) {
            for (auto [c, s] : {std::pair{1.0, 1.0}, std::pair{1.0, -1.0}, std::pair{0.3, 0.8}}) {
                CAPTURE(kc);
                CAPTURE(p);
                // 1e-10 of the value, with a floor of the quadrature's round-off (~1e-16 on integrands of
                // order 1) where the integral cancels to 0 (kc = p = 1, c = -s: cel is 0 exactly)
                double const q = cel_quadrature(kc, p, c, s);
                CHECK(bulirsch_cel(kc, p, c, s) == test::absolute(q, std::max(1e-10 * std::abs(q), 1e-15)));
            }
        }
    }
    // complete elliptic integrals: cel(kc, 1, 1, 1) = K(k), K(0) = pi/2 and K(k^2 = 1/2) = 1.8540746773013719
    CHECK(bulirsch_cel(1.0, 1.0, 1.0, 1.0) == test::relative(constants::pi / 2, 1e-14));
    CHECK(bulirsch_cel(std::sqrt(0.5), 1.0, 1.0, 1.0) == test::relative(1.8540746773013719, 1e-13));
}

TEST_CASE("the finite solenoid: on-axis closed form, long-solenoid limit, div B = 0 and curl B = 0")
{
    SolenoidField const sol{2.0, 0.5, 1.0, {0.1, -0.2, 0.3}};
    for (double z : {-3.0, -1.2, -0.9, 0.0, 0.4, 0.99, 2.5}) {
        Vec3 const b = sol({0.1, -0.2, 0.3 + z});
        double const a = sol.radius, L = sol.half_length;
        double const exact = 0.5 * sol.b0 * ((z + L) / std::hypot(z + L, a) - (z - L) / std::hypot(z - L, a));
        CAPTURE(z);
        CHECK(b.z == test::relative(exact, 1e-12));
        CHECK(std::fabs(b.x) < 1e-15);
    }
    // a solenoid 100 times longer than wide: the field inside, away from the ends, is b0 and uniform
    SolenoidField const longsol{1.5, 0.1, 10.0, {}};
    for (double r : {0.0, 0.05, 0.09}) {
        Vec3 const b = longsol({r, 0, 0.5});
        CHECK(b.z == test::relative(1.5, 2e-4));
        CHECK(std::fabs(b.x) < 1e-5);
        CHECK(std::fabs(longsol({0.2, 0.0, 0.0}).z) < 1e-3);  // outside: almost nothing
    }
    // Maxwell in vacuum away from the current sheet, by central differences (error ~ h^2 B''' ~ 1e-9)
    double const h = 1e-4;
    for (Vec3 p : {Vec3{0.2, 0.1, 0.7}, Vec3{0.7, -0.3, 1.4}, Vec3{0.05, 0.02, 1.05}, Vec3{-0.3, 0.4, 0.0}}) {
        auto d = [&](int comp, int axis) {
            Vec3 a = p, b = p;
            a[axis] += h;
            b[axis] -= h;
            return (sol(a)[comp] - sol(b)[comp]) / (2 * h);
        };
        double const div = d(0, 0) + d(1, 1) + d(2, 2);
        double const curl_x = d(2, 1) - d(1, 2), curl_y = d(0, 2) - d(2, 0), curl_z = d(1, 0) - d(0, 1);
        CAPTURE(p.x);
        CHECK(std::fabs(div) < 1e-6);
        CHECK(std::fabs(curl_x) < 1e-6);
        CHECK(std::fabs(curl_y) < 1e-6);
        CHECK(std::fabs(curl_z) < 1e-6);
    }
}

TEST_CASE("field maps: trilinear and bilinear interpolation reproduce linear fields exactly")
{
    auto linear = [](Vec3 p) {
        return Vec3{0.1 + 0.2 * p.x, -0.3 * p.y + 0.05 * p.z, 1.0 + 0.4 * p.x - 0.1 * p.z};
    };
    int const n[3] = {4, 5, 6};
    Vec3 const lo{-1.0, -2.0, -0.5}, dx{0.5, 1.0, 0.25};
    std::vector<double> values;
    for (int i = 0; i < n[0]; ++i)
        for (int j = 0; j < n[1]; ++j)
            for (int k = 0; k < n[2]; ++k) {
                Vec3 const b = linear({lo.x + i * dx.x, lo.y + j * dx.y, lo.z + k * dx.z});
                values.insert(values.end(), {b.x, b.y, b.z});
            }
    CartesianFieldMap map{values.data(), {n[0], n[1], n[2]}, lo, dx};
    for (Vec3 p :
         {Vec3{0.1, 0.2, 0.3}, Vec3{-0.99, 1.9, 0.74}, Vec3{0.5, -2.0, -0.5}, Vec3{0.5, 2.0, 0.75}}) {
        Vec3 const b = map(p), e = linear(p);
        CHECK(norm(b - e) < 1e-14);
    }
    CHECK(norm(map({2.0, 0, 0})) == 0.0);  // outside the grid

    // (r, z): B_r = 0.3 r, B_z = 1 - 0.2 z (a field with div B = 0.6 + ... need not hold for the check)
    int const nr = 5, nz = 7;
    std::vector<double> rz;
    for (int i = 0; i < nr; ++i)
        for (int k = 0; k < nz; ++k) rz.insert(rz.end(), {0.3 * (0.25 * i), 1.0 - 0.2 * (-1.0 + 0.5 * k)});
    RzFieldMap rzmap{rz.data(), nr, nz, 0.25, 0.5, -1.0, {0, 0, 0}};
    Vec3 const b = rzmap({0.3, 0.4, 0.7});
    double const r = 0.5;
    CHECK(b.x == test::relative(0.3 * r * 0.3 / r, 1e-13));
    CHECK(b.y == test::relative(0.3 * r * 0.4 / r, 1e-13));
    CHECK(b.z == test::relative(1.0 - 0.2 * 0.7, 1e-13));
}

TEST_CASE("a field map is read from HDF5 as docs/decks.md lays it out")
{
    std::string const path = (std::filesystem::temp_directory_path() / "gtrack_fieldmap_test.h5").string();
    {
        hid_t const f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
        REQUIRE(f >= 0);
        std::vector<double> values(2 * 3 * 4 * 3);
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = 0.01 * static_cast<double>(i);
        h5::write_dataset(f, "B", values);
        hid_t const d = H5Dopen2(f, "B", H5P_DEFAULT);
        std::vector<std::uint64_t> shape = {2, 3, 4};
        std::vector<double> spacing = {0.1, 0.2, 0.3}, lower = {-0.1, -0.2, -0.3};
        h5::write_attribute(d, "shape", std::span<std::uint64_t const>(shape));
        h5::write_attribute(d, "spacing", std::span<double const>(spacing));
        h5::write_attribute(d, "lower", std::span<double const>(lower));
        H5Dclose(d);
        H5Fclose(f);
    }
    FieldConfig cfg;
    cfg.type = "map";
    cfg.format = "cartesian";
    cfg.file = path;
    MagneticField field;
    std::vector<double> values;
    read_field_map(cfg, field, values);
    field.cartesian.values = values.data();
    CHECK(field.type == FieldType::cartesian_map);
    CHECK(field.cartesian.n[2] == 4);
    // at a grid node the map returns the node's value: node (1, 2, 3) holds index ((1*3+2)*4+3)*3
    Vec3 const b = field({0.0, 0.2, 0.6});
    CHECK(b.x == test::relative(0.01 * (((1 * 3 + 2) * 4 + 3) * 3), 1e-12));
    cfg.format = "rz";  // the same file has three axes: refused with a message naming the file
    CHECK_THROWS_WITH_AS(read_field_map(cfg, field, values), doctest::Contains("gtrack_fieldmap_test.h5"),
                         std::invalid_argument);
    std::filesystem::remove(path);
}
