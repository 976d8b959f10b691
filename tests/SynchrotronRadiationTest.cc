// Classical synchrotron radiation in tracking ([lattice] radiation = "mean"): the energy loss per turn
// against U0 of the radiation integrals, the synchronous phase with RF, and the damping of the three
// planes against tau_i = 2 E0 T0 / (J_i U0) (Sands, SLAC-121, secs. 4.2-4.5; Wolski, Beam Dynamics,
// ch. 7).
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "DeckTestSupport.hh"
#include "Relative.hh"
#include "beam/Lattice.hh"
#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"
#include "kernels/elements/Element.hh"
#include "kernels/elements/SynchrotronRadiation.hh"
#include "optics/Optics.hh"
#include "optics/RadiationIntegrals.hh"
#include "run/BeamRun.hh"

namespace gt {
namespace {

//! A small 3 GeV electron ring: 8 FODO cells with two sector bends each (rho = 3.82 m), U0 = 1.88 MeV per
//! turn (U0/E0 = 6.3e-4, damping in ~1600-3200 turns). `bend_k1` makes the bends combined-function ones
//! (J_x != 1), `extra` adds keys to the bends, `rf` a cavity line.
std::string ring_deck(double bend_k1, std::string const& rf = "", std::string const& radiation = "mean",
                      double edge = 0.05)
{
    return fmt::format(R"([run]
name = "ring"
[beam]
particle = "electron"
total_energy = "3 GeV"
macroparticles = 1
[beam.twiss]
beta_x = 1.0
beta_y = 1.0
emittance_x = 1e-9
emittance_y = 1e-9
[elements]
qf = {{ type = "quadrupole", length = 0.3, k1 = 1.6 }}
qd = {{ type = "quadrupole", length = 0.3, k1 = -1.6 }}
b = {{ type = "sbend", length = 1.5, angle = 0.39269908169872414, k1 = {}, e1 = {}, e2 = {} }}
d = {{ type = "drift", length = 0.4 }}
sx = {{ type = "sextupole", length = 0.1, k2 = 2.0 }}
{}
[lattice]
cell = ["qf", "d", "b", "d", "sx", "qd", "d", "b", "d"]
line = ["cell*8"{}]
turns = 2
radiation = "{}"
)",
                       bend_k1, edge, edge, rf, rf.empty() ? "" : ", \"rf\"", radiation);
}

using Vec6 = std::array<double, 6>;

Vec6 one_turn(Lattice const& lattice, Vec6 const& z, int turns = 1)
{
    Particle p{z[0], z[1], z[2], z[3], z[4], z[5]};
    for (int n = 0; n < turns; ++n)
        for (Element const& e : lattice.elements) REQUIRE(track_element(e, p));
    return Vec6{p.x, p.px, p.y, p.py, p.t, p.pt};
}

struct Ring {
    DeckConfig deck;
    Lattice lattice;
    optics::RadiationIntegrals integrals;
};

Ring ring_of(std::string const& text)
{
    Ring r;
    r.deck = read_deck_text(text, "ring.toml");
    ReferenceParticle const ref = initial_reference(r.deck);
    r.lattice = build_lattice(r.deck, ref);
    Lattice const optics_lattice = build_lattice(r.deck, ref, false);
    optics::OpticsOptions o;
    o.periodic = true;
    optics::OpticsResult const res = optics::compute_optics(r.deck, optics_lattice, o);
    r.integrals = optics::radiation_integrals(r.deck, res, ref);
    return r;
}

//! The 6D fixed point of the one-turn map with radiation and RF, by Newton iteration on the map's centred-
//! difference Jacobian (the map is smooth; its damping makes 1 - M well conditioned).
Vec6 fixed_point(Lattice const& lattice, Vec6 z, std::array<std::array<double, 6>, 6>* jacobian = nullptr)
{
    double const step = 1e-7;
    std::array<std::array<double, 6>, 6> m{};
    for (int iter = 0; iter < 20; ++iter) {
        Vec6 const f = one_turn(lattice, z);
        for (int j = 0; j < 6; ++j) {
            Vec6 zp = z, zm = z;
            zp[j] += step;
            zm[j] -= step;
            Vec6 const fp = one_turn(lattice, zp), fm = one_turn(lattice, zm);
            for (int i = 0; i < 6; ++i) m[i][j] = (fp[i] - fm[i]) / (2 * step);
        }
        // Solve (1 - M) dz = f - z by Gaussian elimination with partial pivoting.
        std::array<std::array<double, 7>, 6> a{};
        for (int i = 0; i < 6; ++i) {
            for (int j = 0; j < 6; ++j) a[i][j] = (i == j ? 1.0 : 0.0) - m[i][j];
            a[i][6] = f[i] - z[i];
        }
        for (int c = 0; c < 6; ++c) {
            int piv = c;
            for (int r = c + 1; r < 6; ++r)
                if (std::abs(a[r][c]) > std::abs(a[piv][c])) piv = r;
            std::swap(a[c], a[piv]);
            for (int r = 0; r < 6; ++r) {
                if (r == c) continue;
                double const q = a[r][c] / a[c][c];
                for (int k = c; k < 7; ++k) a[r][k] -= q * a[c][k];
            }
        }
        double norm = 0;
        for (int i = 0; i < 6; ++i) {
            double const dz = a[i][6] / a[i][i];
            z[i] += dz;
            norm = std::max(norm, std::abs(dz));
        }
        if (norm < 1e-15) break;
    }
    if (jacobian) *jacobian = m;
    return z;
}

//! |lambda| of the three eigenvalue pairs of the 6x6 one-turn matrix: the characteristic polynomial's roots
//! through the 2x2 blocks would need the planes uncoupled; here the pairs are found as the roots of
//! det(M - lambda) by Durand-Kerner on the monic degree-6 polynomial from Faddeev-LeVerrier.
std::vector<std::complex<double>> eigenvalues(std::array<std::array<double, 6>, 6> const& m)
{
    using Mat = std::array<std::array<double, 6>, 6>;
    std::array<double, 7> c{};  // det(lambda - M) = sum c[k] lambda^k, c[6] = 1
    c[6] = 1.0;
    Mat mk{};  // Faddeev-LeVerrier: M_0 = 0; M_k = M M_(k-1) + c_(n-k+1) 1, c_(n-k) = -tr(M M_k) / k
    for (int k = 1; k <= 6; ++k) {
        Mat next{};
        for (int i = 0; i < 6; ++i)
            for (int j = 0; j < 6; ++j) {
                double s = 0;
                for (int l = 0; l < 6; ++l) s += m[i][l] * mk[l][j];
                next[i][j] = s + (i == j ? c[6 - k + 1] : 0.0);
            }
        mk = next;
        double tr = 0;
        for (int i = 0; i < 6; ++i)
            for (int l = 0; l < 6; ++l) tr += m[i][l] * mk[l][i];
        c[6 - k] = -tr / k;
    }
    std::vector<std::complex<double>> z(6);
    for (int i = 0; i < 6; ++i) z[i] = std::polar(1.0, 0.4 + 0.9 * i);
    for (int iter = 0; iter < 500; ++iter) {
        for (int i = 0; i < 6; ++i) {
            std::complex<double> num = 1.0;
            for (int k = 5; k >= 0; --k) num = num * z[i] + c[k];
            std::complex<double> den = 1.0;
            for (int j = 0; j < 6; ++j)
                if (j != i) den *= z[i] - z[j];
            z[i] -= num / den;
        }
    }
    return z;
}

TEST_CASE("radiation: the loss of a uniform-field arc on the reference orbit is c_rad h^2 L")
{
    // One exact sector-bend arc, the particle on the reference orbit: d pt = c_rad h^2 L (P = 1) up to the
    // second order of the loss itself: the particle radiates at the entrance, middle and exit (Simpson) and
    // the later points see its energy lowered by the earlier ones ((1 + delta)^2: ~ d pt = 4e-5 relative)
    // and the orbit that makes (h x ~ 1e-6): 1e-4.
    ReferenceParticle const ref = ReferenceParticle::from_kinetic(0.51099895, -1.0, 3000.0);
    ExactBend b = ExactBend::make(1.5, 0.39269908169872414, 0.0, 0.0, 0, ref);
    b.c_rad = radiation_constant(ref);
    Particle p{0, 0, 0, 0, 0, 0};
    REQUIRE(b(p));
    double const h = b.h;
    CHECK(p.pt == test::relative(b.c_rad * h * h * 1.5, 1e-4));
    CHECK(std::abs(p.pt / (b.c_rad * h * h * 1.5) - 1.0) > 1e-6);  // the second order is there (2e-5)
    // C_gamma E^3 / (2 pi) with C_gamma = 4 pi r_e / (3 (m c^2)^3) = 8.8463e-5 m/GeV^3 (Sands eq. 4.7):
    // c_rad = (2/3) r_e (beta gamma)^3; r_e = 2.8179403262e-15 m (CODATA 2018): the constants' digits, 1e-8.
    double const bg = ref.beta_gamma;
    CHECK(b.c_rad == test::relative(2.0 / 3.0 * 2.8179403262e-15 * bg * bg * bg, 1e-8));
}

TEST_CASE("radiation: one turn of the on-orbit particle loses U0 = C_gamma E^4 I2 / (2 pi)")
{
    Ring const r = ring_of(ring_deck(0.0));
    double const e0_ev = r.lattice.reference_begin.total_energy_mev() * 1e6;
    double const p0c_ev = r.lattice.reference_begin.pc_mev * 1e6;
    Vec6 const z = one_turn(r.lattice, Vec6{});
    double const loss_ev = z[5] * p0c_ev;  // pt = -(E - E0)/(p0 c)
    double const u0 = r.integrals.u0_ev;
    INFO("U0 tracked " << loss_ev << " eV, from I2 " << u0 << " eV, U0/E0 = " << u0 / e0_ev);
    // The tracked loss differs from U0 at second order: the particle's own loss lowers its energy along
    // the turn ((1 + delta)^2, <= 2 U0/E0 = 1.3e-3) and the dispersion it makes moves it off the axis
    // (h x ~ h D U0/E0 ~ 1e-4); 2.5e-3 bounds both. The first-order agreement is what is tested.
    CHECK(loss_ev == test::relative(u0, 2.5e-3));
    CHECK(std::abs(loss_ev / u0 - 1.0) > 1e-6);  // the second order is really there (not the formula itself)
    // Per-element U0 along the turn with delta reset after every bend: the first-order loss alone.
    double sum = 0;
    for (Element const& e : r.lattice.elements) {
        Particle p{0, 0, 0, 0, 0, 0};
        REQUIRE(track_element(e, p));
        sum += p.pt;
    }
    // On the axis only the bends radiate: sum of c_rad h^2 L = U0 / (p0 c beta) (beta = 1 - 1.5e-8), up to
    // each bend's own second order (Simpson's three points inside the bend: 2e-5, the first case): 1e-4.
    CHECK(sum * p0c_ev == test::relative(u0, 1e-4));
}

TEST_CASE("radiation: RF phased to replace the loss; the synchronous phase is honoured")
{
    Ring const r0 = ring_of(ring_deck(0.0));
    double const u0 = r0.integrals.u0_ev;
    double const volts = 2.0 * u0;  // cos(phi_s) = U0 / (|q| V) = 0.5: phi_s = 60 deg
    double const c = r0.lattice.length;
    double const beta = r0.lattice.reference_begin.beta;
    double const frequency = 40 * beta * constants::c_light / c;  // harmonic 40
    double const k_rf = constants::two_pi * frequency / constants::c_light;
    for (double phase_deg : {60.0, 45.0}) {
        std::string const rf =
            fmt::format("rf = {{ type = \"rfcavity\", voltage = {}, frequency = {}, phase = {} }}", volts,
                        frequency, phase_deg);
        Ring const r = ring_of(ring_deck(0.0, rf));
        // turns = 2 is accepted: the reference energy does not change with radiation = "mean".
        CHECK_FALSE(r.lattice.changes_reference_energy());
        Vec6 const z = fixed_point(r.lattice, Vec6{});
        // At the fixed point the cavity returns what the magnets took: |q| V cos(phase + k t_s) = U0(orbit),
        // U0 of the orbit within ~1e-3 of the integrals' (its energy offset, below). So the phase the
        // synchronous particle sees is acos(U0 / (|q| V)) = 60 deg to ~1e-3 rad whatever the deck's phase.
        double const seen = phase_deg * constants::pi / 180.0 + k_rf * z[4];
        INFO("phase " << phase_deg << " deg: t_s = " << z[4] << " m, delta_s ~ " << -z[5] << ", seen "
                      << seen * 180 / constants::pi << " deg");
        CHECK(seen == test::relative(std::acos(0.5), 2e-3));
        if (phase_deg == 60.0)
            CHECK(std::abs(z[4]) < 2e-3 / k_rf);  // the deck's phase is the synchronous one
        // Its energy: the sawtooth's mean is near zero; at the cavity's exit (the start) the orbit holds
        // about half a turn's loss: |pt_s| < U0 / E0.
        CHECK(std::abs(z[5]) < u0 / (r.lattice.reference_begin.total_energy_mev() * 1e6));
    }
    // The same ring without radiation and the cavity off the zero crossing is refused for turns > 1.
    std::string const rf = fmt::format(
        "rf = {{ type = \"rfcavity\", voltage = {}, frequency = {}, phase = 60 }}", volts, frequency);
    DeckConfig const deck = read_deck_text(ring_deck(0.0, rf, "off"), "ring.toml");
    CHECK_THROWS_WITH_AS(build_lattice(deck, initial_reference(deck)),
                         doctest::Contains("changes the reference energy"), DeckError);
}

//! The partition numbers J of the three eigen-modes of the 6D one-turn map with radiation and a cavity of
//! harmonic `harmonic` at V = 2 U0 (phi_s = 60 deg), sorted by the modes' tunes: {x, y, longitudinal} where
//! the tunes are told apart by `x_tune` and `y_tune` (the fractional ones; the longitudinal mode is the
//! rest).
struct Partition {
    double x, y, e;
};
Partition map_partition(double k1, double edge, int harmonic, Ring const& r0)
{
    double const u0 = r0.integrals.u0_ev;
    double const volts = 2.0 * u0;
    double const beta = r0.lattice.reference_begin.beta;
    double const frequency = harmonic * beta * constants::c_light / r0.lattice.length;
    std::string const rf = fmt::format(
        "rf = {{ type = \"rfcavity\", voltage = {}, frequency = {}, phase = 60 }}", volts, frequency);
    Ring const r = ring_of(ring_deck(k1, rf, "mean", edge));
    std::array<std::array<double, 6>, 6> m{};
    fixed_point(r.lattice, Vec6{}, &m);
    double const e0 = r.lattice.reference_begin.total_energy_mev() * 1e6;
    // Per turn, |lambda_i| = exp(-J_i U0 / (2 E0)) (T0 = one turn). The modes are identified by their tunes
    // against those of the ring without RF (4D optics): the one nearest Q_x, the one nearest Q_y, the third.
    std::vector<std::pair<double, double>> modes;  // (fractional tune in [0, 0.5], J)
    for (auto const& l : eigenvalues(m))
        if (l.imag() > 0)
            modes.emplace_back(std::arg(l) / constants::two_pi, -std::log(std::abs(l)) * 2.0 * e0 / u0);
    REQUIRE(modes.size() == 3);
    optics::OpticsOptions o;
    o.periodic = true;
    optics::OpticsResult const res =
        optics::compute_optics(r0.deck, build_lattice(r0.deck, initial_reference(r0.deck), false), o);
    auto folded = [](double q) {
        double const f = q - std::floor(q);
        return std::min(f, 1.0 - f);
    };
    auto take = [&](double q) {
        std::size_t best = 0;
        for (std::size_t i = 1; i < modes.size(); ++i)
            if (std::abs(modes[i].first - q) < std::abs(modes[best].first - q)) best = i;
        double const j = modes[best].second;
        modes.erase(modes.begin() + static_cast<std::ptrdiff_t>(best));
        return j;
    };
    Partition p{};
    p.x = take(folded(res.tune_x));
    p.y = take(folded(res.tune_y));
    p.e = modes.front().second;
    return p;
}

TEST_CASE("radiation: damping of the three planes, tau_i = 2 E0 T0 / (J_i U0) from the radiation integrals")
{
    // The default exact bend without gradient (J_x = 0.66 with the edges' share), without edge angles, and
    // combined-function bends (k1 = -0.02).
    // (no structured binding: clang refuses one captured by INFO's lambda)
    for (std::pair<double, double> const& ring :
         {std::pair{0.0, 0.05}, std::pair{0.0, 0.0}, std::pair{-0.02, 0.05}}) {
        double const k1 = ring.first, edge = ring.second;
        Ring const r0 = ring_of(ring_deck(k1, "", "mean", edge));
        double const jx = 1.0 - r0.integrals.i4 / r0.integrals.i2,
                     je = 2.0 + r0.integrals.i4 / r0.integrals.i2;
        // A cavity of harmonic 4: the synchrotron tune is 0.014, far from the betatron tunes' fractional
        // parts (0.07-0.08 for x), so the modes do not exchange damping (see the next case).
        Partition const j = map_partition(k1, edge, 4, r0);
        INFO("k1 = " << k1 << ", e = " << edge << ": J from the map " << j.x << ", " << j.y << ", " << j.e
                     << "; from the integrals Jx " << jx << ", Jy 1, Je " << je);
        // Each partition number within 2e-3 of the integrals' (measured: 7e-4 at most): the map carries the
        // second-order terms of U0/E0 = 6e-4 (the closed orbit's energy sawtooth, hence its offset in the
        // quadrupoles, which radiate too) and the RF's adiabatic damping (|q| V sin(phi_s) / E0 per turn);
        // the loss along the bends is integrated by the maps (the exact arc's path, the split steps'
        // quadrature), the integrals by Simpson's rule on the first-order transport.
        CHECK(j.x == test::relative(jx, 2e-3));
        CHECK(j.y == test::relative(1.0, 2e-3));
        CHECK(j.e == test::relative(je, 2e-3));
        // Robinson's theorem: J_x + J_y + J_e = 4 (Sands eq. 5.xx).
        CHECK(j.x + j.y + j.e == test::relative(4.0, 1e-3));
        if (edge != 0.0) CHECK(std::abs(jx - 1.0) > 0.08);  // the I4 terms matter here
    }
}

TEST_CASE(
    "radiation: a cavity at a dispersive place with a synchrotron tune near Q_x moves damping between "
    "the x and longitudinal modes")
{
    // Harmonic 40 (Q_s = 0.045; Q_x = 1.929, so Q_x + Q_s = 1.974 lies 0.026 from the synchro-betatron
    // resonance Q_x + Q_s = 2) on the gradient ring: the cavity sits where D = 2.7 m, so the RF couples x to
    // the energy, and the eigen-modes mix. The map's J_x is then
    // 0.935 against 1 - I4/I2 = 0.916 (it was the "unresolved 2%" of issue 31's first notes); what x gains
    // the longitudinal mode loses, and Robinson's sum holds. MAD-X's EMIT shows the same exchange on this
    // ring (its J_x 0.886 at harmonic 40, 0.878 at harmonic 1 and 4, where its own integrals give 0.916:
    // EMIT's J_x is 0.037 below its integrals' on this ring with or without gradient, from the edges).
    Ring const r0 = ring_of(ring_deck(-0.02, "", "mean", 0.05));
    double const jx = 1.0 - r0.integrals.i4 / r0.integrals.i2, je = 2.0 + r0.integrals.i4 / r0.integrals.i2;
    Partition const j = map_partition(-0.02, 0.05, 40, r0);
    INFO("J from the map " << j.x << ", " << j.y << ", " << j.e << "; integrals " << jx << ", 1, " << je);
    CHECK(j.x - jx > 1e-2);                             // the exchange is there ...
    CHECK(j.x + j.e == test::relative(jx + je, 1e-3));  // ... between x and the energy only
    CHECK(j.y == test::relative(1.0, 2e-3));
}

TEST_CASE("radiation: every element type with radiation = \"mean\" tracks, validates and radiates")
{
    // The deck of the GPU comparison (tests/gpu/BeamTrackingTest.cc), 5 GeV electrons: the validation's two
    // CPU backends agree to the bit (the GPU check does the same against the GPU), and radiation lowers
    // the energy of every particle relative to the same deck without it by about the bends' loss.
    std::string const path = std::string(GTRACK_SOURCE_DIR) + "/tests/data/every_element.toml";
    std::vector<std::string> common = {"beam.macroparticles=2000", "beam.particle=\"electron\"",
                                       "beam.kinetic_energy=\"5 GeV\""};
    std::vector<std::string> with = common;
    with.push_back("lattice.radiation=\"mean\"");
    test::check_cpu_backends_agree(read_deck(path, with));
    // The energy comparison with the cavity at the zero crossing (with it off crest the deck without
    // radiation raises the reference and the pt of the two would not be comparable).
    common.push_back("elements.CAV.phase=-90");
    with.push_back("elements.CAV.phase=-90");
    DeckConfig const on = read_deck(path, with), off = read_deck(path, common);
    Lattice const l_on = build_lattice(on, initial_reference(on)),
                  l_off = build_lattice(off, initial_reference(off));
    auto track = [](DeckConfig const& deck, Lattice const& lattice) {
        auto kernels = make_cpu_beam_kernels();
        ParticleState state = initial_beam(deck, *kernels);
        kernels->set_elements(lattice.elements, *lattice.field_data);
        kernels->track(state.view(), 0, lattice.elements.size(), 0);
        return state;
    };
    ParticleState a = track(on, l_on), b = track(off, l_off);
    ParticleView const va = a.view(), vb = b.view();
    // Bends of 8, 3 and 4 degrees over 1.2, 0.8, 0.6 m three times: sum h^2 L = 0.0834 1/m; with
    // c_rad = (2/3) r_e (beta gamma)^3 = 1.76e-3 m at 5 GeV, d pt = 1.47e-4 per particle, plus the
    // quadrupoles', multipoles' and edges' small shares (x of a few mm): each survivor in 1.2e-4 ... 1.8e-4.
    int survivors = 0, radiated = 0;
    for (size_type i = 0; i < va.size; ++i) {
        if (!va.alive(i) || !vb.alive(i)) continue;
        ++survivors;
        double const d = va.pt[i] - vb.pt[i];
        radiated += d > 1.2e-4 && d < 1.8e-4;
    }
    CHECK(survivors > 20);  // the deck's apertures are for 800 MeV protons: ~4% of these electrons pass
    CHECK(radiated == survivors);
}

}  // namespace
}  // namespace gt
