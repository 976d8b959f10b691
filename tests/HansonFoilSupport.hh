// Hanson et al.'s gold-foil measurement as a detector deck, and the width theta_1/e of the angular
// distribution per solid angle that they measured.
//
// A. O. Hanson, L. H. Lanzl, E. M. Lyman and M. B. Scott, "Measurement of multiple scattering of
// 15.7-Mev electrons", Phys. Rev. 84 (1951) 634, Table I: 15.7 MeV electrons through gold foils of
// 18.66 mg/cm^2 (theta_1/e = 2.58 degrees) and 37.28 mg/cm^2 (3.76 degrees); theta_1/e is the angle at
// which the distribution per unit solid angle has fallen to 1/e of its value in the forward direction.
#pragma once

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "CoreFit.hh"
#include "deck/DeckReader.hh"
#include "run/DetectorRun.hh"

namespace gt::test {

struct HansonFoil {
    double mg_cm2;       //!< foil thickness [mg/cm^2]
    double theta_1e_deg;  //!< measured theta_1/e [degrees]
};
inline constexpr HansonFoil k_hanson_foils[] = {{18.66, 2.58}, {37.28, 3.76}};
inline constexpr double k_gold_density = 19.32;  // g/cm^3 (the foil's thickness is its mass per area)

//! The deck: a gold foil at z = 0, a sensitive vacuum plane 1 mm behind it, 15.7 MeV e- along +z.
//! steps: the foil is crossed in at most this many steps (max_step = thickness / steps; 1: no limit).
inline std::string hanson_deck(double mg_cm2, int events, bool showers, char const* model, int steps)
{
    double const t = mg_cm2 * 1.0e-3 / k_gold_density * 1.0e-2;  // [m]
    std::string physics = fmt::format("msc_model = \"{}\"\n", model);
    if (showers) physics += "showers = true\nrange_cut = \"10 um\"\n";
    if (steps > 1) physics += fmt::format("max_step = {}\n", t / steps);
    return fmt::format(R"(
[run]
kind = "detector"
seed = 1951
track_slots = 4096
[materials.gold]
density = "{density} g/cm3"
elements = {{ Au = 1.0 }}
[geometry.world]
shape = "box"
half_size = [0.5, 0.5, 0.5]
material = "vacuum"
[[geometry.volume]]
name = "foil"
shape = "box"
half_size = [0.4, 0.4, {half}]
material = "gold"
[[geometry.volume]]
name = "plane"
shape = "box"
half_size = [0.4, 0.4, 0.5e-6]
position = [0, 0, 1.0e-3]
material = "vacuum"
sensitive = true
[gun]
particle = "e-"
energy = "15.7 MeV"
events = {events}
position = [0, 0, -1.0e-3]
direction = [0, 0, 1]
[physics]
{physics})",
                       fmt::arg("density", k_gold_density), fmt::arg("half", 0.5 * t),
                       fmt::arg("events", events), fmt::arg("physics", physics));
}

//! The polar angles [rad] of the primaries' first steps in the plane (volume id 2).
inline std::vector<double> hanson_angles(std::string const& deck, std::uint64_t events)
{
    DeckConfig const cfg = read_deck_text(deck, "hanson.toml", {"run.backend=cpu"});
    DetectorRunOptions opt;
    opt.write_output = false;
    opt.quiet = true;
    auto const r = run_detector_deck(cfg, opt);
    std::set<std::uint64_t> seen;
    std::vector<double> theta;
    for (auto const& h : r.hits) {
        if (h.volume != 2 || h.track >= events || !seen.insert(h.track).second) continue;
        double const p = std::sqrt(h.momentum.x * h.momentum.x + h.momentum.y * h.momentum.y +
                                   h.momentum.z * h.momentum.z);
        theta.push_back(std::acos(std::clamp(h.momentum.z / p, -1.0, 1.0)));
    }
    return theta;
}

//! theta_1/e [rad] of the distribution per solid angle: an exponential exp(-v / w^2) fitted (least
//! squares in ln n, weighted by the counts n) to the counts in 12 equal bins of v = 2 (1 - cos theta)
//! (dOmega = pi dv, v = theta^2 to 1e-3 here) from 0 to w0^2, w0^2 = median(v) / ln 2 (the width
//! of a pure exponential); the fitted range is the core, where the distribution falls from its forward
//! value to 1/e of it, as Hanson et al. read theta_1/e.
inline double theta_1e(std::vector<double> const& theta)
{
    std::vector<double> v;
    v.reserve(theta.size());
    for (double th : theta) v.push_back(2.0 * (1.0 - std::cos(th)));
    std::vector<double> sorted = v;
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
    double const w0sq = sorted[sorted.size() / 2] / std::log(2.0);
    double const slope = core_log_slope(v, w0sq, false);
    return slope < 0 ? std::sqrt(-1.0 / slope) : 0.0;
}

}  // namespace gt::test
