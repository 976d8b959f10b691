// The shared pieces of the element maps: the finiteness check (the CPU's sum and the GPU's exponent
// bits give the same answer) and the split-step coefficients.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "Relative.hh"
#include "kernels/elements/MapSupport.hh"

using namespace gt;

namespace {

//! A finite particle with `value` in coordinate `k` (0..5).
Particle with(int k, double value)
{
    Particle p{1e-3, -2e-4, 5e-4, 1e-4, -3e-3, 2e-3};
    double* c[6] = {&p.x, &p.px, &p.y, &p.py, &p.t, &p.pt};
    *c[k] = value;
    return p;
}

}  // namespace

TEST_CASE("finiteness: NaN or an infinity in any coordinate, and nothing else, fails")
{
    double const inf = std::numeric_limits<double>::infinity();
    double const nan = std::numeric_limits<double>::quiet_NaN();
    double const big = std::numeric_limits<double>::max();
    double const tiny = std::numeric_limits<double>::denorm_min();
    for (int k = 0; k < 6; ++k) {
        CAPTURE(k);
        for (double bad : {inf, -inf, nan, -nan}) {
            CHECK_FALSE(is_finite(with(k, bad)));
            CHECK_FALSE(exponents_finite(with(k, bad)));
        }
        for (double good : {0.0, -0.0, tiny, -tiny, big, -big, 1.0, -1e300}) {
            CHECK(is_finite(with(k, good)));
            CHECK(exponents_finite(with(k, good)));
        }
    }
    // Finite coordinates whose sum overflows: finite, on the CPU (sum, then the bits) as on the GPU (the
    // bits alone). Before issue 29 the sum alone marked this particle lost.
    Particle const huge{big, big, big, big, big, big};
    CHECK(std::isinf(((huge.x + huge.px) + (huge.y + huge.py)) + (huge.t + huge.pt)));
    CHECK(is_finite(huge));
    CHECK(exponents_finite(huge));
    // inf - inf in the sum is NaN: still caught.
    Particle const opposite{inf, -inf, 0.0, 0.0, 0.0, 0.0};
    CHECK_FALSE(is_finite(opposite));
    CHECK_FALSE(exponents_finite(opposite));
}

TEST_CASE("split steps: the drift between two steps is twice the outer drift, the outer kick's length")
{
    // integrate() joins two steps with kick_outer = w1 h; the two outer drifts c1 h it replaces sum to it
    // exactly (c1 = w1 / 2: a power-of-two scaling, exact away from subnormals).
    for (double length : {0.2, 0.5, 1.7, -0.3}) {
        for (std::int32_t steps : {1, 2, 4, 7}) {
            SplitSteps const s = SplitSteps::make(length, steps);
            CHECK(s.kick_outer == 2.0 * s.drift_outer);
            CHECK(s.kick_outer + s.kick_middle + s.kick_outer == test::relative(length / steps, 1e-14));
        }
    }
}
