// On-axis profiles: the file reader's checks, and the natural cubic spline's accuracy.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <fstream>

#include "IoTestSupport.hh"
#include "Relative.hh"
#include "TextTestSupport.hh"
#include "beam/CubicSpline.hh"
#include "beam/OnAxisProfile.hh"
#include "deck/DeckError.hh"
#include "kernels/field/CubicSplineProfile.hh"

using namespace gt;
using namespace gt::test;

namespace {

std::string write(TempDir const& dir, std::string const& name, std::string const& text)
{
    std::string const path = dir.file(name);
    std::ofstream(path) << text;
    return path;
}

//! The error message of reading `text` as a magnetic profile ("" when it reads).
std::string error_of(std::string const& text, ProfileQuantity q = ProfileQuantity::magnetic)
{
    TempDir dir;
    std::string const path = write(dir, "profile.txt", text);
    try {
        read_on_axis_profile(path, q, "elements.S.profile", SourceLocation{"deck.toml", 3, 1});
    } catch (DeckError const& e) {
        return e.what();
    }
    return "";
}

CubicSplineProfile view_of(std::vector<double> const& coefficients, double z_lo, double dz)
{
    return CubicSplineProfile{
        coefficients.data(), 0, std::int32_t(coefficients.size() / 4), z_lo, dz, 1.0 / dz};
}

}  // namespace

TEST_CASE("a profile file reads in SI units")
{
    TempDir dir;
    std::string const path =
        write(dir, "gun.txt", "# z [mm]  Ez [MV/m]\n# comment\n0 1\n\n10 2.5\n20 -3\n30 0\n");
    OnAxisProfile const p = read_on_axis_profile(path, ProfileQuantity::electric, "k", {});
    CHECK(p.z_first == 0.0);
    CHECK(p.dz == test::relative(0.01, 1e-15));
    REQUIRE(p.values.size() == 4);
    CHECK(p.values[1] == 2.5e6);
    CHECK(p.peak() == 3e6);
    CHECK(p.length() == test::relative(0.03, 1e-15));
}

TEST_CASE("bad profile files: each error names the file, the line and the problem")
{
    CHECK(contains(error_of("0 1\n1 2\n"), "the first line must name the columns"));
    CHECK(contains(error_of("# z [m] Ez [V/m]\n0 1\n"), "this element needs Bz"));
    CHECK(contains(error_of("# z [m] Bz [tesla]\n0 1\n"), "unknown unit 'tesla' for Bz"));
    CHECK(contains(error_of("# z [in] Bz [T]\n0 1\n"), "unknown unit 'in' for z"));
    std::string const decreasing = error_of("# z [m] Bz [T]\n0 1\n0.1 2\n0.1 3\n0.3 4\n");
    CHECK(contains(decreasing, "profile.txt:4:"));
    CHECK(contains(decreasing, "elements.S.profile"));
    CHECK(contains(decreasing, "the grid must increase"));
    CHECK(contains(error_of("# z [m] Bz [T]\n0 1\n0.1 nan\n0.2 3\n0.3 4\n"), "profile.txt:3:"));
    CHECK(contains(error_of("# z [m] Bz [T]\n0 1\n0.1 nan\n0.2 3\n0.3 4\n"), "must be finite"));
    CHECK(contains(error_of("# z [m] Bz [T]\n0 1\n0.1 x\n"), "Bz is not a number: 'x'"));
    CHECK(contains(error_of("# z [m] Bz [T]\n0 1 2\n"), "expected two numbers"));
    CHECK(contains(error_of("# z [m] Bz [T]\n0 1\n0.1 2\n"), "at least 4"));
    std::string const uneven = error_of("# z [m] Bz [T]\n0 1\n0.1 2\n0.25 3\n0.3 4\n");
    CHECK(contains(uneven, "profile.txt:4:"));
    CHECK(contains(uneven, "off the uniform grid"));
    CHECK(contains(error_of(""), "the file is empty"));
    try {
        read_on_axis_profile("/nonexistent/x.txt", ProfileQuantity::magnetic, "elements.S.profile",
                             SourceLocation{"deck.toml", 3, 1});
        FAIL("no error");
    } catch (DeckError const& e) {
        CHECK(
            contains(e.what(),
                     "deck.toml:3:1: elements.S.profile: cannot open the profile file '/nonexistent/x.txt'"));
    }
}

TEST_CASE("natural cubic spline: exact for straight lines, fourth-order accurate for a smooth profile")
{
    std::vector<double> line;
    for (int i = 0; i < 7; ++i) line.push_back(2.0 - 0.5 * i * 0.1);
    std::vector<double> const cl = natural_cubic_spline(line, 0.1);
    CubicSplineProfile const l = view_of(cl, 1.0, 0.1);
    for (double z : {1.0, 1.037, 1.33, 1.59}) {
        ProfileSample const s = l(z);
        CHECK(std::abs(s.f - (2.0 - 0.5 * (z - 1.0))) <= 1e-14);  // a few roundings of O(1) numbers
        CHECK(std::abs(s.d1 + 0.5) <= 1e-12);
        CHECK(std::abs(s.d2) <= 1e-10);
    }
    CHECK(l(0.99).f == 0.0);
    CHECK(l(1.61).f == 0.0);

    // f = exp(-z^2) on [-4, 4] (negligible curvature at the ends, where the natural condition
    // f'' = 0 is imposed): the interior error of a cubic spline falls as h^4 for f, h^3 for f',
    // h^2 for f'' (de Boor, ch. IV). Halving h must divide the errors by ~16, ~8 and ~4; we ask
    // for 12, 6 and 3 to leave room for the pre-asymptotic terms.
    auto errors = [](int n) {
        double const dz = 8.0 / (n - 1);
        std::vector<double> f;
        for (int i = 0; i < n; ++i) f.push_back(std::exp(-std::pow(-4.0 + i * dz, 2)));
        std::vector<double> const c = natural_cubic_spline(f, dz);
        CubicSplineProfile const s = view_of(c, -4.0, dz);
        std::array<double, 3> e{};
        for (double z = -2.0; z <= 2.0; z += 0.0137) {
            ProfileSample const v = s(z);
            double const g = std::exp(-z * z);
            e[0] = std::max(e[0], std::abs(v.f - g));
            e[1] = std::max(e[1], std::abs(v.d1 + 2 * z * g));
            e[2] = std::max(e[2], std::abs(v.d2 - (4 * z * z - 2) * g));
        }
        return e;
    };
    auto const coarse = errors(81), fine = errors(161);
    CHECK(coarse[0] < 1e-5);
    CHECK(coarse[0] / fine[0] > 12.0);
    CHECK(coarse[1] / fine[1] > 6.0);
    CHECK(coarse[2] / fine[2] > 3.0);
}
