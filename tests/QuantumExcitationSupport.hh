// Shared by QuantumExcitationTest and QuantumExcitationLongTest: inputs/light_source_ring.toml with
// `radiation = "quantum"`, its radiation integrals, a cold beam on the 6D closed orbit of the radiating map,
// and the beam's energy spread and horizontal emittance turn by turn.
#pragma once

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "beam/Lattice.hh"
#include "deck/DeckReader.hh"
#include "kernels/beam/BeamKernels.hh"
#include "kernels/elements/Element.hh"
#include "optics/Optics.hh"
#include "optics/RadiationIntegrals.hh"
#include "run/BeamRun.hh"

namespace gt::test {

struct QuantumRing {
    DeckConfig deck;
    Lattice lattice;  //!< with radiation = "quantum"
    Lattice mean;     //!< the same with radiation = "mean" (its closed orbit)
    optics::RadiationIntegrals integrals;
};

inline QuantumRing light_source_ring(std::vector<std::string> extra = {})
{
    QuantumRing r;
    std::string const path = std::string(GTRACK_SOURCE_DIR) + "/inputs/light_source_ring.toml";
    std::vector<std::string> mean = extra;
    mean.push_back("lattice.radiation=\"mean\"");
    extra.push_back("lattice.radiation=\"quantum\"");
    r.deck = read_deck(path, extra);
    DeckConfig const mean_deck = read_deck(path, mean);
    ReferenceParticle const ref = initial_reference(r.deck);
    r.lattice = build_lattice(r.deck, ref);
    r.mean = build_lattice(mean_deck, ref);
    Lattice const optics_lattice = build_lattice(r.deck, ref, false);
    optics::OpticsOptions o;
    o.periodic = true;
    optics::OpticsResult const res = optics::compute_optics(r.deck, optics_lattice, o);
    r.integrals = optics::radiation_integrals(r.deck, res, ref, &optics_lattice);
    return r;
}

using Vec6 = std::array<double, 6>;

//! The fixed point of the mean (deterministic) one-turn map with RF, by damped iteration: the radiation damps
//! every plane, so repeated turns converge to it (tau ~ 1500-3500 turns here; the Newton iteration of
//! SynchrotronRadiationTest is faster, but this needs no Jacobian and 1e-12 is not needed: the closed orbit
//! only keeps the centroid still, the spreads do not depend on it at first order).
inline Vec6 closed_orbit(Lattice const& mean, int turns = 20000)
{
    Particle p{0, 0, 0, 0, 0, 0};
    for (int n = 0; n < turns; ++n)
        for (Element const& e : mean.elements) REQUIRE(track_element(e, p));
    return Vec6{p.x, p.px, p.y, p.py, p.t, p.pt};
}

//! The beam's squared energy spread <pt^2> - <pt>^2 and its horizontal emittance with the dispersion removed
//! statistically: the (x, px) covariance minus its projection on pt (x_b = x - <x pt>/<pt^2> pt), so the
//! betatron emittance whatever D, D' are at the start.
struct Spreads {
    double var_pt = 0;
    double eps_x = 0;
    double eps_y = 0;
};

inline Spreads spreads(BeamMoments const& m)
{
    double const spt = m.cov[5][5];
    auto reduced = [&](int i, int j) {
        return m.cov[i][j] - (spt > 0.0 ? m.cov[i][5] * m.cov[j][5] / spt : 0.0);
    };
    Spreads s;
    s.var_pt = spt;
    double const xx = reduced(0, 0), xp = reduced(0, 1), pp = reduced(1, 1);
    s.eps_x = std::sqrt(std::max(0.0, xx * pp - xp * xp));
    double const yy = m.cov[2][2], yp = m.cov[2][3], qq = m.cov[3][3];
    s.eps_y = std::sqrt(std::max(0.0, yy * qq - yp * yp));
    return s;
}

using Mat6 = std::array<std::array<double, 6>, 6>;

//! The Jacobian of the mean map through entries [begin, n) of `mean` about `z` (centred differences, step
//! 1e-8: the map is smooth, its second-order terms give errors ~1e-8 relative).
inline Mat6 jacobian(Lattice const& mean, std::size_t begin, Vec6 const& z)
{
    auto track = [&](Vec6 v) {
        Particle p{v[0], v[1], v[2], v[3], v[4], v[5]};
        for (std::size_t i = begin; i < mean.elements.size(); ++i)
            REQUIRE(track_element(mean.elements[i], p));
        return Vec6{p.x, p.px, p.y, p.py, p.t, p.pt};
    };
    double const h = 1e-8;
    Mat6 m{};
    for (int j = 0; j < 6; ++j) {
        Vec6 a = z, b = z;
        a[j] += h;
        b[j] -= h;
        Vec6 const fa = track(a), fb = track(b);
        for (int i = 0; i < 6; ++i) m[i][j] = (fa[i] - fb[i]) / (2 * h);
    }
    return m;
}

//! The linear theory of a cold beam (Chao, J. Appl. Phys. 50 (1979) 595; Ohmi, Hirata, Oide, PRE 49 (1994)
//! 751): with M the one-turn map of the mean motion about the closed orbit z and B the covariance the photons
//! add per turn, carried to the end of the turn, the beam's covariance after t turns is
//! Sigma(t) = sum_{k<t} M^k B (M^k)^T (the equilibrium: t -> infinity). B from the photon-emitting entries on
//! the closed orbit, each entry's variance c_q (1/beta0 - pt)^7 (h/P)^3 L_e (bends; quadrupoles and
//! multipoles on the axis emit none) put half at its entrance and half at its exit (the trapezoidal rule over
//! the entry: slice the bends to make it fine) and carried by the Jacobians of the rest of the turn. This
//! holds every linear coupling of the map (the RF cavity's dispersion, here 2.7 m: synchro-betatron terms the
//! radiation integrals leave out), so the tracked beam must follow it within its statistics.
inline std::vector<Mat6> linear_covariance(Lattice const& quantum, Lattice const& mean, Vec6 const& z,
                                           std::vector<int> const& at_turns)
{
    std::size_t const n = mean.elements.size();
    std::vector<Vec6> orbit(n + 1);
    orbit[0] = z;
    {
        Particle p{z[0], z[1], z[2], z[3], z[4], z[5]};
        for (std::size_t i = 0; i < n; ++i) {
            REQUIRE(track_element(mean.elements[i], p));
            orbit[i + 1] = Vec6{p.x, p.px, p.y, p.py, p.t, p.pt};
        }
    }
    Mat6 b{};
    auto add = [&](std::size_t from, double variance) {
        Mat6 const t = from < n ? jacobian(mean, from, orbit[from]) : Mat6{};
        for (int i = 0; i < 6; ++i)
            for (int j = 0; j < 6; ++j)
                b[i][j] += variance * (from < n ? t[i][5] * t[j][5] : (i == 5 && j == 5 ? 1.0 : 0.0));
    };
    for (std::size_t i = 0; i < n; ++i) {
        Element const& e = quantum.elements[i];
        QuantumExcitation const* q = quantum_excitation(e);
        if (q == nullptr) continue;
        double h = 0, length = 0, inv_beta = 0;
        if (e.kind == ElementKind::exact_bend) {
            h = e.exact_bend.h, length = e.exact_bend.length, inv_beta = e.exact_bend.inv_beta;
        } else if (e.kind == ElementKind::sector_bend) {
            h = e.sector_bend.angle / e.sector_bend.length, length = e.sector_bend.length;
            inv_beta = e.sector_bend.inv_beta;
        } else {
            continue;
        }
        double const pt = orbit[i][5], energy = inv_beta - pt;
        double const pn = std::sqrt(1.0 - 2.0 * pt * inv_beta + pt * pt);
        double const variance = q->c_q * std::pow(energy, 7) * std::pow(std::abs(h) / pn, 3) * length;
        add(i, 0.5 * variance);
        add(i + 1, 0.5 * variance);
    }
    Mat6 const m = jacobian(mean, 0, z);
    std::vector<Mat6> out;
    Mat6 sigma{};
    int turn = 0;
    for (int target : at_turns) {
        for (; turn < target; ++turn) {  // Sigma <- M Sigma M^T + B
            Mat6 ms{}, next{};
            for (int i = 0; i < 6; ++i)
                for (int j = 0; j < 6; ++j)
                    for (int k = 0; k < 6; ++k) ms[i][j] += m[i][k] * sigma[k][j];
            for (int i = 0; i < 6; ++i)
                for (int j = 0; j < 6; ++j) {
                    for (int k = 0; k < 6; ++k) next[i][j] += ms[i][k] * m[j][k];
                    next[i][j] += b[i][j];
                }
            sigma = next;
        }
        out.push_back(sigma);
    }
    return out;
}

//! spreads() of a covariance matrix.
inline Spreads spreads(Mat6 const& c)
{
    BeamMoments m;
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j) m.cov[i][j] = c[i][j];
    return spreads(m);
}

//! A beam of the deck's macroparticles (ids 0 ... n-1) all at `z` (cold).
inline ParticleState cold_beam(DeckConfig const& deck, BeamKernels& kernels, Vec6 const& z)
{
    ParticleState state = initial_beam(deck, kernels);
    ParticleView const v = state.view();
    for (size_type i = 0; i < v.size; ++i) {
        v.x[i] = z[0];
        v.px[i] = z[1];
        v.y[i] = z[2];
        v.py[i] = z[3];
        v.t[i] = z[4];
        v.pt[i] = z[5];
    }
    return state;
}

}  // namespace gt::test
