// Symplectic condition M^T J M = J for every element, nonlinear ones at a non-zero amplitude.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "ElementTestSupport.hh"
#include "kernels/elements/Element.hh"

using namespace gt;
using namespace gt::test;

namespace {

struct Case {
    std::string what;
    Element element;
    double scale = 1.0;  //!< M^T J M = scale J (p_ref,in / p_ref,out for an RF cavity)
    double step = 1e-5;  //!< difference step (larger where rounding dominates, see below)
};

std::vector<Case> every_element(ReferenceParticle const& ref)
{
    std::vector<Case> cases;
    auto add = [&](std::string what, ElementKind kind, auto fill, double scale = 1.0, double step = 1e-5) {
        Element e = Element::make(kind);
        fill(e);
        cases.push_back(Case{std::move(what), e, scale, step});
    };
    add("marker", ElementKind::marker, [](Element&) {});
    add("monitor", ElementKind::monitor, [](Element&) {});
    add("linear drift", ElementKind::drift,
        [&](Element& e) { e.drift = Drift::make(1.3, DriftModel::linear, ref); });
    add("exact drift", ElementKind::drift,
        [&](Element& e) { e.drift = Drift::make(1.3, DriftModel::exact, ref); });
    for (double k1 : {1.7, -1.7}) {
        add("linear quadrupole", ElementKind::quadrupole,
            [&](Element& e) { e.quadrupole = Quadrupole::make(0.4, k1, QuadrupoleModel::linear, 1, ref); });
        add("exact quadrupole", ElementKind::quadrupole,
            [&](Element& e) { e.quadrupole = Quadrupole::make(0.4, k1, QuadrupoleModel::exact, 1, ref); });
        add("kick quadrupole", ElementKind::quadrupole,
            [&](Element& e) { e.quadrupole = Quadrupole::make(0.4, k1, QuadrupoleModel::kick, 3, ref); });
    }
    add("sector bend", ElementKind::sector_bend,
        [&](Element& e) { e.sector_bend = SectorBend::make(1.2, 0.14, 0.0, ref); });
    add("combined-function bend", ElementKind::sector_bend,
        [&](Element& e) { e.sector_bend = SectorBend::make(1.2, 0.14, -0.6, ref); });
    // The exact bends' t row at 5 MeV has entries ~1e2 (L/(beta gamma)^2 and its pt-derivatives), where the
    // rounding 2 eps |f| / h of a 1e-5 step reaches 2e-10: a step of 4e-5 (measured 4e-11 at 5 MeV; the
    // h^4 term stays below 1e-12 at 100 MeV and above).
    double const bend_step = 4e-5;
    add(
        "exact sector bend", ElementKind::exact_bend,
        [&](Element& e) { e.exact_bend = ExactBend::make(1.2, 0.14, 0.0, 0.0, 0, ref); }, 1.0, bend_step);
    add(
        "exact combined-function bend with k2", ElementKind::exact_bend,
        [&](Element& e) { e.exact_bend = ExactBend::make(1.2, 0.14, -0.6, 8.0, 3, ref); }, 1.0, bend_step);
    add(
        "exact bend of 2 rad", ElementKind::exact_bend,
        [&](Element& e) { e.exact_bend = ExactBend::make(1.5, 2.0, 0.0, 0.0, 0, ref); }, 1.0, bend_step);
    add(
        "thin solenoid", ElementKind::thin_solenoid,
        [&](Element& e) { e.thin_solenoid = ThinSolenoid::make(0.3, 0.2, ref); }, 1.0, bend_step);
    add("second-order dipole edge, e = 0 (the kinematic fringe, exactly symplectic)",
        ElementKind::dipole_edge,
        [&](Element& e) { e.dipole_edge = DipoleEdge::make_second_order(0.12, 0.0, 0.0, 0.0, 0.0, false); });
    add("dipole edge", ElementKind::dipole_edge,
        [&](Element& e) { e.dipole_edge = DipoleEdge::make(0.12, 0.05, 0.5, 0.02); });
    add("thin multipole", ElementKind::multipole, [&](Element& e) {
        double const knl[4] = {0.01, 0.2, 5.0, 100.0}, ksl[3] = {0.0, 0.1, 3.0};
        e.multipole = Multipole::make(knl, 4, ksl, 3);
    });
    add("sextupole", ElementKind::thick_multipole,
        [&](Element& e) { e.thick_multipole = ThickMultipole::make(0.2, 2, 12.0, 2.0, 4, ref); });
    add("octupole", ElementKind::thick_multipole,
        [&](Element& e) { e.thick_multipole = ThickMultipole::make(0.2, 3, 150.0, 0.0, 4, ref); });
    add("solenoid", ElementKind::solenoid, [&](Element& e) { e.solenoid = Solenoid::make(0.5, 0.8, ref); });
    add(
        "exact solenoid", ElementKind::solenoid,
        [&](Element& e) { e.solenoid = Solenoid::make(0.5, 0.8, ref, true); }, 1.0, bend_step);
    // Strengths like the k2 bend's: with an octupole of 60 and a skew sextupole of 5 the 5 MeV case's error
    // was 2e-10 at this step, 2.2e-10 at half of it and below 1e-10 at twice it (rounding: it grows as the
    // step shrinks; the kicks are gradients, symplectic by construction).
    add(
        "exact bend with body multipoles (dipole, skew quadrupole, skew sextupole, octupole)",
        ElementKind::exact_bend,
        [&](Element& e) {
            double const kn[4] = {1e-3, 0.0, 0.0, 20.0}, ksn[3] = {-1e-3, 0.4, 2.0};
            e.exact_bend = ExactBend::make(1.2, 0.14, -0.6, 8.0,
                                           BodyMultipoleKick::make(kn, 4, ksn, 3, 0.14 / 1.2), 3, ref);
        },
        1.0, bend_step);
    for (double length : {0.0, 0.5}) {
        double const volts = 2e6, phase = -0.5;
        ReferenceParticle after = ref;
        after.set_kinetic(ref.kinetic_mev + RfCavity::reference_gain_mev(volts, phase, ref));
        add(
            length > 0 ? "thick rf cavity" : "thin rf cavity", ElementKind::rf_cavity,
            [&](Element& e) { e.rf_cavity = RfCavity::make(length, volts, 352.2e6, phase, ref, after); },
            ref.pc_mev / after.pc_mev);
    }
    add("kicker", ElementKind::kicker, [&](Element& e) { e.kicker = Kicker::make(1e-4, -5e-5, 0.3, ref); });
    add("aperture", ElementKind::aperture,
        [&](Element& e) { e.aperture = Aperture::make(ApertureShape::ellipse, 0.01, 0.01); });
    add("collimator", ElementKind::collimator,
        [&](Element& e) { e.collimator = Collimator::make(ApertureShape::rectangle, 0.01, 0.01, 0.3, ref); });
    add("misaligned exact quadrupole", ElementKind::quadrupole, [&](Element& e) {
        e.quadrupole = Quadrupole::make(0.4, -1.1, QuadrupoleModel::exact, 1, ref);
        e.misaligned = true;
        e.misalignment = Misalignment::make(5e-4, -3e-4, 2e-3);
    });
    add("misaligned sextupole", ElementKind::thick_multipole, [&](Element& e) {
        e.thick_multipole = ThickMultipole::make(0.2, 2, 12.0, 0.0, 4, ref);
        e.misaligned = true;
        e.misalignment = Misalignment::make(0.0, 3e-4, 0.3);
    });
    return cases;
}

}  // namespace

// Tolerance: the Jacobian is taken by central differences at h = 1e-5 and h/2, Richardson-
// extrapolated (tests/ElementTestSupport.hh), at |z| ~ 2e-3. Plain central differences would carry
// h^2 |f'''| / 6, which for the thick RF cavity at 5 MeV (t depends on pt through 1/(beta gamma)^2,
// beta = 0.1) is 1e-8 at h = 1e-6; the extrapolation cancels the h^2 term, leaving ~h^4 |f^(5)|
// (< 1e-12 here) and rounding ~ 2 eps |f| / h (~1e-12 with |f| up to ~10 |z|). M^T J M sums a
// few dozen products of entries of order 1 to 30: 1e-10 bounds it (measured: at most 6e-12).
// A wrong coefficient shows at its own size (1e-6 in the control below).
TEST_CASE("every element satisfies M^T J M = J at a non-zero amplitude")
{
    Vec6 const z0{2e-3, -1e-3, 1.5e-3, 8e-4, 1e-3, 5e-4};
    for (double kinetic : {5.0, 100.0, 2e4}) {
        ReferenceParticle const ref = proton(kinetic);
        for (Case const& c : every_element(ref)) {
            CAPTURE(c.what);
            CAPTURE(kinetic);
            Mat6 const m = jacobian([&](Particle& p) { return track_element(c.element, p); }, z0, c.step);
            double const err = symplectic_error(m, c.scale);
            CHECK(err < 1e-10);
        }
    }
}

TEST_CASE("the symplectic check detects a non-symplectic map")
{
    ReferenceParticle const ref = proton(100.0);
    Quadrupole const q = Quadrupole::make(0.4, 1.7, QuadrupoleModel::exact, 1, ref);
    Vec6 const z0{2e-3, -1e-3, 1.5e-3, 8e-4, 1e-3, 5e-4};
    Mat6 const good = jacobian([&](Particle& p) { return q(p); }, z0, 1e-5);
    CHECK(symplectic_error(good) < 1e-10);
    // The same map with px damped by 1e-6 (what a wrong factor p0/p1 would do): detected.
    Mat6 const bad = jacobian(
        [&](Particle& p) {
            bool const ok = q(p);
            p.px *= 1.0 - 1e-6;
            return ok;
        },
        z0, 1e-5);
    CHECK(symplectic_error(bad) > 5e-7);
    // An RF cavity is symplectic only with the p0/p1 scale: without it, the check fails.
    ReferenceParticle after = ref;
    after.set_kinetic(ref.kinetic_mev + 1.0);
    RfCavity const rf = RfCavity::make(0.0, 1e6, 352.2e6, 0.0, ref, after);
    Mat6 const mrf = jacobian([&](Particle& p) { return rf(p); }, z0, 1e-5);
    CHECK(symplectic_error(mrf, ref.pc_mev / after.pc_mev) < 1e-10);
    CHECK(symplectic_error(mrf) > 1e-3);
}
