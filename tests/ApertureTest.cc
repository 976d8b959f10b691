// Apertures and collimators: the boundary is inside, one ulp beyond is outside, NaN is lost.
#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>

#include "ElementTestSupport.hh"
#include "kernels/elements/Collimator.hh"
#include "kernels/elements/Element.hh"

using namespace gt;
using namespace gt::test;

namespace {
bool inside(Aperture const& a, double x, double y)
{
    Particle p{x, 0.1, y, -0.1, 0.2, 0.3};
    bool const kept = a(p);
    if (x == x && y == y) CHECK(to_vec(p) == Vec6{x, 0.1, y, -0.1, 0.2, 0.3});  // never moves a particle
    return kept;
}
double up(double v) { return std::nextafter(v, HUGE_VAL); }
}  // namespace

TEST_CASE("rectangular aperture: |x| <= hx and |y| <= hy, boundary included")
{
    double const hx = 5e-3, hy = 3e-3;
    Aperture const a = Aperture::make(ApertureShape::rectangle, hx, hy);
    CHECK(inside(a, 0.0, 0.0));
    CHECK(inside(a, hx, hy));
    CHECK(inside(a, -hx, -hy));
    CHECK_FALSE(inside(a, up(hx), 0.0));
    CHECK_FALSE(inside(a, -up(hx), 0.0));
    CHECK_FALSE(inside(a, 0.0, up(hy)));
    CHECK_FALSE(inside(a, 0.0, -up(hy)));
    CHECK(inside(a, hx, -hy));  // corners belong to the rectangle (not to the ellipse)
    CHECK_FALSE(inside(a, NAN, 0.0));
    CHECK_FALSE(inside(a, 0.0, NAN));
}

TEST_CASE("elliptical aperture: (x/hx)^2 + (y/hy)^2 <= 1")
{
    double const hx = 4e-3, hy = 2e-3;
    Aperture const a = Aperture::make(ApertureShape::ellipse, hx, hy);
    CHECK(inside(a, hx, 0.0));
    CHECK(inside(a, 0.0, -hy));
    CHECK_FALSE(inside(a, up(hx), 0.0));
    CHECK_FALSE(inside(a, 0.0, -up(hy)));
    CHECK_FALSE(inside(a, 0.9 * hx, 0.9 * hy));  // inside the bounding box, outside the ellipse
    for (double th = 0.1; th < 6.2; th += 0.37) {
        double const x = hx * std::cos(th), y = hy * std::sin(th);
        CHECK(inside(a, x * (1 - 1e-12), y * (1 - 1e-12)));
        CHECK_FALSE(inside(a, x * (1 + 1e-12), y * (1 + 1e-12)));
    }
    CHECK_FALSE(inside(a, NAN, NAN));
}

TEST_CASE("an open plane (infinite half size) keeps everything in that plane")
{
    Aperture const a = Aperture::make(ApertureShape::rectangle, 1e-3, HUGE_VAL);
    CHECK(inside(a, 0.0, 1e10));
    CHECK_FALSE(inside(a, 2e-3, 0.0));
    Aperture const e = Aperture::make(ApertureShape::ellipse, HUGE_VAL, 1e-3);
    CHECK(inside(e, 1e10, 0.0));
    CHECK_FALSE(inside(e, 0.0, 2e-3));
}

TEST_CASE("an open side keeps, outside the shape, that side of the axis within the other plane (ELEGANT)")
{
    // ELEGANT's evaluateLostWithOpenSides (src/limit_amplitudes.c): open +x keeps x > 0 with |y| < half_y.
    double const hx = 2e-2, hy = 4e-3;
    Aperture const e = Aperture::make(ApertureShape::ellipse, hx, hy, ApertureSide::plus_x);
    CHECK(inside(e, 1.0, 0.0));           // far out on the open side
    CHECK(inside(e, 0.5, 0.99 * hy));     // ... within the half-height
    CHECK_FALSE(inside(e, 0.5, up(hy)));  // ... but not above it
    CHECK_FALSE(inside(e, 0.5, hy));      // ELEGANT's strict |y| < half_y
    CHECK(inside(e, -hx, 0.0));           // the closed side is the ellipse's
    CHECK_FALSE(inside(e, -up(hx), 0.0));
    CHECK_FALSE(inside(e, -0.9 * hx, 0.9 * hy));
    CHECK_FALSE(inside(e, NAN, 0.0));
    CHECK_FALSE(inside(e, HUGE_VAL, 0.0));  // ELEGANT loses an infinite coordinate before the open side
    CHECK(inside(e, DBL_MAX, 0.0));
    // A rectangle open at -x with an open plane in y: x <= half_x, everything else kept (a scraper from +x).
    Aperture const r = Aperture::make(ApertureShape::rectangle, 1e-2, HUGE_VAL, ApertureSide::minus_x);
    CHECK(inside(r, 1e-2, 5.0));
    CHECK(inside(r, -100.0, -5.0));
    CHECK_FALSE(inside(r, up(1e-2), 0.0));
    Aperture const py = Aperture::make(ApertureShape::rectangle, 1e-2, 3e-3, ApertureSide::plus_y);
    CHECK(inside(py, 0.0, 1.0));
    CHECK_FALSE(inside(py, 0.0, -up(3e-3)));
    CHECK_FALSE(inside(py, 1e-2, 1.0));  // on the open side, but not within |x| < half_x
    Aperture const my = Aperture::make(ApertureShape::rectangle, 1e-2, 3e-3, ApertureSide::minus_y);
    CHECK(inside(my, 0.0, -1.0));
    CHECK_FALSE(inside(my, 0.0, up(3e-3)));
}

TEST_CASE("collimator checks both faces around an exact drift")
{
    ReferenceParticle const ref = proton(100.0);
    Collimator const c = Collimator::make(ApertureShape::rectangle, 5e-3, 5e-3, 0.5, ref);
    Particle in{4e-3, 1e-3, 0, 0, 0, 0};  // inside at the entrance, 4.5e-3 at the exit
    CHECK(c(in));
    CHECK(in.x > 4.49e-3);
    Particle out{4e-3, 3e-3, 0, 0, 0, 0};  // inside at the entrance, 5.5e-3 at the exit: lost
    CHECK_FALSE(c(out));
    CHECK(out.x > 5e-3);                      // the particle stops where it was found outside
    Particle early{6e-3, -4e-3, 0, 0, 0, 0};  // outside at the entrance (would be back inside later)
    CHECK_FALSE(c(early));
    CHECK(early.x == 6e-3);
}

TEST_CASE("track_element reports losses: aperture, unphysical momentum, and NaN from any element")
{
    Element ap = Element::make(ElementKind::aperture);
    ap.aperture = Aperture::make(ApertureShape::ellipse, 1e-3, 1e-3);
    Particle p{2e-3, 0, 0, 0, 0, 0};
    CHECK_FALSE(track_element(ap, p));
    Element d = Element::make(ElementKind::drift);
    d.drift = Drift::make(1.0, DriftModel::linear, proton(100.0));
    Particle n{0, 0, 0, NAN, 0, 0};  // a linear map would carry the NaN along silently
    CHECK_FALSE(track_element(d, n));
    Particle inf{0, 0, 0, 0, 0, HUGE_VAL};
    CHECK_FALSE(track_element(d, inf));
    Particle ok{0, 1e-3, 0, 0, 0, 0};
    CHECK(track_element(d, ok));
    // A misaligned aperture is centred on the displaced axis.
    Element shifted = ap;
    shifted.misaligned = true;
    shifted.misalignment = Misalignment::make(2e-3, 0.0, 0.0);
    Particle q{2.5e-3, 0, 0, 0, 0, 0};
    CHECK(track_element(shifted, q));
    CHECK(q.x == 2.5e-3);
}
