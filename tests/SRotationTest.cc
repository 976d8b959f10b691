// srotation (kernels/elements/SRotation.hh): the map against the analytic rotation, its symplectic
// condition, MAD-X's sign, and roll-element-unroll against the element tilted by the same angle.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "ElementTestSupport.hh"
#include "Relative.hh"
#include "beam/Lattice.hh"
#include "deck/DeckReader.hh"
#include "kernels/elements/Element.hh"

using namespace gt;
using namespace gt::test;

TEST_CASE("srotation rotates (x, y) and (px, py) by the analytic rotation, symplectically")
{
    for (double angle : {0.3, -1.2, constants::pi / 2}) {
        SRotation const r = SRotation::make(angle);
        Particle p{1e-3, 2e-4, -5e-4, 3e-4, 1e-3, 2e-3};
        Particle const in = p;
        REQUIRE(r(p));
        // Reference: x' = x cos + y sin, y' = -x sin + y cos, the same for px, py; t, pt untouched.
        // The map computes the same products and sums, so the result agrees to one rounding of each
        // (2 ulp of the largest term: 1e-15 relative to the amplitude).
        double const c = std::cos(angle), s = std::sin(angle);
        double const tol = 1e-15 * 1e-3;
        CHECK(std::abs(p.x - (c * in.x + s * in.y)) <= tol);
        CHECK(std::abs(p.y - (-s * in.x + c * in.y)) <= tol);
        CHECK(std::abs(p.px - (c * in.px + s * in.py)) <= tol);
        CHECK(std::abs(p.py - (-s * in.px + c * in.py)) <= tol);
        CHECK(p.t == in.t);
        CHECK(p.pt == in.pt);
        // A rotation of both conjugate pairs is symplectic: M^T J M = J to rounding (1e-15).
        Mat6 const m = matrix_of_linear_map([&](Particle& q) { return r(q); });
        CHECK(symplectic_error(m) < 1e-15);
    }
}

TEST_CASE("srotation has MAD-X's sign: a positive roll takes +x to -y")
{
    // MAD-X 5 (cpymad): TWISS through SROTATION, ANGLE=0.3 gives R11 = cos 0.3, R13 = +sin 0.3,
    // R31 = -sin 0.3, R24 = +sin 0.3, R42 = -sin 0.3.
    SRotation const r = SRotation::make(constants::pi / 2);
    Particle p{1e-3, 0.0, 0.0, 0.0, 0.0, 0.0};
    REQUIRE(r(p));
    CHECK(std::abs(p.x) < 1e-18);  // cos(pi/2) = 6e-17 times 1e-3
    CHECK(p.y == test::relative(-1e-3, 1e-15));
    Mat6 const m = matrix_of_linear_map([&](Particle& q) { return SRotation::make(0.3)(q); });
    CHECK(m[0][2] == test::relative(std::sin(0.3), 1e-15));
    CHECK(m[2][0] == test::relative(-std::sin(0.3), 1e-15));
    CHECK(m[1][3] == test::relative(std::sin(0.3), 1e-15));
    CHECK(m[3][1] == test::relative(-std::sin(0.3), 1e-15));
}

TEST_CASE("srotation(a), element, srotation(-a) is the element tilted by a, to the bit")
{
    // Misalignment::enter rotates by the same formula, and cos(-a) = cos a, sin(-a) = -sin a exactly,
    // so the two paths do the same floating-point operations: equal bits, not a tolerance.
    ReferenceParticle const ref = proton(800.0);
    double const a = 0.7;
    Quadrupole const q = Quadrupole::make(0.4, 1.3, QuadrupoleModel::exact, 1, ref);
    Element tilted = Element::make(ElementKind::quadrupole);
    tilted.quadrupole = q;
    tilted.misaligned = true;
    tilted.misalignment = Misalignment::make(0.0, 0.0, a);
    Element plain = Element::make(ElementKind::quadrupole);
    plain.quadrupole = q;
    Element roll = Element::make(ElementKind::srotation), back = Element::make(ElementKind::srotation);
    roll.srotation = SRotation::make(a);
    back.srotation = SRotation::make(-a);
    Particle p{1e-3, -2e-4, 5e-4, 1e-4, 1e-3, 1e-3};
    Particle q2 = p;
    REQUIRE(track_element(tilted, p));
    REQUIRE(track_element(roll, q2));
    REQUIRE(track_element(plain, q2));
    REQUIRE(track_element(back, q2));
    CHECK(p.x == q2.x);
    CHECK(p.px == q2.px);
    CHECK(p.y == q2.y);
    CHECK(p.py == q2.py);
    CHECK(p.t == q2.t);
    CHECK(p.pt == q2.pt);
}

TEST_CASE("srotation in a deck: read, built as one entry, described, and a rolled bend bends vertically")
{
    DeckConfig const d = read_deck(std::string(GTRACK_SOURCE_DIR) + "/tests/data/srotation.toml");
    ReferenceParticle const begin = ReferenceParticle::from_kinetic(
        d.beam.species.mass_mev, d.beam.species.charge_e, d.beam.kinetic_energy_mev);
    Lattice const lat = build_lattice(d, begin);
    // ROLL, HB (edge, body, edge), BACK, D, R45, Q, R45B, D, TWIST, D, MON.
    REQUIRE(lat.elements.size() == 13);
    CHECK(lat.elements[0].kind == ElementKind::srotation);
    CHECK(lat.info[0].s_end == lat.info[0].s_begin);  // thin
    CHECK(lat.elements[10].misaligned);               // TWIST has dx
    std::string const text = describe(lat);
    CHECK(text.find("s rotation") != std::string::npos);
    CHECK(text.find("angle=1570.8 mrad") != std::string::npos);
    // The 5 deg horizontal bend, rolled by +90 deg and back, deflects the reference-momentum particle
    // on axis in y only. Through the unrolled bend a particle of pt != 0 moves in x (dispersion);
    // rolled, that displacement appears in y and x stays 0.
    Particle p{0.0, 0.0, 0.0, 0.0, 0.0, 1e-3};
    for (std::size_t i = 0; i < 5; ++i) REQUIRE(track_element(lat.elements[i], p));
    Particle h{0.0, 0.0, 0.0, 0.0, 0.0, 1e-3};
    for (std::size_t i = 1; i < 4; ++i) REQUIRE(track_element(lat.elements[i], h));
    REQUIRE(std::abs(h.x) > 1e-6);
    CHECK(std::abs(p.x) < 1e-15 * std::abs(h.x) + 1e-20);
    // Roll by +90 deg: x_r = y = 0, y_r = -x = 0; the bend moves x_r to h.x; rolling back by -90 deg
    // gives x = -y_r = 0 and y = x_r = h.x (up to the cos(pi/2) = 6e-17 cross terms: 1e-12 relative).
    CHECK(p.y == test::relative(h.x, 1e-12));
}
