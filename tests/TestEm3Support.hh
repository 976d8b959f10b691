// Geant4's TestEm3 benchmark with gtrack (inputs/testem3.toml: 50 layers of 2.3 mm lead and 5.7 mm
// liquid argon, 1 GeV electrons, 1 mm production cuts), for tests/TestEm3Test.cc (100 events, CI)
// and tests/TestEm3LongTest.cc (1000 events, label "long"): the energy per event in the lead and in
// the argon and the sampling resolution, against Geant4's reference output.
//
// Reference: Geant4 10.3 (geant4-10-03-ref-06), examples/extended/electromagnetic/TestEm3/TestEm3.out,
// physics list emstandard_opt0, 100 e- of 1 GeV: its first run, the analog one (the file's second run,
// 777.73 / 211.94 MeV and 7.26%, which the issue quotes, has secondary biasing on, which changes the
// fluctuations): lead 781.04 MeV (rms 16.68), liquid argon 209.27 MeV (rms 15.56), sqrt(E0/GeV)
// rms/mean in the argon 7.436%. With 100 events those means carry rms/sqrt(100) = 1.67 and 1.56 MeV
// of statistical error and the resolution about 1/sqrt(2 x 100) = 7% (relative).
//
// The tolerances are the targets (2% for the energies, 10% for the resolution) widened by
// the statistical error of the difference (ours and Geant4's, in quadrature) times k: k = 3 for the
// 100 events of CI (a 3-sigma band: a real shift of the old model's size, +10% in the argon, is
// caught; chance failures are 0.3%), k = 2 for the 1000 events of the long test. Errors: the mean's
// is rms/sqrt(N), the resolution's the jackknife over events.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "Relative.hh"
#include "deck/DeckReader.hh"
#include "run/DetectorRun.hh"

namespace gt::testem3 {

struct Geant4Reference {
    double pb = 781.04, pb_rms = 16.68, ar = 209.27, ar_rms = 15.56, resolution = 7.436;  // [MeV], [%]
    double events = 100;
};

struct Measured {
    double pb = 0, pb_err = 0, ar = 0, ar_err = 0, resolution = 0, resolution_err = 0;
};

inline double mean_of(std::vector<double> const& v)
{
    double s = 0;
    for (double x : v) s += x;
    return s / static_cast<double>(v.size());
}

inline double rms_of(std::vector<double> const& v)
{
    double const m = mean_of(v);
    double s = 0;
    for (double x : v) s += (x - m) * (x - m);
    return std::sqrt(s / static_cast<double>(v.size() - 1));
}

//! Runs `events` electrons of 1 GeV through inputs/testem3.toml and measures the per-event energies.
inline Measured run_testem3(int events)
{
    std::vector<std::string> const overrides = {"run.backend=cpu", "gun.events=" + std::to_string(events)};
    DeckConfig const cfg = read_deck(std::string(GTRACK_SOURCE_DIR) + "/inputs/testem3.toml", overrides);
    DetectorRunOptions opt;
    opt.write_output = false;
    opt.quiet = true;
    DetectorRunResult const r = run_detector_deck(cfg, opt);
    // logical volumes: 1 calorimeter, 2 layer, 3 lead, 4 argon (the deck's order)
    std::vector<double> pb(events, 0.0), ar(events, 0.0);
    for (Hit const& h : r.hits) {
        if (h.volume == 3) pb[h.event] += h.edep;
        if (h.volume == 4) ar[h.event] += h.edep;
    }
    // the hits hold every deposit of the two volumes (each tally sums the same deposits)
    double pb_sum = 0, ar_sum = 0;
    for (int e = 0; e < events; ++e) {
        pb_sum += pb[e];
        ar_sum += ar[e];
    }
    CHECK(pb_sum == test::relative(r.tallies[3], 1e-9));
    CHECK(ar_sum == test::relative(r.tallies[4], 1e-9));
    Measured m;
    double const n = events;
    m.pb = mean_of(pb);
    m.pb_err = rms_of(pb) / std::sqrt(n);
    m.ar = mean_of(ar);
    m.ar_err = rms_of(ar) / std::sqrt(n);
    auto resolution = [](std::vector<double> const& v) {
        return 100.0 * rms_of(v) / mean_of(v);
    };  // E0 = 1 GeV
    m.resolution = resolution(ar);
    // jackknife over events
    std::vector<double> loo(events);
    for (int e = 0; e < events; ++e) {
        std::vector<double> v = ar;
        v.erase(v.begin() + e);
        loo[e] = resolution(v);
    }
    double const lm = mean_of(loo);
    double s = 0;
    for (double x : loo) s += (x - lm) * (x - lm);
    m.resolution_err = std::sqrt((n - 1) / n * s);
    return m;
}

//! Checks the measurement against Geant4 within the targets widened by k statistical errors.
inline void check_against_geant4(Measured const& m, double k)
{
    Geant4Reference const g;
    double const g_pb_err = g.pb_rms / std::sqrt(g.events), g_ar_err = g.ar_rms / std::sqrt(g.events);
    double const g_res_err = g.resolution / std::sqrt(2.0 * g.events);
    double const pb_tol = 0.02 * g.pb + k * std::hypot(m.pb_err, g_pb_err);
    double const ar_tol = 0.02 * g.ar + k * std::hypot(m.ar_err, g_ar_err);
    double const res_tol = 0.10 * g.resolution + k * std::hypot(m.resolution_err, g_res_err);
    MESSAGE("TestEm3 1 GeV: lead " << m.pb << " +- " << m.pb_err << " MeV (Geant4 " << g.pb << "), argon "
                                   << m.ar << " +- " << m.ar_err << " MeV (Geant4 " << g.ar
                                   << "), resolution " << m.resolution << " +- " << m.resolution_err
                                   << " % (Geant4 " << g.resolution << ")");
    CHECK(std::fabs(m.pb - g.pb) < pb_tol);
    CHECK(std::fabs(m.ar - g.ar) < ar_tol);
    CHECK(std::fabs(m.resolution - g.resolution) < res_tol);
}

}  // namespace gt::testem3
