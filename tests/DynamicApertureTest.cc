// The dynamic-aperture study and its frequency map on small rings, against the optics' tunes and
// chromaticities, the first-order octupole detuning, and the border a linear ring's aperture gives.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "CommandTestSupport.hh"
#include "IoTestSupport.hh"
#include "Relative.hh"
#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"
#include "kernels/beam/BeamKernels.hh"
#include "optics/Optics.hh"
#include "study/DynamicAperture.hh"
#include "study/MomentumAperture.hh"

using namespace gt;

namespace {

//! fodo_ring's 8 cells (inputs/fodo_ring.toml: 1 GeV protons, sextupoles, no RF), starting at the middle
//! of a focusing quadrupole (alpha = 0 in both planes), with `extra` elements and `first` before the cells.
std::string ring(std::string const& study, std::string const& extra = "", std::string const& first = "",
                 std::string const& sextupoles = "1.5, -2.5", int turns = 1024)
{
    double sf = 0, sd = 0;
    std::sscanf(sextupoles.c_str(), "%lf, %lf", &sf, &sd);
    return fmt::format(R"([run]
name = "da"
[beam]
particle = "proton"
kinetic_energy = "1 GeV"
macroparticles = 1
[beam.twiss]
beta_x = 9.9
beta_y = 3.2
emittance_x = "1 um"
emittance_y = "1 um"
[elements]
QFH = {{ type = "quadrupole", length = "25 cm", k1 = 0.68 }}
QD  = {{ type = "quadrupole", length = "50 cm", k1 = -0.68 }}
SF  = {{ type = "sextupole", length = "20 cm", k2 = {}, kicks = 4 }}
SD  = {{ type = "sextupole", length = "20 cm", k2 = {}, kicks = 4 }}
B   = {{ type = "sbend", length = 2.0, angle = "22.5 deg" }}
D   = {{ type = "drift", length = "50 cm" }}
{}
[lattice]
cell = ["QFH", "SF", "D", "B", "D", "QD", "SD", "D", "B", "D", "QFH"]
ring = [{}"cell*8"]
use = "ring"
turns = {}
[dynamic_aperture]
{}
)",
                       sf, sd, extra, first, turns, study);
}

DeckConfig deck_of(std::string const& text) { return read_deck_text(text, "da.toml"); }

study::DynamicApertureResult track(DeckConfig const& deck)
{
    auto kernels = make_cpu_beam_kernels();
    return study::track_dynamic_aperture(deck, *kernels);
}

double frac(double q) { return q - std::floor(q); }

}  // namespace

TEST_CASE("small-amplitude tunes of the frequency map are the optics' tunes")
{
    // 1 um amplitude: the sextupoles' detuning (second order in their strength, first in the action
    // J ~ 1e-13 m) is far below 1e-9; NAFF with the Hann window of order 2 over 512 turns is good to
    // ~1e-12 (NaffTest). The optics' tunes come from the one-turn matrix (docs/optics.md, ~1e-9). Measured:
    // 4e-13 and 3e-13 (first half), 7e-12 and 3e-13 (second half).
    DeckConfig const deck =
        deck_of(ring("radii = 1\nradius_max = \"1 um\"\nangles = 1\nfrequency_map = true"));
    study::StudyOptics const o = study::study_optics(deck);
    auto const r = track(deck);
    REQUIRE(r.qx1.size() == 1);
    CHECK(r.survived[0] == 1024);
    CHECK(std::abs(r.qx1[0] - frac(o.tune_x)) < 1e-6);
    CHECK(std::abs(r.qy1[0] - frac(o.tune_y)) < 1e-6);
    CHECK(std::abs(r.qx2[0] - frac(o.tune_x)) < 1e-6);
    CHECK(std::abs(r.qy2[0] - frac(o.tune_y)) < 1e-6);
    CHECK(r.diffusion[0] < -8.0);
}

TEST_CASE("chromatic tunes of the frequency map are the optics' chromaticities")
{
    // Q(delta) at delta = +-1e-4 about the linear dispersion orbit: the centred difference's error is the
    // third-order chromaticity times delta^2 (1e-8 relative for Q''' ~ 100); each tune's NAFF error ~1e-12
    // over 2e-4 is 1e-8. The optics' dQ/d delta is its own five-point stencil of the one-turn matrix.
    // Measured: 2.5719591 against 2.5719594, 2.8555895 against 2.8555894 (1e-7 relative).
    DeckConfig const deck = deck_of(
        ring("radii = 1\nradius_max = \"1 um\"\nangles = 1\nfrequency_map = true\ndeltas = [-1e-4, 1e-4]"));
    Lattice const lattice = build_lattice(deck, initial_reference(deck), false);
    optics::OpticsResult const o = optics::compute_optics(deck, lattice, optics::OpticsOptions{});
    auto const r = track(deck);
    REQUIRE(r.qx1.size() == 2);
    double const cx = (r.qx1[1] - r.qx1[0]) / 2e-4, cy = (r.qy1[1] - r.qy1[0]) / 2e-4;
    CAPTURE(o.chroma_x);
    CAPTURE(o.chroma_y);
    CHECK(cx == test::relative(o.chroma_x, 1e-4));
    CHECK(cy == test::relative(o.chroma_y, 1e-4));
}

TEST_CASE("amplitude detuning of one thin octupole: the first-order coefficients")
{
    // A thin octupole of integrated strength K3L (MAD-X multipole knl[3]; kick dpx = -K3L (x^3 - 3 x y^2)/6)
    // has the Hamiltonian K3L (x^4 - 6 x^2 y^2 + y^4) / 24 delta(s). Averaged over the betatron phases
    // with x = sqrt(2 Jx beta_x) cos(phi): <x^4> = 3/2 beta_x^2 Jx^2 and <x^2 y^2> = beta_x beta_y Jx Jy, so
    // to first order in K3L (e.g. S.Y. Lee, Accelerator Physics, 3rd ed., sec. 2.VIII; J. Bengtsson, SLS
    // Note 9/97): dQx/dJx = K3L beta_x^2 / (16 pi), dQx/dJy = dQy/dJx = -K3L beta_x beta_y / (8 pi),
    // dQy/dJy = K3L beta_y^2 / (16 pi), the betas at the octupole. The ring is linear otherwise (no
    // sextupoles); the octupole stands first, where the grid starts (alpha = 0: J = x0^2 / (2 beta)).
    // The ring's own detuning (the exact drifts' and bends' kinematic terms, ~2% of the octupole's here) is
    // taken out by tracking the same grid without the octupole (knl[3] = 0) and subtracting its tunes.
    double const k3l = 50.0;
    auto run = [](double k) {
        DeckConfig const deck =
            deck_of(ring("angles = 2\nangle_max = \"90 deg\"\nradii = 1\nradius_max = \"3 mm\"\n"
                         "frequency_map = true",
                         fmt::format("OCT = {{ type = \"multipole\", knl = [0, 0, 0, {}] }}", k), "\"OCT\", ",
                         "0, 0", 2048));
        return std::make_pair(study::study_optics(deck), track(deck));
    };
    auto const [o, r] = run(k3l);
    auto const [o0, r0] = run(0.0);
    REQUIRE(r.qx1.size() == 2);
    REQUIRE(r0.qx1.size() == 2);
    double const pi = 3.14159265358979323846, a = 3e-3;
    double const jx = a * a / (2 * o.beta_x), jy = a * a / (2 * o.beta_y);
    double const axx = k3l * o.beta_x * o.beta_x / (16 * pi), axy = -k3l * o.beta_x * o.beta_y / (8 * pi),
                 ayy = k3l * o.beta_y * o.beta_y / (16 * pi);
    // Particle 0: x only; particle 1: y only (x = 3 mm cos(pi/2) ~ 2e-19 m: a vanishing x amplitude).
    double const dqx_x = r.qx1[0] - r0.qx1[0], dqy_y = r.qy1[1] - r0.qy1[1];
    double const dqx_y = r.qx1[1] - r0.qx1[1];
    CAPTURE(axx * jx);
    CAPTURE(ayy * jy);
    CAPTURE(axy * jy);
    // The shifts are 1.4e-5 to 8.8e-5, measured within 2e-4 (relative) of the first-order values: what is
    // left is second order in K3L J (~ the shift over the distance to the nearest resonance); NAFF's error,
    // ~1e-12, is far smaller. 1e-3 holds them.
    CHECK(dqx_x == test::relative(axx * jx, 1e-3));
    CHECK(dqy_y == test::relative(ayy * jy, 1e-3));
    CHECK(dqx_y == test::relative(axy * jy, 1e-3));
    CHECK(o0.beta_x == doctest::Approx(o.beta_x));  // a thin octupole leaves the linear optics alone
}

TEST_CASE("a linear ring's rectangular aperture: the border of each angle within one radius step")
{
    // Without sextupoles the motion is linear: a particle started at (x0, 0, y0, 0) where alpha = 0 reaches
    // x0 sqrt(beta_x,ap / beta_x,0) at an aperture where beta is beta_x,ap (its phase over 1000 turns of an
    // irrational tune comes within 1e-5 of the crest). The border at angle theta is then the smaller of
    // hx / (cos(theta) sqrt(beta_x,ap / beta_x,0)) and hy / (sin(theta) ...).
    double const hx = 0.01, hy = 0.006;
    std::string const study = "angles = 5\nradii = 40\nradius_max = \"40 mm\"";
    // The aperture after the first cell's QD (entries 0-5 of the cell): insert it in the line there.
    std::string text =
        ring(study,
             fmt::format("AP = {{ type = \"aperture\", shape = \"rectangle\", half_x = {}, half_y = {} }}",
                         hx, hy),
             "", "0, 0", 1000);
    auto const at = text.find("cell = [\"QFH\", \"SF\", \"D\", \"B\", \"D\", \"QD\",");
    REQUIRE(at != std::string::npos);
    text.insert(text.find("\"QD\",", at) + 5, " \"AP\",");
    DeckConfig const d = deck_of(text);
    Lattice const lattice = build_lattice(d, initial_reference(d), false);
    optics::OpticsResult const o = optics::compute_optics(d, lattice, optics::OpticsOptions{});
    std::size_t row = 0;
    for (std::size_t i = 1; i < o.rows.size(); ++i)
        if (o.rows[i].name == "AP") row = i;
    REQUIRE(row > 0);
    double const bx = std::sqrt(o.rows[row].beta_x / o.rows[0].beta_x);
    double const by = std::sqrt(o.rows[row].beta_y / o.rows[0].beta_y);
    auto const r = track(d);
    REQUIRE(r.border.size() == 5);
    double const step = 1e-3;
    for (std::size_t k = 0; k < 5; ++k) {
        double const th = r.border_angle[k];
        double const c = std::cos(th), s = std::sin(th);
        double const lx = c > 1e-12 ? hx / (c * bx) : INFINITY, ly = s > 1e-12 ? hy / (s * by) : INFINITY;
        double const expected = std::min(lx, ly);
        CAPTURE(th);
        CAPTURE(expected);
        CHECK(r.border[k] <= expected);
        CHECK(r.border[k] > expected - step);
        CHECK(r.first_loss[k] == test::relative(r.border[k] + step, 1e-12));
    }
    // Every loss is at the aperture.
    for (std::size_t i = 0; i < r.survived.size(); ++i)
        if (r.survived[i] < 1000) CHECK(lattice.info[std::size_t(r.lost_element[i])].name == "AP");
    CHECK(r.da_min[0] == test::relative(*std::min_element(r.border.begin(), r.border.end()), 1e-12));
}

TEST_CASE("a wrong [dynamic_aperture] is a deck error naming the key")
{
    auto problems = [](std::string const& text) {
        try {
            read_deck_text(text, "da.toml");
        } catch (DeckError const& e) {
            std::string all;
            for (auto const& d : e.diagnostics()) all += d.format() + "\n";
            return all;
        }
        return std::string();
    };
    // A frequency map needs two halves of at least 32 turns.
    CHECK(problems(ring("radius_max = \"1 mm\"\nfrequency_map = true", "", "", "1.5, -2.5", 40))
              .find("dynamic_aperture.frequency_map") != std::string::npos);
    // A cartesian key in a polar grid, and a polar grid without its radius.
    std::string const p = problems(ring("nx = 4"));
    CHECK(p.find("dynamic_aperture.nx") != std::string::npos);
    CHECK(p.find("radius_max") != std::string::npos);
    // Too many momentum offsets, and an unknown key with its suggestion.
    CHECK(problems(ring("radius_max = 1e-3\ndeltas = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]"))
              .find("dynamic_aperture.deltas") != std::string::npos);
    CHECK(problems(ring("radius_max = 1e-3\nradii_max = 3")).find("unknown key 'radii_max'") !=
          std::string::npos);
    CHECK(problems(ring("radius_max = 1e-3")).empty());
}

// Checkpoints (src/study/StudyCheckpoint.hh): a study stopped by a signal at a turn (the test hook raises a
// real SIGTERM there) writes its checkpoint, no output, and exits 75; resumed, it ends with the bits of the
// run that was never stopped (the MPI form: tests/mpi/checkpoint.sh, mpi_checkpoint_dynamic_aperture).
TEST_CASE("a dynamic-aperture study stopped at a turn and resumed gives the uninterrupted run's bits")
{
    test::TempDir dir;
    std::string const deck = std::string(GTRACK_SOURCE_DIR) + "/inputs/light_source_da.toml";
    std::string const args =
        deck + " --set 'lattice.ring=[\"cell\"]' --set dynamic_aperture.radii=20" +
        " --set dynamic_aperture.frequency_map=false --set lattice.turns=12 -q --threads 1 -o ";
    std::string const whole = dir.file("whole.h5"), stopped = dir.file("stopped.h5");
    REQUIRE(test::run_gtrack("run " + args + whole).status == 0);
    test::CommandResult const stop =
        test::run_shell("GTRACK_TEST_STOP_AT=5 " + std::string(GTRACK_BINARY) + " run " + args + stopped);
    INFO(stop.output);
    CHECK(stop.status == 75);
    CHECK(stop.output.find("stopped by SIGTERM after 5 of 12 turns") != std::string::npos);
    CHECK(!std::filesystem::exists(stopped));
    REQUIRE(std::filesystem::exists(stopped + ".ckpt"));
    test::CommandResult const resumed = test::run_gtrack("run " + args + stopped + " --resume auto");
    INFO(resumed.output);
    REQUIRE(resumed.status == 0);
    CHECK(!std::filesystem::exists(stopped + ".ckpt"));  // the output is whole: its checkpoint is removed
    test::CommandResult const same = test::run_gtrack("compare " + whole + " " + stopped);
    INFO(same.output);
    CHECK(same.status == 0);
    CHECK(same.output.find(" 0 differ") != std::string::npos);
}

TEST_CASE("studies without checkpoints refuse output.checkpoint_every and --resume with a path")
{
    auto refusal = [](DeckConfig const& deck, study::StudyControl const* control, bool momentum) {
        try {
            auto kernels = make_cpu_beam_kernels();
            if (momentum)
                study::track_momentum_aperture(deck, *kernels, control);
            else
                study::track_dynamic_aperture(deck, *kernels, control);
        } catch (DeckError const& e) {
            return e.diagnostics().front().format();
        } catch (std::runtime_error const& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    // A frequency map keeps every turn's samples: no checkpoint (docs/checkpoint.md, "Ring studies").
    DeckConfig fma = deck_of(
        ring("radius_max = \"1 mm\"\nradii = 2\nangles = 2\nfrequency_map = true", "", "", "1.5, -2.5", 64) +
        "[output]\ncheckpoint_every = 8\n");
    CHECK(refusal(fma, nullptr, false).find("output.checkpoint_every") != std::string::npos);
    fma.output.checkpoint_every = {};
    study::StudyControl control;
    control.resume = "some.h5.ckpt";
    CHECK(refusal(fma, &control, false).find("--resume: a dynamic aperture with frequency_map = true") !=
          std::string::npos);
    // The momentum aperture likewise.
    DeckConfig ma =
        read_deck(std::string(GTRACK_SOURCE_DIR) + "/inputs/light_source_ma.toml", {}, std::nullopt);
    ma.output.checkpoint_every.steps = 8;
    CHECK(refusal(ma, nullptr, true).find("output.checkpoint_every") != std::string::npos);
}
