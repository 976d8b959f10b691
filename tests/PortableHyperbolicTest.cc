// gt::pmath::sinh, cosh against the C library, including small arguments where exp would cancel.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "kernels/core/PortableMath.hh"

namespace {
double ulps(double a, double b)
{
    if (a == b) return 0.0;
    return std::abs(a - b) / std::abs(std::nextafter(b, HUGE_VAL) - b);
}
}  // namespace

TEST_CASE("pmath::sinh and cosh match std:: to 3 ulp from 1e-300 to 700")
{
    std::mt19937_64 gen(3);
    std::uniform_real_distribution<double> exponent(-300.0, std::log10(700.0));
    for (int i = 0; i < 200000; ++i) {
        double const x = (i % 2 ? -1.0 : 1.0) * std::pow(10.0, exponent(gen));
        double s = 0, c = 0;
        gt::pmath::sinhcosh(x, s, c);
        // 3 ulp: the series or the exp-based form rounds a few times on top of glibc's < 1 ulp;
        // near |x| = 1, (e - 1/e)/2 loses up to 1.3 ulp to the subtraction.
        REQUIRE(ulps(s, std::sinh(x)) <= 3.0);
        REQUIRE(ulps(c, std::cosh(x)) <= 3.0);
        CHECK(gt::pmath::sinh(x) == s);
        CHECK(gt::pmath::cosh(x) == c);
    }
    CHECK(gt::pmath::sinh(0.0) == 0.0);
    CHECK(gt::pmath::cosh(0.0) == 1.0);
    CHECK(std::isinf(gt::pmath::cosh(800.0)));
    CHECK(std::isnan(gt::pmath::sinh(NAN)));
}
