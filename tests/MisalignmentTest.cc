// Misalignment: a shifted quadrupole kicks a centred beam towards its centre; a tilted one couples.
#include <doctest/doctest.h>

#include <cmath>

#include "ElementTestSupport.hh"
#include "kernels/elements/Element.hh"

using namespace gt;
using namespace gt::test;

TEST_CASE("a quadrupole shifted by dx gives a centred particle the dipole kick +k1 L dx")
{
    ReferenceParticle const ref = proton(250.0);
    double const k1 = 1.3, length = 0.4, dx = 5e-4, dy = -3e-4;
    Element e = Element::make(ElementKind::quadrupole);
    e.quadrupole = Quadrupole::make(length, k1, QuadrupoleModel::linear, 1, ref);
    e.misaligned = true;
    e.misalignment = Misalignment::make(dx, dy, 0.0);
    Particle p{0, 0, 0, 0, 0, 0};
    REQUIRE(track_element(e, p));
    // In the magnet's frame the particle is at (-dx, -dy): px = C'(-dx) = +sqrt(k1) sin(sqrt(k1) L) dx,
    // i.e. k1 L dx to first order in L (towards the magnetic centre, MAD-X's sign of DX).
    double const w = std::sqrt(k1);
    CHECK(rel_diff(p.px, w * std::sin(w * length) * dx) <= 1e-14);
    CHECK(rel_diff(p.py, -w * std::sinh(w * length) * dy) <= 1e-14);
    CHECK(rel_diff(p.px, k1 * length * dx) < 0.04);  // the thin-lens value: k1 L^2 / 6 = 3.5% off
    CHECK(rel_diff(p.x, (1.0 - std::cos(w * length)) * dx) <= 1e-13);

    // The thin multipole: px -= knl1 (x - dx) = +knl1 dx, py += knl1 (y - dy) = -knl1 dy exactly.
    Element m = Element::make(ElementKind::multipole);
    double const knl[2] = {0.0, k1 * length};
    m.multipole = Multipole::make(knl, 2, nullptr, 0);
    m.misaligned = true;
    m.misalignment = Misalignment::make(dx, dy, 0.0);
    Particle q{0, 0, 0, 0, 0, 0};
    REQUIRE(track_element(m, q));
    CHECK(rel_diff(q.px, k1 * length * dx) <= 1e-15);
    CHECK(rel_diff(q.py, -k1 * length * dy) <= 1e-15);
    CHECK(q.x == 0.0);
    CHECK(q.y == 0.0);
}

TEST_CASE("a quadrupole tilted by 45 degrees is a skew quadrupole")
{
    double const kl = 0.3, pi = constants::pi;
    Element m = Element::make(ElementKind::multipole);
    double const knl[2] = {0.0, kl};
    m.multipole = Multipole::make(knl, 2, nullptr, 0);
    m.misaligned = true;
    m.misalignment = Misalignment::make(0.0, 0.0, pi / 4);
    Element s = Element::make(ElementKind::multipole);
    // Rolling the kick (-kl x, +kl y) by +45 deg gives (-kl y, -kl x): ksl1 = -kl.
    double const ksl[2] = {0.0, -kl};
    s.multipole = Multipole::make(nullptr, 0, ksl, 2);
    for (auto [x, y] : {std::pair{1e-3, 0.0}, std::pair{0.0, 1e-3}, std::pair{-2e-3, 1e-3}}) {
        Particle a{x, 0, y, 0, 0, 0}, b = a;
        REQUIRE(track_element(m, a));
        REQUIRE(track_element(s, b));
        CHECK(std::abs(a.px - b.px) < 1e-18);
        CHECK(std::abs(a.py - b.py) < 1e-18);
        CHECK(std::abs(a.x - x) < 1e-18);  // positions restored by the exit rotation
    }
}

TEST_CASE("entering and leaving the misaligned frame is the identity")
{
    Misalignment const m = Misalignment::make(1e-3, -2e-3, 0.3);
    Particle p{1.5e-3, 2e-4, -7e-4, 3e-4, 0.01, 1e-3};
    Particle q = p;
    m.enter(q);
    CHECK(q.x != p.x);
    m.leave(q);
    CHECK(max_abs_difference(to_vec(q), to_vec(p)) < 1e-18);
}
