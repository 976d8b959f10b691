// gt::pmath against the C library: the portable functions must be accurate to about 1 ulp.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "kernels/core/PortableMath.hh"

namespace {
// Distance in units in the last place; 2 ulp allows the rounding of the final additions of each
// series on top of glibc's own (< 1 ulp) error.
double ulps(double a, double b)
{
    if (a == b) return 0.0;
    return std::abs(a - b) / std::abs(std::nextafter(b, HUGE_VAL) - b);
}
}  // namespace

TEST_CASE("pmath::log matches std::log to 2 ulp over many decades")
{
    std::mt19937_64 gen(1);
    std::uniform_real_distribution<double> exponent(-300.0, 300.0);
    for (int i = 0; i < 200000; ++i) {
        double const x = std::pow(10.0, exponent(gen));
        REQUIRE(ulps(gt::pmath::log(x), std::log(x)) <= 2.0);
    }
    // Near 1 the result is small: compare absolutely (log(1+d) ~ d).
    for (double d = -1e-3; d < 1e-3; d += 1.37e-6) {
        double const x = 1.0 + d;
        REQUIRE(std::abs(gt::pmath::log(x) - std::log(x)) <= 4e-16 * std::abs(std::log(x)) + 1e-19);
    }
    CHECK(gt::pmath::log(1.0) == 0.0);
    CHECK(std::isinf(gt::pmath::log(0.0)));
    CHECK(std::isnan(gt::pmath::log(-1.0)));
}

TEST_CASE("pmath::exp matches std::exp to 2 ulp")
{
    std::mt19937_64 gen(2);
    std::uniform_real_distribution<double> arg(-700.0, 700.0);
    for (int i = 0; i < 200000; ++i) {
        double const x = arg(gen);
        REQUIRE(ulps(gt::pmath::exp(x), std::exp(x)) <= 2.0);
    }
    CHECK(gt::pmath::exp(0.0) == 1.0);
    CHECK(std::isinf(gt::pmath::exp(800.0)));
    CHECK(gt::pmath::exp(-800.0) == 0.0);
}

TEST_CASE("pmath::sin and cos match the C library for |x| < 1e5")
{
    std::mt19937_64 gen(3);
    std::uniform_real_distribution<double> arg(-1e5, 1e5);
    for (int i = 0; i < 200000; ++i) {
        double const x = (i % 2 == 0) ? arg(gen) : arg(gen) * 1e-5;
        double s = 0, c = 0;
        gt::pmath::sincos(x, s, c);
        // Absolute error: near a zero of sin or cos the relative error is meaningless; 2e-16
        // is one ulp of values of order one.
        REQUIRE(std::abs(s - std::sin(x)) <= 2.5e-16);
        REQUIRE(std::abs(c - std::cos(x)) <= 2.5e-16);
    }
    CHECK(gt::pmath::sin(0.0) == 0.0);
    CHECK(gt::pmath::cos(0.0) == 1.0);
    CHECK(std::isnan(gt::pmath::sin(INFINITY)));
}

TEST_CASE("pmath::sincos of a huge angle is defined behaviour (fuzz finding: an RF field map's phase of 1.7e301)")
{
    // The quadrant came from casting the multiple of pi/2 to long long, undefined beyond 2^63
    // (UBSan in FieldMapFuzz). The values are meaningless there (NaN or inf once the reduced angle
    // overflows the polynomial); the call must only be well defined, which the sanitizer build checks here.
    for (double x : {1.71887e301, -1.71887e301, 9.3e18, -9.3e18, 1e300}) {
        double s = 0, c = 0;
        gt::pmath::sincos(x, s, c);
        CHECK(!(s == 0.0 && c == 0.0));  // it returned (the sanitizer build reports the undefined cast)
    }
    // Where the cast was defined the quadrant is unchanged: these match the C library.
    for (double x : {-7.0, -3.5, -1.0, 2.0, 5.5, 1000.25}) {
        double s = 0, c = 0;
        gt::pmath::sincos(x, s, c);
        CHECK(std::abs(s - std::sin(x)) < 1e-15);
        CHECK(std::abs(c - std::cos(x)) < 1e-15);
    }
}
