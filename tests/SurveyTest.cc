// The survey (beam/Survey.hh): the reference orbit's global frame through bends and rolls, against the
// analytic arc of a sector bend and against MAD-X's SURVEY; particles placed in it.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "DeckTestSupport.hh"
#include "Relative.hh"
#include "beam/BeamSetup.hh"
#include "beam/Lattice.hh"
#include "beam/Survey.hh"
#include "deck/DeckReader.hh"

using namespace gt;

namespace {

Lattice lattice_of(std::string const& elements, std::string const& line)
{
    // A 1 GeV proton deck (DeckTestSupport.hh): only its reference particle and lattice matter here.
    std::string const text = test::deck_text(
        {.kinetic_energy = "1 GeV", .macroparticles = 10, .elements = elements, .line = line});
    DeckConfig const deck = read_deck_text(text, "survey.toml");
    return build_lattice(deck, initial_reference(deck));
}

double distance(Vec3 a, Vec3 b) { return norm(a - b); }

}  // namespace

TEST_CASE("a particle inside a sector bend is placed on the analytic arc, with the analytic direction")
{
    // 1 m of drift, then a 2 m bend of 0.3 rad in 4 slices: rho = 2 / 0.3. Each bend model has its own
    // table entries (exact_bend, sector_bend): the survey must curve with both.
    for (std::string const model : {"exact", "linear"}) {
        INFO("model = ", model);
        Lattice const lattice = lattice_of(R"(D = { type = "drift", length = 1.0 }
    B = { type = "sbend", length = 2.0, angle = 0.3, slices = 4, model = ")" +
                                               model + "\" }",
                                           R"(["D", "B"])");
        Survey const survey(lattice);
        double const rho = 2.0 / 0.3;
        for (double along : {0.0, 0.3, 0.7, 1.3, 2.0}) {
            SurveyFrame const f = survey.at(1.0 + along);
            // MAD-X's convention: a positive angle bends towards -X; after an arc phi = along / rho the orbit
            // is at X = rho (cos phi - 1), Z = 1 + rho sin phi, heading (-sin phi, 0, cos phi), with
            // e_x = (cos phi, 0, sin phi). The survey sums up to 3 slices' arcs, each a few roundings of O(1)
            // numbers: 1e-14 m covers them (1e-15 relative per operation, tens of operations).
            double const phi = along / rho;
            Vec3 const orbit{rho * (std::cos(phi) - 1.0), 0.0, 1.0 + rho * std::sin(phi)};
            Vec3 const es{-std::sin(phi), 0.0, std::cos(phi)}, ex{std::cos(phi), 0.0, std::sin(phi)};
            INFO("along = ", along);
            CHECK(distance(f.position, orbit) < 1e-14);
            CHECK(distance(f.axes[2], es) < 1e-14);
            CHECK(distance(f.axes[0], ex) < 1e-14);
            CHECK(distance(f.axes[1], Vec3{0, 1, 0}) < 1e-14);

            // A particle lost there at x = 3 mm, y = -2 mm with px = 1 mrad, py = 2 mrad, pt = -1e-3 (more
            // energy than the reference): its global point is the orbit's plus x e_x + y e_y; its direction
            // (px, py, p_s) in the local axes, p_s = sqrt((P/p0)^2 - px^2 - py^2), (P/p0)^2 = 1 - 2 pt /
            // beta0 + pt^2.
            ReferenceParticle const& ref = lattice.reference_begin;
            Particle const p{3e-3, 1e-3, -2e-3, 2e-3, 0.0, -1e-3};
            GlobalParticle const g = Survey::place(f, p, ref);
            Vec3 const ey{0, 1, 0};
            CHECK(distance(g.position, orbit + 3e-3 * ex + -2e-3 * ey) < 1e-14);
            double const p2 = 1.0 + 2e-3 / ref.beta + 1e-6;
            double const ps = std::sqrt(p2 - 1e-6 - 4e-6);
            Vec3 const dir = normalized(1e-3 * ex + 2e-3 * ey + ps * es);
            CHECK(distance(g.direction, dir) < 1e-15);
            // E = E0 - pt p0 c: one product and one sum (1e-15 relative of 1 GeV).
            CHECK(g.kinetic == test::relative(1000.0 + 1e-3 * ref.pc_mev, 1e-15));
        }
    }
}

TEST_CASE("four 90 degree bends close the orbit: the survey returns to the origin heading along +Z")
{
    Lattice const lattice = lattice_of(R"(D = { type = "drift", length = 1.5 }
B = { type = "sbend", length = 1.0, angle = "90 deg", slices = 3 })",
                                       R"(["D", "B", "D", "B", "D", "B", "D", "B"])");
    Survey const survey(lattice);
    // Rounding in 4 x 3 arcs and 4 drifts of O(1) m: 1e-13 m.
    CHECK(distance(survey.exit().position, Vec3{0, 0, 0}) < 1e-13);
    CHECK(distance(survey.exit().axes[2], Vec3{0, 0, 1}) < 1e-13);
    CHECK(distance(survey.exit().axes[0], Vec3{1, 0, 0}) < 1e-13);
    // Half way round (after D, B, D, B; rho = 2 / pi): X = -(1.5 + 2 rho), Z = 1.5, heading -Z.
    double const rho = 2.0 / constants::pi;
    SurveyFrame const half = survey.at(2.0 * 2.5);
    CHECK(distance(half.position, Vec3{-2.0 * rho - 1.5, 0.0, 1.5}) < 1e-13);
    CHECK(distance(half.axes[2], Vec3{0, 0, -1}) < 1e-13);
}

TEST_CASE("the survey of bends, a tilted bend and an srotation agrees with MAD-X's SURVEY")
{
    // MAD-X 5 (cpymad) SURVEY of the same line, from tests/data/madx_survey.py's output, at each
    // element's exit: s, X, Y, Z, THETA, PHI. MAD-X and the survey compute the same rotations in a
    // different order: they agree to rounding (1e-14 m over 6 m).
    Lattice const lattice = lattice_of(R"(D1 = { type = "drift", length = 1.0 }
B1 = { type = "sbend", length = 2.0, angle = 0.3, tilt = 0.2 }
D2 = { type = "drift", length = 0.5 }
R1 = { type = "srotation", angle = 0.4 }
B2 = { type = "sbend", length = 1.0, angle = -0.2 }
D3 = { type = "drift", length = 1.25 })",
                                       R"(["D1", "B1", "D2", "R1", "B2", "D3"])");
    Survey const survey(lattice);
    struct Row {
        double s, x, y, z, theta, phi;
    };
    Row const madx[] = {
        {1.0, 0.0, 0.0, 1.0, 0.0, 0.0},
        {3.0, -0.29182142838028285, -0.05915513210915866, 2.9701347110755973, -0.29436261749860093,
         -0.058744583066347326},
        {3.5, -0.43663616719304066, -0.08851053295607192, 3.4478029556384002, -0.29436261749860093,
         -0.058744583066347326},
        {4.5, -0.6368149368095538, -0.10888525488506132, 4.425649793767487, -0.10963003465667794,
         0.01809826794631646},
        {5.75, -0.7735557442409886, -0.08626365494003319, 5.667942116370717, -0.10963003465667794,
         0.01809826794631646},
    };
    for (Row const& r : madx) {
        INFO("s = ", r.s);
        SurveyFrame const f = survey.at(r.s);
        CHECK(distance(f.position, Vec3{r.x, r.y, r.z}) < 1e-14);
        // MAD-X's W = Theta Phi Psi: its third column (e_s) is (cos phi sin theta, sin phi, cos phi cos
        // theta).
        Vec3 const es{std::cos(r.phi) * std::sin(r.theta), std::sin(r.phi),
                      std::cos(r.phi) * std::cos(r.theta)};
        CHECK(distance(f.axes[2], es) < 1e-14);
    }
}

TEST_CASE("thin bends (multipoles with angle) turn the frame where they are")
{
    // Four thin 90 degree bends and four 1.5 m drifts: a square, back at the origin heading along +Z.
    Lattice const square = lattice_of(R"(D = { type = "drift", length = 1.5 }
B = { type = "multipole", knl = [1.5707963267948966], angle = "90 deg", lrad = 1.0 })",
                                      R"(["D", "B", "D", "B", "D", "B", "D", "B"])");
    Survey const survey(square);
    CHECK(distance(survey.exit().position, Vec3{0, 0, 0}) < 1e-14);  // rounding of four sin/cos turns
    CHECK(distance(survey.exit().axes[2], Vec3{0, 0, 1}) < 1e-14);
    // After D, B, D: the first bend turned the orbit towards -X (as a sector bend of positive angle):
    // at (X, Z) = (-1.5, 1.5), heading -X. The bend adds no length.
    CHECK(survey.exit().s == 6.0);
    SurveyFrame const corner = survey.entrance(3);
    CHECK(distance(corner.position, Vec3{-1.5, 0.0, 1.5}) < 1e-15);
    CHECK(distance(corner.axes[2], Vec3{-1, 0, 0}) < 1e-15);

    // A thin bend of 0.1 rad rolled by 90 degrees (tilt) bends in the vertical plane towards -Y; then 2 m of
    // drift: (0, -2 sin 0.1, 2 cos 0.1). MAD-X's SURVEY (cpymad 1.20) of `multipole, knl={0.1}, tilt=pi/2`
    // and a 2 m drift: X = -1.2e-17, Y = -0.19966683, Z = 1.99000833.
    Lattice const rolled = lattice_of(R"(B = { type = "multipole", knl = [0.1], angle = 0.1, tilt = "90 deg" }
D = { type = "drift", length = 2.0 })",
                                      R"(["B", "D"])");
    Survey const up(rolled);
    CHECK(distance(up.exit().position, Vec3{0.0, -2.0 * std::sin(0.1), 2.0 * std::cos(0.1)}) < 1e-15);
}
