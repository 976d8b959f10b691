// Beams emitted from rest at a cathode into a t-code entry: the hyperbolic motion in a DC gap, the
// emission-time and thermal-momentum distributions, the thermal emittance, the bunch push with
// emission (and space charge), and the deck's refusals.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "DeckTestSupport.hh"
#include "FieldMap3DTestSupport.hh"
#include "IoTestSupport.hh"
#include "Relative.hh"
#include "TextTestSupport.hh"
#include "beam/BeamSetup.hh"
#include "kernels/core/Types.hh"

using namespace gt;
using namespace gt::test;

namespace {

double const k_mc2 = 0.51099895000;  // [MeV] electron rest energy (CODATA 2018)
double const k_field = 20e6;         // [V/m] the DC gap's field
double const k_gap = 0.02;           // [m] its length

//! The [beam] of an electron bunch emitted from a cathode with these [beam.cathode] lines.
std::string cathode_beam(std::string const& cathode, int n = 1000)
{
    return fmt::format(R"([beam]
particle = "electron"
distribution = "cathode"
bunch_charge = "1 pC"
macroparticles = {}
[beam.cathode]
{}
)",
                       n, cathode);
}

//! A deck: `beam`, then the elements and line, beside gap.txt (a uniform Ez of k_field over
//! [0, k_gap], 41 points). The gap is an RF cavity at 1 Hz: cos(k c t + phase) differs from its value
//! at t = 0 by ~(2 pi 1 Hz x 1 ns)^2 ~ 1e-17 over the transit, a DC field to round-off.
struct GapDeck {
    TempDir dir;
    explicit GapDeck(std::string const& beam, std::string const& elements, std::string const& line,
                     std::string const& extra = "")
    {
        std::ofstream f(dir.file("gap.txt"));
        f << "# z [m] Ez [V/m]\n";
        for (int i = 0; i <= 40; ++i) f << fmt::format("{:.17g} {:.17g}\n", k_gap * i / 40.0, k_field);
        text = "[run]\nname = \"c\"\n" + extra + "\n" + beam + "[elements]\n" + elements + "\n[lattice]\nline = " +
               line + "\n";
    }
    std::string path() const { return dir.file("deck.toml"); }
    std::string error() const { return lattice_error(text, path()); }
    std::string text;
};

std::string const k_gap_element = R"(GAP = { type = "rfcavity", profile = "gap.txt", frequency = "1 Hz", tracking = "t" })";

struct SampleMoments {
    double mean = 0, var = 0;
};
SampleMoments sample_moments(std::vector<double> const& v)
{
    SampleMoments m;
    for (double x : v) m.mean += x;
    m.mean /= double(v.size());
    for (double x : v) m.var += (x - m.mean) * (x - m.mean);
    m.var /= double(v.size());
    return m;
}

//! rms emittance sqrt(<x^2><p^2> - <x p>^2) (central moments).
double emittance(std::vector<double> const& x, std::vector<double> const& p)
{
    SampleMoments const mx = sample_moments(x), mp = sample_moments(p);
    double xp = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) xp += (x[i] - mx.mean) * (p[i] - mp.mean);
    xp /= double(x.size());
    return std::sqrt(mx.var * mp.var - xp * xp);
}

}  // namespace

TEST_CASE("emitted at rest into a DC gap: the hyperbolic motion, for the reference and each particle")
{
    // From rest in a uniform field E: p(t) = q E t, z(t) = (m c^2 / q E)(sqrt(1 + (q E t / m c)^2) - 1),
    // so at z = L: gamma = 1 + q E L / m c^2 and c t = (m c^2 / q E) sqrt(gamma^2 - 1). The push is RK4
    // at |e| h = 0.02 (the accuracy rule, e = q E / m c^2): P = e sigma is integrated exactly, and z is
    // the integral of the smooth beta(sigma) whose derivatives scale as e^k, so the global error is
    // ~(|e| h)^4 ~ 2e-7 relative at most, hence 1e-6 (measured: 2e-10 for the reference; 1e-8 in time
    // for particles emitted between grid times, whose first step is a fraction of h).
    GapDeck d(cathode_beam("spot = \"gaussian\"\nspot_rms = \"0.5 mm\"\nemission = \"gaussian\"\n"
                           "emission_length = \"2 ps\"\nmte = \"0 eV\""),
              k_gap_element, R"(["GAP"])");
    Lattice lattice;
    REQUIRE(lattice_error(d.text, d.path(), &lattice) == "");
    REQUIRE(lattice.elements.size() == 1);
    REQUIRE(lattice.elements[0].kind == ElementKind::time_code);
    double const gain = k_field * k_gap * 1e-6;  // [MeV]
    double const gamma = 1.0 + gain / k_mc2;
    double const ct = (k_mc2 * 1e6 / k_field) * std::sqrt(gamma * gamma - 1.0);  // [m]
    ReferenceParticle const& after = lattice.reference_after[0];
    MESSAGE("reference: relative errors of the energy gain " << after.kinetic_mev / gain - 1.0 << ", of the time "
                                                            << after.t * constants::c_light / ct - 1.0);
    CHECK(lattice.reference_begin.beta_gamma == test::relative(1.0, 1e-15));
    CHECK(std::abs(after.kinetic_mev / gain - 1.0) < 1e-6);
    CHECK(std::abs(after.t * constants::c_light / ct - 1.0) < 1e-6);
    CHECK(after.s == test::relative(k_gap, 1e-12));

    // Cold particles emitted at other times, between grid steps: the same motion shifted in time, so
    // at the exit pt = 0 and t = c t_emission to the same 1e-6 of the transit; x, y unchanged (no
    // transverse field in a uniform gap).
    DeckConfig const deck = read_deck_text(d.text, d.path());
    BeamSampler const sampler = make_beam_sampler(deck.beam, 7);
    TimeCode const& code = lattice.elements[0].time_code;
    double worst_t = 0.0, worst_pt = 0.0, worst_x = 0.0;
    for (std::uint64_t id = 0; id < 200; ++id) {
        Particle p = sampler.sample(id);
        Particle const start = p;
        REQUIRE(code(p));
        worst_t = std::max(worst_t, std::abs(p.t - start.t) / ct);
        worst_pt = std::max(worst_pt, std::abs(p.pt));
        worst_x = std::max({worst_x, std::abs(p.x - start.x), std::abs(p.y - start.y)});
    }
    MESSAGE("particles: |t - c t_emit| / c t_transit " << worst_t << ", |pt| " << worst_pt << ", |dx| " << worst_x);
    CHECK(worst_t < 1e-6);
    CHECK(worst_pt < 1e-6);
    CHECK(worst_x < 1e-15);
}

TEST_CASE("emitted at rest into a static 3D field map: the same hyperbolic motion")
{
    // A uniform Ez on a 3 x 3 x 11 grid: trilinear interpolation is exact, so the bound and its
    // reason are the DC gap's above. Static (no frequency): no crest, the field must accelerate.
    GapDeck d(cathode_beam("spot_rms = \"0.5 mm\"\nemission_length = \"2 ps\"\nmte = \"0 eV\""),
              R"(GAP = { type = "field_map", file = "gap.h5", length = 0.02, tracking = "t" })", R"(["GAP"])");
    write_map_file(d.dir.file("gap.h5"),
                   sampled_map({3, 3, 11}, {-0.01, -0.01, 0.0}, {0.01, 0.01, k_gap / 10.0},
                               [](double, double, double) { return std::array<double, 3>{0.0, 0.0, -k_field}; }, {}));
    Lattice lattice;
    REQUIRE(lattice_error(d.text, d.path(), &lattice) == "");
    REQUIRE(lattice.elements[0].time_code.field == TimeField::grid_map);
    double const gain = k_field * k_gap * 1e-6;
    double const gamma = 1.0 + gain / k_mc2;
    double const ct = (k_mc2 * 1e6 / k_field) * std::sqrt(gamma * gamma - 1.0);
    ReferenceParticle const& after = lattice.reference_after[0];
    MESSAGE("3D map: relative errors of the energy gain " << after.kinetic_mev / gain - 1.0 << ", of the time "
                                                          << after.t * constants::c_light / ct - 1.0);
    CHECK(std::abs(after.kinetic_mev / gain - 1.0) < 1e-6);
    CHECK(std::abs(after.t * constants::c_light / ct - 1.0) < 1e-6);
    DeckConfig const deck = read_deck_text(d.text, d.path());
    BeamSampler const sampler = make_beam_sampler(deck.beam, 3);
    for (std::uint64_t id = 0; id < 50; ++id) {
        Particle p = sampler.sample(id);
        Particle const start = p;
        REQUIRE(lattice.elements[0].time_code(p));
        CHECK(std::abs(p.t - start.t) < 1e-6 * ct);
        CHECK(std::abs(p.pt) < 1e-6);
    }
    // The reversed field pulls the reference back into the cathode: refused, with the key.
    write_map_file(d.dir.file("gap.h5"),
                   sampled_map({3, 3, 11}, {-0.01, -0.01, 0.0}, {0.01, 0.01, k_gap / 10.0},
                               [](double, double, double) { return std::array<double, 3>{0.0, 0.0, k_field}; }, {}));
    CHECK(contains(d.error(), "elements.GAP.file: the reference particle emitted at rest at the cathode does not leave"));
}

TEST_CASE("the emission: time profile, spot and thermal momenta have their stated moments")
{
    // Sampling errors for N draws: a mean within 4 sigma / sqrt(N); a variance within
    // 4 sigma^2 sqrt((kurtosis - 1) / N), kurtosis <= 3 for these (Gaussian 3, a uniform disk's x 2,
    // trapezoid < 3): 4 sqrt(2 / N).
    int const n = 100000;
    double const tol_var = 4.0 * std::sqrt(2.0 / n);
    auto sample = [&](std::string const& cathode) {
        GapDeck d(cathode_beam(cathode, n), k_gap_element, R"(["GAP"])");
        DeckConfig const deck = read_deck_text(d.text, d.path());
        BeamSampler const s = make_beam_sampler(deck.beam, 11);
        std::vector<std::vector<double>> c(6);
        for (int i = 0; i < n; ++i) {
            Particle const p = s.sample(std::uint64_t(i));
            double const v[6] = {p.x, p.px, p.y, p.py, p.t, p.pt};
            for (int k = 0; k < 6; ++k) c[std::size_t(k)].push_back(v[k]);
        }
        return c;
    };
    double const c = constants::c_light;
    SUBCASE("flat top with rise time, uniform disk, MTE")
    {
        // A flat top of 10 ps at half height with 2 ps edges: variance (L^2 + r^2) / 12.
        auto const v = sample("spot = \"uniform\"\nspot_rms = \"0.4 mm\"\nemission = \"flattop\"\n"
                              "emission_length = \"10 ps\"\nemission_rise = \"2 ps\"\nmte = \"0.5 eV\"");
        double const var_t = c * c * (100e-24 + 4e-24) / 12.0;
        SampleMoments const t = sample_moments(v[4]);
        CHECK(std::abs(t.mean) < 4.0 * std::sqrt(var_t / n));
        CHECK(std::abs(t.var / var_t - 1.0) < tol_var);
        double tmin = 1e300, tmax = -1e300;
        for (double x : v[4]) tmin = std::min(tmin, x), tmax = std::max(tmax, x);
        CHECK(tmax - tmin <= c * 12e-12);  // L + r
        CHECK(tmax - tmin > c * 11.9e-12);
        SampleMoments const x = sample_moments(v[0]), y = sample_moments(v[2]);
        CHECK(std::abs(x.var / 0.16e-6 - 1.0) < tol_var);
        CHECK(std::abs(y.var / 0.16e-6 - 1.0) < tol_var);
        // MTE = <px^2 + py^2> m c^2 / 2 (momenta in units of m c); pz >= 0, Rayleigh: <pz^2> = 2 MTE / m c^2.
        double const th2 = 0.5e-6 / k_mc2;
        double p2 = 0.0, pz2 = 0.0;
        for (int i = 0; i < n; ++i) {
            double const kin = k_cathode_pt_rest - v[5][std::size_t(i)];  // gamma - 1
            double const ptot2 = kin * (kin + 2.0);
            double const perp = v[1][std::size_t(i)] * v[1][std::size_t(i)] + v[3][std::size_t(i)] * v[3][std::size_t(i)];
            p2 += perp;
            pz2 += ptot2 - perp;
        }
        CHECK(std::abs(0.5 * (p2 / n) * k_mc2 / 0.5e-6 - 1.0) < tol_var);
        CHECK(std::abs((pz2 / n) / (2.0 * th2) - 1.0) < 1e-3 + tol_var);  // pz from the energy: 1e-10 round-off
        // Thermal emittance: sigma_x sqrt(MTE / m c^2), within the sampling error of ~1 / sqrt(N).
        double const eps = 0.4e-3 * std::sqrt(th2);
        CHECK(std::abs(emittance(v[0], v[1]) / eps - 1.0) < 4.0 / std::sqrt(double(n)));
        CHECK(std::abs(emittance(v[2], v[3]) / eps - 1.0) < 4.0 / std::sqrt(double(n)));
    }
    SUBCASE("Gaussian emission, Gaussian spot, thermal emittance per rms spot size")
    {
        auto const v = sample("spot = \"gaussian\"\nspot_rms = \"0.3 mm\"\nemission = \"gaussian\"\n"
                              "emission_length = \"3 ps\"\nthermal_emittance = \"0.9 um/mm\"");
        SampleMoments const t = sample_moments(v[4]);
        CHECK(std::abs(t.var / (c * c * 9e-24) - 1.0) < tol_var);
        CHECK(std::abs(emittance(v[0], v[1]) / (0.3e-3 * 0.9e-3) - 1.0) < 4.0 / std::sqrt(double(n)));
    }
}

TEST_CASE("the emitted beam keeps its thermal emittance through the DC gap")
{
    // In a uniform Ez the transverse motion is free (px conserved, x += px dt / gamma): the normalized
    // emittance at the exit plane is the cathode's, sigma_x sqrt(MTE / m c^2), but for the spread of
    // the thermal pz's arrival times (a relative ~1e-4 effect at 0.5 eV into 400 keV): 1e-3.
    int const n = 20000;
    GapDeck d(cathode_beam("spot = \"uniform\"\nspot_rms = \"0.5 mm\"\nemission = \"flattop\"\n"
                           "emission_length = \"5 ps\"\nemission_rise = \"1 ps\"\nmte = \"0.5 eV\"",
                           n),
              k_gap_element, R"(["GAP"])");
    Lattice lattice;
    REQUIRE(lattice_error(d.text, d.path(), &lattice) == "");
    DeckConfig const deck = read_deck_text(d.text, d.path());
    BeamSampler const sampler = make_beam_sampler(deck.beam, 5);
    std::vector<double> x0, px0, x1, px1;
    double const p1 = lattice.reference_after[0].beta_gamma;  // exit momentum / m c
    for (int i = 0; i < n; ++i) {
        Particle p = sampler.sample(std::uint64_t(i));
        x0.push_back(p.x);
        px0.push_back(p.px);
        REQUIRE(lattice.elements[0].time_code(p));
        x1.push_back(p.x);
        px1.push_back(p.px * p1);
    }
    double const eps0 = emittance(x0, px0), eps1 = emittance(x1, px1);
    double const theory = 0.5e-3 * std::sqrt(0.5e-6 / k_mc2);
    MESSAGE("thermal emittance: cathode " << eps0 << ", exit " << eps1 << ", sigma_x sqrt(MTE/mc^2) " << theory);
    CHECK(std::abs(eps0 / theory - 1.0) < 4.0 / std::sqrt(double(n)));
    CHECK(std::abs(eps1 / eps0 - 1.0) < 1e-3);
}

TEST_CASE("emission into a bunch pushed step by step: the per-particle bits; with space charge, validate passes")
{
    // Without kicks every particle goes through TimeCode::operator()'s operations (emission at its
    // own time, then the common grid), so the bunch steps give the same bits.
    std::string const cathode =
        "spot = \"uniform\"\nspot_rms = \"0.5 mm\"\nemission = \"flattop\"\nemission_length = \"5 ps\"\n"
        "emission_rise = \"1 ps\"\nmte = \"0.5 eV\"";
    GapDeck d(cathode_beam(cathode, 2000), k_gap_element, R"(["GAP"])");
    DeckConfig const deck = read_deck_text(d.text, d.path());
    Lattice const lattice = build_lattice(deck, initial_reference(deck));
    auto kernels = make_cpu_beam_kernels();
    kernels->set_elements(lattice.elements, *lattice.field_data);
    ParticleState a = initial_beam(deck, *kernels), b = initial_beam(deck, *kernels);
    kernels->track(a.view(), 0, 1, 0);
    double k = kernels->time_bunch_begin(b.view(), 0);
    REQUIRE(std::isfinite(k));
    CHECK(k < 0.0);  // the earliest particles are emitted before the reference
    while (kernels->time_bunch_step(b.view(), 0, k)[0] > 0.0) k += 1.0;
    kernels->time_bunch_finish(b.view(), 0, 0);
    std::size_t differing = 0, lost = 0;
    ParticleView const u = a.view(), v = b.view();
    double const* const cu[6] = {u.x, u.px, u.y, u.py, u.t, u.pt};
    double const* const cv[6] = {v.x, v.px, v.y, v.py, v.t, v.pt};
    for (size_type i = 0; i < u.size; ++i) {
        lost += u.alive(i) ? 0 : 1;
        for (int c = 0; c < 6; ++c) differing += cu[c][i] != cv[c][i];
    }
    CHECK(lost == 0);
    CHECK(differing == 0);

    // With space charge (20 pC in a 1 mm spot: the frame starts near rest, the floor guards it):
    // two CPU backends agree, as `gtrack validate` checks.
    // (A coarse grid, few particles and a 5 ps step keep it fast: the point is the mechanism.)
    GapDeck s(cathode_beam(cathode, 500),
              R"(GAP = { type = "rfcavity", profile = "gap.txt", frequency = "1 Hz", tracking = "t", time_step = "5 ps" })",
              R"(["GAP"])", "[space_charge]\nenabled = true\ngrid = [8, 8, 8]\ndeposition = \"deterministic\"\n");
    std::string text = s.text;
    text.replace(text.find("bunch_charge = \"1 pC\""), 21, "bunch_charge = \"20 pC\"");
    DeckConfig const sc = read_deck_text(text, s.path());
    check_cpu_backends_agree(sc);
}

TEST_CASE("cathode decks: what is refused, with the key and line")
{
    std::string const beam = cathode_beam("spot_rms = \"0.5 mm\"\nemission_length = \"2 ps\"\nmte = \"0.2 eV\"");
    CHECK(GapDeck(beam, k_gap_element, R"(["GAP"])").error() == "");
    // The first element must be a profile element tracked in time.
    CHECK(contains(GapDeck(beam, "D = { type = \"drift\", length = 1.0 }\n" + k_gap_element, R"(["D", "GAP"])").error(),
                   "elements.D.type"));
    CHECK(contains(GapDeck(beam, R"(GAP = { type = "rfcavity", profile = "gap.txt", frequency = "1 Hz" })",
                           R"(["GAP"])")
                       .error(),
                   "elements.GAP.tracking: the beam is emitted from a cathode at rest"));
    // Markers and monitors before it are fine; a line of only those has nothing to emit into.
    CHECK(GapDeck(beam, "M = { type = \"monitor\" }\n" + k_gap_element, R"(["M", "GAP"])").error() == "");
    CHECK(contains(GapDeck(beam, "M = { type = \"monitor\" }", R"(["M"])").error(), "beam.distribution"));
    // The `auto` rule after the gun takes the bunch length from the emission: c x rms emission time
    // (0.17 mm for a 2 ps flat top), beta 0.83 after the gap, against a 0.3 mm quadrupole: 2.1 bunch
    // lengths, t-code (without it the bunch length would be unknown and the choice z-code).
    {
        Lattice lattice;
        GapDeck q(beam, k_gap_element + "\nQ = { type = \"quadrupole\", length = \"0.3 mm\", k1 = 1.0, tracking = \"auto\" }",
                  R"(["GAP", "Q"])");
        REQUIRE(lattice_error(q.text, q.path(), &lattice) == "");
        CHECK(lattice.elements.at(1).kind == ElementKind::time_code);
        CHECK(contains(lattice.info.at(1).tracking, "t-code (auto"));
    }
    // [beam] keys.
    std::string const located = GapDeck(cathode_beam("spot_rms = \"0.5 mm\"\nemission_length = \"2 ps\"\n"
                                                     "mte = \"0.2 eV\"\nthermal_emittance = 1e-3"),
                                        k_gap_element, R"(["GAP"])")
                                    .error();
    CHECK(contains(located, "deck.toml:"));
    CHECK(contains(located, "beam.cathode.thermal_emittance: give either mte or thermal_emittance"));
    std::string with_energy = beam;
    with_energy.insert(with_energy.find("bunch_charge"), "kinetic_energy = \"1 MeV\"\n");
    CHECK(contains(GapDeck(with_energy, k_gap_element, R"(["GAP"])").error(),
                   "beam.kinetic_energy: a beam emitted from a cathode"));
    CHECK(contains(GapDeck(cathode_beam("spot_rms = \"0.5 mm\"\nemission_length = \"2 ps\"\nemission_rise = \"3 ps\"\n"
                                        "mte = \"0.2 eV\""),
                           k_gap_element, R"(["GAP"])")
                       .error(),
                   "beam.cathode.emission_rise"));
    CHECK(contains(GapDeck(cathode_beam("spot_rms = \"0.5 mm\"\nemission_length = \"2 ps\""), k_gap_element,
                           R"(["GAP"])")
                       .error(),
                   "beam.cathode.mte"));
}
