// The momentum-aperture study on a small electron ring (inputs/light_source_ring.toml's cells without
// sextupoles): against the RF bucket height of a stationary bucket, against the momentum at which the
// off-momentum orbit and the betatron oscillation a kick starts reach a dispersive aperture, and bad input.
#include <doctest/doctest.h>

#include "Relative.hh"

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "beam/BeamSetup.hh"
#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/core/Types.hh"
#include "optics/Optics.hh"
#include "study/MomentumAperture.hh"

using namespace gt;

namespace {

//! 8 cells of light_source_ring (3 GeV electrons, combined-function bends, no sextupoles: a linear ring but
//! for the maps' own chromatic terms), `rf` (an element list entry or "") after the cells, `extra` elements,
//! and the study section `study`.
std::string ring(std::string const& study, std::string const& extra = "", std::string const& rf = "",
                 int turns = 500)
{
    return fmt::format(R"([run]
name = "ma"
[beam]
particle = "electron"
total_energy = "3 GeV"
macroparticles = 1
[beam.twiss]
periodic = true
emittance_x = "1 nm"
emittance_y = "1 nm"
[elements]
QF  = {{ type = "quadrupole", length = 0.3, k1 = 1.6 }}
QD  = {{ type = "quadrupole", length = 0.3, k1 = -1.6 }}
B   = {{ type = "sbend", length = 1.5, angle = "22.5 deg", k1 = -0.02, e1 = 0.05, e2 = 0.05 }}
D   = {{ type = "drift", length = 0.4 }}
D2  = {{ type = "drift", length = 0.2 }}
{}
[lattice]
cell = ["QF", "D", "B", "D2", "AP", "D2", "QD", "D", "B", "D"]
ring = ["cell*8"{}]
use = "ring"
turns = {}
[momentum_aperture]
{}
)",
                       extra, rf, turns, study);
}

std::string const k_no_aperture = R"(AP = { type = "marker" })";

study::MomentumApertureResult search(DeckConfig const& deck)
{
    auto kernels = make_cpu_beam_kernels();
    return study::track_momentum_aperture(deck, *kernels);
}

//! The ring's optics with its cavities off (4D), at the exit of every occurrence of `name`.
optics::OpticsResult optics_of(DeckConfig deck)
{
    deck.momentum_aperture.rf = false;
    DeckConfig const off = study::momentum_aperture_deck(deck);
    DeckConfig one = off;
    one.lattice.turns = 1;
    ReferenceParticle const ref = initial_reference(one);
    return optics::compute_optics(one, build_lattice(one, ref), optics::OpticsOptions{});
}

}  // namespace

TEST_CASE("with RF and no other limit, the momentum aperture is the stationary bucket's height")
{
    // A thin cavity at phase 90 deg gives no energy to the reference (docs/physics.md, RF cavity): above
    // transition (eta > 0) later particles (t > 0) lose energy, a stationary bucket. Its half height in
    // delta is sqrt(2 |q| V / (pi beta^2 E h |eta|)) (S. Y. Lee, Accelerator Physics, 3rd ed., eq. (3.38)
    // with Y(phi_s = 0) = 1; H. Wiedemann, Particle Accelerator Physics, 4th ed., eq. (9.65)), with
    // h = f C / (beta c) the harmonic number (gtrack's t is measured from the reference, so h need not be
    // a whole number for the reference to stay on the crest's zero crossing).
    double const f = 187e6, volts = 0.95e6;  // h ~ 26, Qs ~ 0.02, a bucket of ~0.5%
    std::string const cavity = fmt::format(
        R"(RF = {{ type = "rfcavity", length = 0.0, voltage = {}, frequency = {}, phase = 90 }})", volts, f);
    DeckConfig const deck =
        read_deck_text(ring("names = [\"QF\"]\ns_max = 5\ndelta_max = 0.008\nresolution = 1e-4",
                            k_no_aperture + "\n" + cavity, ", \"RF\"", 500),
                       "ma.toml");
    optics::OpticsResult const o = optics_of(deck);
    ReferenceParticle const ref = initial_reference(deck);
    double const h = f * o.length / (ref.beta * constants::c_light);
    double const energy_ev = ref.gamma * ref.mass_mev * 1e6;
    double const eta = o.slip_factor;
    REQUIRE(eta > 0);
    double const bucket =
        std::sqrt(2.0 * volts / (constants::pi * ref.beta * ref.beta * energy_ev * h * std::abs(eta)));
    double const qs = std::sqrt(h * volts * eta / (2.0 * constants::pi * ref.beta * ref.beta * energy_ev));
    MESSAGE(fmt::format("eta = {:.6g}, h = {:.6g}, Qs = {:.4g}, bucket height {:.6g}", eta, h, qs, bucket));
    study::MomentumApertureResult const r = search(deck);
    REQUIRE(r.s.size() == 1);
    CHECK(r.rf);
    MESSAGE(fmt::format("delta+ {:.6g}, delta- {:.6g}", r.delta_plus[0], r.delta_minus[0]));
    // Tolerance: the search's step (delta+ is the last surviving step below the first lost one), plus 3% of
    // the height: the formula is that of the smooth Hamiltonian; the ring kicks once a turn (a standard map
    // with K = (2 pi Qs)^2 ~ 0.03, whose separatrix differs from the pendulum's at O(K)), and the slip
    // factor's second order (eta_1 delta) makes the bucket asymmetric by about eta_1/eta_0 x delta ~ 1%.
    // Measured: bucket 5.00116e-3 (eta = 0.3106, h = 25.95, Qs = 0.020); delta+ 4.9e-3, delta- -5.0e-3.
    double const tol = 0.03 * bucket + r.resolution;
    CHECK(std::abs(r.delta_plus[0] - bucket) < tol);
    CHECK(std::abs(-r.delta_minus[0] - bucket) < tol);
    // Nothing but the bucket limits: the limiting candidates left it, hitting no element.
    CHECK(r.lost_element_plus[0] == study::k_lost_in_bucket);
    CHECK(r.lost_element_minus[0] == study::k_lost_in_bucket);
    // The same ring with its cavity off (4D): nothing limits the search up to delta_max.
    DeckConfig off = deck;
    off.momentum_aperture.rf = false;
    study::MomentumApertureResult const r4 = search(off);
    CHECK(!r4.rf);
    CHECK(r4.delta_plus[0] == test::relative(0.008, 1e-12));
    CHECK(r4.delta_minus[0] == test::relative(-0.008, 1e-12));
    CHECK(r4.lost_element_plus[0] == study::k_none_lost);
}

TEST_CASE(
    "with radiation and the cavity at the synchronous phase, the momentum aperture is the moving bucket's")
{
    // [lattice] radiation = "mean": the magnets radiate U0 = 1.876 MeV a turn (`gtrack optics`), the cavity
    // at gtrack's phase acos(U0 / V) = 51.29 deg replaces it. In Lee's convention (gain V sin(phi),
    // sin(phi_s) = U0 / V) phi_s = 90 deg - phase, and the bucket's half height is the stationary one times
    // Y = |cos(phi_s) - (pi/2 - phi_s) sin(phi_s)|^(1/2) (S. Y. Lee, Accelerator Physics, eq. (3.60)),
    // = (sin(phase) - phase cos(phase))^(1/2) here: 0.470.
    double const f = 282.8230695e6, volts = 3e6, phase = 51.29 * constants::pi / 180.0;
    std::string const cavity = fmt::format(
        R"(RF = {{ type = "rfcavity", length = 0.0, voltage = {}, frequency = {}, phase = 51.29 }})", volts,
        f);
    std::string text = ring("names = [\"QF\"]\ns_max = 5\ndelta_max = 0.005\nresolution = 1e-4",
                            k_no_aperture + "\n" + cavity, ", \"RF\"", 400);
    text.replace(text.find("turns = 400"), 11, "turns = 400\nradiation = \"mean\"");
    DeckConfig const deck = read_deck_text(text, "ma.toml");
    DeckConfig plain = deck;
    plain.lattice.radiation = "off";
    optics::OpticsResult const o = optics_of(plain);
    ReferenceParticle const ref = initial_reference(deck);
    double const h = f * o.length / (ref.beta * constants::c_light);
    double const energy_ev = ref.gamma * ref.mass_mev * 1e6;
    double const y = std::sqrt(std::sin(phase) - phase * std::cos(phase));
    double const bucket =
        y * std::sqrt(2.0 * volts / (constants::pi * ref.beta * ref.beta * energy_ev * h * o.slip_factor));
    study::MomentumApertureResult const r = search(deck);
    REQUIRE(r.s.size() == 1);
    MESSAGE(fmt::format("h = {:.6g}, Y = {:.4g}, bucket height {:.6g}; delta+ {:.6g}, delta- {:.6g}", h, y,
                        bucket, r.delta_plus[0], r.delta_minus[0]));
    // Measured: expected 3.393e-3 (h = 39.25, Y = 0.4696); delta+ 3.4e-3, delta- -3.4e-3 (400 turns).
    // Tolerance as for the stationary bucket (3% + a step; Qs = 0.039 here); the radiation's (1 + delta)^2
    // dependence moves an off-momentum particle's synchronous phase by 0.7% of U0 at this height.
    double const tol = 0.03 * bucket + r.resolution;
    CHECK(std::abs(r.delta_plus[0] - bucket) < tol);
    CHECK(std::abs(-r.delta_minus[0] - bucket) < tol);
    CHECK(r.lost_element_plus[0] == study::k_lost_in_bucket);
    CHECK(r.lost_element_minus[0] == study::k_lost_in_bucket);
}

TEST_CASE(
    "at a dispersive aperture the momentum aperture is where x_co + D delta + the kick's amplitude reach it")
{
    // 4D (RF off), a 1 mm rectangular aperture AP in each cell's dispersive straight. A kick delta at a
    // location L (dispersion D_L, D'_L, H_L = gamma D^2 + 2 alpha D D' + beta D'^2) starts the particle on
    // the design orbit, |delta| sqrt(H_L) of betatron amplitude away from its off-momentum orbit; at AP it
    // reaches D_AP delta + |delta| sqrt(H_L beta_AP) over the turns, so
    //     delta+- = +-a / (D_AP + sqrt(H_L beta_AP))     (the linear optics; x_co = 0: no errors).
    double const a = 1e-3;
    std::string const aperture =
        fmt::format(R"(AP = {{ type = "aperture", shape = "rectangle", half_x = {}, half_y = 0.01 }})", a);
    DeckConfig const deck = read_deck_text(
        ring("types = [\"quadrupole\"]\ns_max = 5.6\ndelta_max = 2e-3\nresolution = 1e-5\nrf = false",
             aperture, "", 300),
        "ma.toml");
    optics::OpticsResult const o = optics_of(deck);
    auto row = [&](std::string const& name, int occurrence) {
        int k = 0;
        for (auto const& w : o.rows)
            if (w.name == name && k++ == occurrence) return w;
        FAIL("no row " << name);
        return o.rows.front();
    };
    study::MomentumApertureResult const r = search(deck);
    REQUIRE(r.s.size() == 3);  // QF, QD of the first cell and QF of the second (s <= 5.6 m; cells of 5.2 m)
    char const* names[3] = {"QF", "QD", "QF"};
    int const occurrence[3] = {0, 0, 1};
    // The D_AP that matters is the nearest aperture's turn after turn; all eight are alike (periodic cells).
    optics::OpticsRow const ap = row("AP", 0);
    REQUIRE(ap.d_x > 0.1);
    for (std::size_t k = 0; k < 3; ++k) {
        optics::OpticsRow const l = row(names[k], occurrence[k]);
        CHECK(r.name[k] == names[k]);
        CHECK(r.s[k] == test::relative(l.s, 1e-12));
        double const gamma = (1.0 + l.alpha_x * l.alpha_x) / l.beta_x;
        double const hl =
            gamma * l.d_x * l.d_x + 2.0 * l.alpha_x * l.d_x * l.dp_x + l.beta_x * l.dp_x * l.dp_x;
        double const expected = a / (ap.d_x + std::sqrt(hl * ap.beta_x));
        MESSAGE(fmt::format("{}: H = {:.4g} m, expected {:.6g}, delta+ {:.6g}, delta- {:.6g}", names[k], hl,
                            expected, r.delta_plus[k], r.delta_minus[k]));
        // Tolerance: one step below (delta+ is the last surviving step) and 1% of delta: the chromatic
        // beta-beat (d beta/beta ~ 10 delta in this uncorrected ring: 1% at 1e-3, half of it in sqrt(beta)),
        // the second-order dispersion (D2 delta^2 ~ 1e-6 m beside a = 1 mm), and the largest |cos| of the
        // betatron phase over 300 turns (1 - O(1e-4)).
        // Measured: QF 3.2e-4 (expected 3.2157e-4), QD 3.0e-4 (3.0503e-4), on both sides.
        CHECK(r.delta_plus[k] <= expected * 1.01);
        CHECK(r.delta_plus[k] >= expected * 0.99 - r.resolution);
        CHECK(-r.delta_minus[k] <= expected * 1.01);
        CHECK(-r.delta_minus[k] >= expected * 0.99 - r.resolution);
        // The limiting candidates hit an aperture AP.
        for (std::int64_t e : {r.lost_element_plus[k], r.lost_element_minus[k]}) {
            REQUIRE(e >= 0);
            CHECK(r.lost_turn_plus[k] >= 1);
            CHECK(r.lost_turn_plus[k] <= 300);
        }
    }
}

TEST_CASE("locations: types, names and every N metres within the s range")
{
    DeckConfig const deck = read_deck_text(
        ring("every = 5.3\ndelta_max = 1e-3\nresolution = 1e-3\nnames = [\"Q?\"]\ns_min = 1\ns_max = 12",
             k_no_aperture, "", 1),
        "ma.toml");
    ReferenceParticle const ref = initial_reference(deck);
    Lattice const lattice = build_lattice(deck, ref);
    auto const where = study::momentum_aperture_locations(deck, lattice);
    // Cells of 5.2 m. Q?: QD of cell 1 (2.9 m), QF and QD of cell 2 (5.5, 8.1 m), QF of cell 3 (10.7 m); the
    // first QF ends at 0.3 m < s_min. Every 5.3 m from 1 m: the first exits at or after 1 m and 6.3 m are
    // the bends B (2.2 m, 7.4 m); after 11.6 m the first exit (B, 12.6 m) lies beyond s_max.
    std::vector<std::string> names;
    for (std::size_t i : where) names.push_back(lattice.info[i].name);
    std::vector<double> s;
    for (std::size_t i : where) s.push_back(lattice.info[i].s_end);
    MESSAGE(fmt::format("{}", fmt::join(names, " ")));
    CHECK(std::is_sorted(where.begin(), where.end()));
    CHECK(names == std::vector<std::string>{"B", "QD", "QF", "B", "QD", "QF"});
    for (double x : s) CHECK((x >= 1.0 && x <= 12.0));
}

TEST_CASE("a wrong [momentum_aperture] is a deck error naming the key")
{
    auto problems = [](std::string const& text) {
        try {
            read_deck_text(text, "ma.toml");
        } catch (DeckError const& e) {
            std::string all;
            for (auto const& d : e.diagnostics()) all += d.format() + "\n";
            return all;
        }
        return std::string();
    };
    std::string const ok = "types = [\"quadrupole\"]\ndelta_max = 0.01\nresolution = 1e-3\n";
    CHECK(problems(ring(ok, k_no_aperture)).empty());
    CHECK(problems(ring(ok + "resolutions = 3", k_no_aperture)).find("unknown key 'resolutions'") !=
          std::string::npos);
    CHECK(problems(ring("types = [\"quadrupol\"]\ndelta_max = 0.01\nresolution = 1e-3", k_no_aperture))
              .find("momentum_aperture.types") != std::string::npos);
    CHECK(problems(ring("names = [\"QX*\"]\ndelta_max = 0.01\nresolution = 1e-3", k_no_aperture))
              .find("momentum_aperture.names") != std::string::npos);
    CHECK(problems(ring("types = [\"quadrupole\"]\ndelta_max = 0.01\nresolution = 0.02", k_no_aperture))
              .find("momentum_aperture.resolution") != std::string::npos);
    CHECK(problems(ring("types = [\"quadrupole\"]\nresolution = 1e-3", k_no_aperture)).find("delta_max") !=
          std::string::npos);
    CHECK(problems(ring("delta_max = 0.01\nresolution = 1e-3", k_no_aperture)).find("momentum_aperture") !=
          std::string::npos);
    CHECK(problems(ring(ok + "s_min = 10\ns_max = 5", k_no_aperture)).find("momentum_aperture.s_max") !=
          std::string::npos);
    CHECK(problems(ring(ok + "turns = 0", k_no_aperture)).find("momentum_aperture.turns") !=
          std::string::npos);
    // 4D with radiation would spiral every particle inwards.
    std::string rad = ring(ok + "rf = false", k_no_aperture);
    rad.replace(rad.find("turns = 500"), 11, "turns = 500\nradiation = \"mean\"");
    CHECK(problems(rad).find("momentum_aperture.rf") != std::string::npos);
}
