// Geant4's TestEm2 benchmark with gtrack (inputs/testem2.toml: a PbWO4 cylinder 20 X0 long, 5 X0 in
// radius, 5 GeV electrons, 1 mm cuts), for tests/TestEm2Test.cc (CI, fewer events) and
// tests/TestEm2LongTest.cc (label "long"): the energy deposited, the charged and neutral track
// lengths, the longitudinal and radial profiles and the 90% containment radius, each measured as
// TestEm2 measures it, against Geant4's reference output kept unchanged in
// tests/data/geant4_testem2/TestEm2.out (Geant4 11.4.0, emstandard_opt0, 100 events; origin and
// licence in that folder's README.md), which this file parses.
//
// TestEm2's definitions (its Run.cc, SteppingAction.cc, TrackingAction.cc): every step with a deposit
// puts it at a uniformly random point of the step (here: spread evenly over k_spread points of the
// step, the same expectation without the noise); slices of 0.5 X0 and rings of 0.1 X0 with Geant4's X0
// of G4_PbWO4 (8.92455 mm, from the absorber's 17.8491 cm = 20 X0); percentages of E0 = T + m_e c^2;
// track lengths are true path lengths summed per event over charged and over neutral tracks, in X0;
// "90% confinement" is the radius where the cumulative radial profile reaches 90% of E0 (not of the
// deposit), found by Run::EndOfRun's interpolation (reproduced in containment_radius). The "+-" that
// TestEm2 prints is the rms over events, so Geant4's statistical error of a mean is rms/sqrt(100).
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "deck/DeckReader.hh"
#include "kernels/detector/EventTrackLength.hh"
#include "kernels/physics/ParticleType.hh"
#include "run/DetectorRun.hh"

namespace gt::testem2 {

constexpr int k_slices = 40;  //!< 0.5 X0 each
constexpr int k_rings = 50;   //!< 0.1 X0 each
constexpr int k_spread = 8;   //!< points a step's deposit is spread over

//! What TestEm2 prints (and what we measure the same way): means and rms over events.
struct TestEm2Numbers {
    double x0 = 0;                             //!< [m] Geant4's X0 of the material
    double edep = 0, edep_rms = 0;             //!< [% E0]
    double charged = 0, charged_rms = 0;       //!< [X0] per event
    double neutral = 0, neutral_rms = 0;       //!< [X0] per event
    double r90 = 0;                            //!< [X0]
    std::vector<double> longit, longit_cumul;  //!< [% E0] per slice, cumulative
    std::vector<double> longit_cumul_rms;      //!< [% E0]
    std::vector<double> radial, radial_cumul;  //!< [% E0] per ring, cumulative
    std::vector<double> radial_cumul_rms;      //!< [% E0]
    double events = 0;
};

//! Parses TestEm2.out (Geant4 11.4.0's printout: the absorber line, the profiles, the summary).
inline TestEm2Numbers read_geant4_output(std::string const& path)
{
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    TestEm2Numbers g;
    std::string line;
    int table = 0;  // 1 longitudinal, 2 radial
    while (std::getline(in, line)) {
        double a = 0, b = 0, m = 0, rms = 0, c = 0, cm = 0, crms = 0;
        if (line.find("LOGITUDINAL PROFILE") != std::string::npos) table = 1;
        if (line.find("RADIAL PROFILE") != std::string::npos) table = 2;
        if (std::sscanf(line.c_str(), " Absorber is %lf cm", &a) == 1) g.x0 = a / 100.0 / 20.0;
        if (std::sscanf(line.c_str(), " Total number of events: %lf", &a) == 1) g.events = a;
        if (std::sscanf(line.c_str(), " energy deposit : %lf %% E0 +- %lf", &a, &b) == 2)
            g.edep = a, g.edep_rms = b;
        if (std::sscanf(line.c_str(), " charged traklen: %lf radl +- %lf", &a, &b) == 2)
            g.charged = a, g.charged_rms = b;
        if (std::sscanf(line.c_str(), " neutral traklen: %lf radl +- %lf", &a, &b) == 2)
            g.neutral = a, g.neutral_rms = b;
        if (std::sscanf(line.c_str(), " %lf %% confinement: radius = %lf radl", &a, &b) == 2) g.r90 = b;
        if (table > 0 && std::sscanf(line.c_str(), " %lf-> %lf radl: %lf%% %lf%% 0-> %lf radl: %lf%% %lf%%",
                                     &a, &b, &m, &rms, &c, &cm, &crms) == 7) {
            (table == 1 ? g.longit : g.radial).push_back(m);
            (table == 1 ? g.longit_cumul : g.radial_cumul).push_back(cm);
            (table == 1 ? g.longit_cumul_rms : g.radial_cumul_rms).push_back(crms);
        }
    }
    return g;
}

inline TestEm2Numbers geant4_reference()
{
    return read_geant4_output(std::string(GTRACK_SOURCE_DIR) + "/tests/data/geant4_testem2/TestEm2.out");
}

//! TestEm2's Run::EndOfRun: the first ring whose cumulative sum reaches 90% of E0, moved back by the
//! slope of the next ring ((90 - C[i]) / (C[i+1] - C[i]) <= 0). In rings of 0.1 X0 -> [X0].
inline double containment_radius(std::vector<double> const& cumul, double ring)
{
    int const n = static_cast<int>(cumul.size());
    if (cumul[0] > 90.0 || cumul[n - 1] < 90.0) return 0;
    int i = 0;
    while (i < n - 1 && cumul[i] < 90.0) ++i;
    double const del = i + 1 < n ? cumul[i + 1] - cumul[i] : 0.0;
    double const ratio = del > 0 ? (90.0 - cumul[i]) / del : 0.0;
    return (1.0 + i + ratio) * ring;
}

//! One event's deposits per slice and ring [MeV] and its track lengths [m].
struct EventScore {
    std::vector<double> longit = std::vector<double>(k_slices, 0.0);
    std::vector<double> radial = std::vector<double>(k_rings, 0.0);
    double charged = 0, neutral = 0;
};

//! Runs `events` electrons of inputs/testem2.toml in chunks of `chunk` events (each its own seed, so that
//! a chunk's hits are all that sit in memory at once), plus any deck overrides (studies).
inline std::vector<EventScore> run_testem2(int events, int chunk, double x0,
                                           std::vector<std::string> const& extra = {})
{
    std::vector<EventScore> out;
    double const half_length = 10.0 * x0, slice = 0.5 * x0, ring = 0.1 * x0;
    for (int first = 0, seed = 5; first < events; first += chunk, ++seed) {
        int const n = std::min(chunk, events - first);
        std::vector<std::string> overrides = {"run.backend=cpu", "gun.events=" + std::to_string(n),
                                              "run.seed=" + std::to_string(seed)};
        overrides.insert(overrides.end(), extra.begin(), extra.end());
        DeckConfig const cfg = read_deck(std::string(GTRACK_SOURCE_DIR) + "/inputs/testem2.toml", overrides);
        DetectorRunOptions opt;
        opt.write_output = false;
        opt.quiet = true;
        opt.track_lengths = true;
        DetectorRunResult const r = run_detector_deck(cfg, opt);
        std::vector<EventScore> scores(n);
        for (Hit const& h : r.hits) {
            EventScore& e = scores.at(h.event);
            for (int k = 0; k < k_spread; ++k) {
                double const f = (k + 0.5) / k_spread;
                double const x = h.pre.x + f * (h.post.x - h.pre.x), y = h.pre.y + f * (h.post.y - h.pre.y);
                double const z = h.pre.z + f * (h.post.z - h.pre.z);
                int const s = static_cast<int>((z + half_length) / slice);
                int const q = static_cast<int>(std::sqrt(x * x + y * y) / ring);
                double const d = h.edep / k_spread;
                e.longit[std::clamp(s, 0, k_slices - 1)] += d;
                e.radial[std::clamp(q, 0, k_rings - 1)] += d;
            }
        }
        REQUIRE(r.event_track_length.size() == static_cast<std::size_t>(n) * k_num_length_categories);
        for (int e = 0; e < n; ++e) {
            scores[e].charged = r.event_track_length[e * k_num_length_categories + k_length_charged];
            scores[e].neutral = r.event_track_length[e * k_num_length_categories + k_length_neutral];
        }
        out.insert(out.end(), scores.begin(), scores.end());
    }
    return out;
}

//! Mean and rms over events of v(event).
template <class F>
std::pair<double, double> mean_rms(std::vector<EventScore> const& ev, F const& v)
{
    double s = 0, s2 = 0;
    for (EventScore const& e : ev) {
        double const x = v(e);
        s += x;
        s2 += x * x;
    }
    double const n = static_cast<double>(ev.size());
    double const m = s / n;
    return {m, std::sqrt(std::max(0.0, s2 / n - m * m))};
}

//! TestEm2's numbers of gtrack's events (E0 = kinetic energy + m_e c^2, as TestEm2 normalizes).
inline TestEm2Numbers summarize(std::vector<EventScore> const& ev, double e0, double x0)
{
    TestEm2Numbers m;
    m.x0 = x0;
    m.events = static_cast<double>(ev.size());
    double const pc = 100.0 / e0;
    auto const sum_of = [](std::vector<double> const& v, int upto) {
        double s = 0;
        for (int i = 0; i <= upto; ++i) s += v[i];
        return s;
    };
    for (int i = 0; i < k_slices; ++i) {
        m.longit.push_back(pc * mean_rms(ev, [&](EventScore const& e) { return e.longit[i]; }).first);
        auto const c = mean_rms(ev, [&](EventScore const& e) { return sum_of(e.longit, i); });
        m.longit_cumul.push_back(pc * c.first);
        m.longit_cumul_rms.push_back(pc * c.second);
    }
    for (int i = 0; i < k_rings; ++i) {
        m.radial.push_back(pc * mean_rms(ev, [&](EventScore const& e) { return e.radial[i]; }).first);
        auto const c = mean_rms(ev, [&](EventScore const& e) { return sum_of(e.radial, i); });
        m.radial_cumul.push_back(pc * c.first);
        m.radial_cumul_rms.push_back(pc * c.second);
    }
    m.edep = m.longit_cumul.back();
    m.edep_rms = m.longit_cumul_rms.back();
    auto const ch = mean_rms(ev, [](EventScore const& e) { return e.charged; });
    auto const ne = mean_rms(ev, [](EventScore const& e) { return e.neutral; });
    m.charged = ch.first / x0;
    m.charged_rms = ch.second / x0;
    m.neutral = ne.first / x0;
    m.neutral_rms = ne.second / x0;
    m.r90 = containment_radius(m.radial_cumul, 0.1);
    return m;
}

//! r90's statistical error by the jackknife over events [X0].
inline double r90_error(std::vector<EventScore> const& ev, double e0, double x0)
{
    int const n = static_cast<int>(ev.size());
    std::vector<double> loo(n);
    double mean = 0;
    for (int k = 0; k < n; ++k) {
        std::vector<EventScore> v = ev;
        v.erase(v.begin() + k);
        loo[k] = summarize(v, e0, x0).r90;
        mean += loo[k] / n;
    }
    double s = 0;
    for (double x : loo) s += (x - mean) * (x - mean);
    return std::sqrt((n - 1.0) / n * s);
}

inline void print(char const* who, TestEm2Numbers const& m, double r90_err = 0)
{
    std::printf(
        "TestEm2 %s (%g events): energy deposit %.2f %% E0 (rms %.2f), charged traklen %.2f X0 (rms %.2f), "
        "neutral traklen %.1f X0 (rms %.1f), r90 %.3f X0 (+- %.3f); containment at 5/10/15 X0 %.2f/%.2f/%.2f "
        "%%, within 0.5/1/2 X0 %.2f/%.2f/%.2f %%\n",
        who, m.events, m.edep, m.edep_rms, m.charged, m.charged_rms, m.neutral, m.neutral_rms, m.r90, r90_err,
        m.longit_cumul[9], m.longit_cumul[19], m.longit_cumul[29], m.radial_cumul[4], m.radial_cumul[9],
        m.radial_cumul[19]);
}

//! Model tolerances: how far gtrack may lie from Geant4 beyond the statistics (docs/physics.md, TestEm2).
//! Absolute in % of E0 for the energies, relative for track lengths and r90. The scale is Geant4's own
//! spread: the same macro's reference outputs of Geant4 9.6 to 11.4 (emstandard_opt0, 100 events each,
//! in the Geant4 repository's history) range over 94.85-95.18 % E0 deposited (0.33), 481.6-485.4 X0
//! charged (0.8%), 4180-4234 X0 neutral (1.3%) and r90 2.84-2.98 X0 (4.8%); those of 10.7 to 11.4 (which
//! print the profiles) over 54.3-55.4 % within 0.5 X0, 71.5-72.4 within 1 X0, 84.4-85.2 within 2 X0,
//! and 25.7-30.1 / 73.0-76.4 / 90.8-91.9 % within 5 / 10 / 15 X0 of depth (mostly their statistics).
//! Two tolerances are wider than that spread, for differences we measured and did not remove (each
//! with its error in docs/physics.md): the neutral track length is 2-3% longer than Geant4's, and the
//! shower core holds 1.5% of E0 less within 0.5 X0.
struct Tolerances {
    double edep = 0.5;      //!< [% E0]: Geant4's version spread 0.33
    double longit = 1.0;    //!< [% E0]: containment at a depth (statistics dominate Geant4's spread)
    double radial = 1.5;    //!< [% E0]: Geant4's spread 1.1; measured -1.5 within 0.5 X0
    double charged = 0.01;  //!< Geant4's spread 0.8%
    double neutral = 0.03;  //!< Geant4's spread 1.3%; measured +2.8% (200 events)
    double r90 = 0.05;      //!< Geant4's spread 4.8%
};

//! Checks gtrack's events against Geant4's output within the model tolerances widened by k statistical
//! errors of the difference (Geant4's 100 events and ours, in quadrature). Geant4 prints no error of
//! its r90: it is taken as ours scaled to its 100 events (the same estimator of the same kind of showers).
inline void check_against_geant4(std::vector<EventScore> const& ev, Tolerances const& tol, double k)
{
    TestEm2Numbers const g = geant4_reference();
    REQUIRE(g.longit_cumul.size() == static_cast<std::size_t>(k_slices));
    REQUIRE(g.radial_cumul.size() == static_cast<std::size_t>(k_rings));
    double const e0 = 5000.0 + constants::electron_mass_mev;
    TestEm2Numbers const m = summarize(ev, e0, g.x0);
    double const r90_err = r90_error(ev, e0, g.x0);
    print("Geant4 11.4", g);
    print("gtrack", m, r90_err);
    double const n = m.events, ng = g.events;
    auto const stat = [&](double rms_ours, double rms_g4) {
        return std::hypot(rms_ours / std::sqrt(n), rms_g4 / std::sqrt(ng));
    };
    CHECK(std::fabs(m.edep - g.edep) < tol.edep + k * stat(m.edep_rms, g.edep_rms));
    CHECK(std::fabs(m.charged / g.charged - 1) <
          tol.charged + k * stat(m.charged_rms, g.charged_rms) / g.charged);
    CHECK(std::fabs(m.neutral / g.neutral - 1) <
          tol.neutral + k * stat(m.neutral_rms, g.neutral_rms) / g.neutral);
    CHECK(std::fabs(m.r90 / g.r90 - 1) < tol.r90 + k * r90_err * std::sqrt(1 + n / ng) / g.r90);
    // the profiles: containment at 5, 10 and 15 X0 deep; within 0.5, 1 and 2 X0 of the axis
    for (int i : {9, 19, 29}) {
        CAPTURE(i);
        CHECK(std::fabs(m.longit_cumul[i] - g.longit_cumul[i]) <
              tol.longit + k * stat(m.longit_cumul_rms[i], g.longit_cumul_rms[i]));
    }
    for (int i : {4, 9, 19}) {
        CAPTURE(i);
        CHECK(std::fabs(m.radial_cumul[i] - g.radial_cumul[i]) <
              tol.radial + k * stat(m.radial_cumul_rms[i], g.radial_cumul_rms[i]));
    }
}

}  // namespace gt::testem2
