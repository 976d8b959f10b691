// A beam through one slab, as the published multiple-scattering and backscattering measurements were
// made: the deck, the angles of the primaries leaving the slab, and the fraction of them coming back.
// The measurements themselves (typed in with their sources) are in SlabMeasurementsTest.cc.
//
// Geometry: the slab's front face at z = 0, a sensitive vacuum plane 1 mm behind its back face
// (volume 2: transmitted particles) and one 0.5 mm in front of its front face (volume 3: particles
// coming back), the gun 1 mm in front of the slab along +z.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <utility>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "CoreFit.hh"
#include "deck/DeckReader.hh"
#include "run/DetectorRun.hh"

namespace gt::test {

struct SlabBeam {
    char const* material;  //!< built-in material name
    double density;        //!< [g/cm^3] of that material (the measurement gives a mass thickness)
    double g_cm2;          //!< slab thickness [g/cm^2]
    char const* particle;  //!< gun particle
    double kinetic_mev;    //!< gun kinetic energy [MeV]
    int events;
    std::string physics;  //!< [physics] keys
};

inline double slab_thickness_m(SlabBeam const& b) { return b.g_cm2 / b.density * 1.0e-2; }

inline std::string slab_deck(SlabBeam const& b)
{
    double const t = slab_thickness_m(b);
    double const half_xy = std::max(0.4, 20.0 * t);  // wide enough that nothing leaves sideways
    return fmt::format(
        R"(
[run]
kind = "detector"
seed = 1993
track_slots = 4096
[geometry.world]
shape = "box"
half_size = [{world}, {world}, {world}]
material = "vacuum"
[[geometry.volume]]
name = "slab"
shape = "box"
half_size = [{hxy}, {hxy}, {half}]
position = [0, 0, {half}]
material = "{material}"
[[geometry.volume]]
name = "exit_plane"
shape = "box"
half_size = [{hxy}, {hxy}, 0.5e-6]
position = [0, 0, {exit_z}]
material = "vacuum"
sensitive = true
[[geometry.volume]]
name = "entry_plane"
shape = "box"
half_size = [{hxy}, {hxy}, 0.5e-6]
position = [0, 0, -0.5e-3]
material = "vacuum"
sensitive = true
[gun]
particle = "{particle}"
energy = "{energy} MeV"
events = {events}
position = [0, 0, -1.0e-3]
direction = [0, 0, 1]
[physics]
{physics}
)",
        fmt::arg("world", half_xy + 0.1 + t), fmt::arg("hxy", half_xy), fmt::arg("half", 0.5 * t),
        fmt::arg("material", b.material), fmt::arg("exit_z", t + 1.0e-3), fmt::arg("particle", b.particle),
        fmt::arg("energy", b.kinetic_mev), fmt::arg("events", b.events), fmt::arg("physics", b.physics));
}

//! What came out of the slab: the direction cosines of each primary's first hit behind it, and the
//! number of primaries that crossed the entry plane going backwards (-z).
struct SlabOutcome {
    std::vector<double> ux, uy, uz;  //!< transmitted primaries' directions
    std::uint64_t backscattered = 0;      //!< primaries crossing the entry plane going -z
    std::uint64_t backscattered_all = 0;  //!< every track crossing it going -z (a photon leaves no hit there)
    std::uint64_t events = 0;
};

inline SlabOutcome run_slab(SlabBeam const& b)
{
    DeckConfig const cfg = read_deck_text(slab_deck(b), "slab.toml", {"run.backend=cpu"});
    DetectorRunOptions opt;
    opt.write_output = false;
    opt.quiet = true;
    auto const r = run_detector_deck(cfg, opt);
    auto const n = static_cast<std::uint64_t>(b.events);
    SlabOutcome out;
    out.events = n;
    std::set<std::uint64_t> through, back;
    std::set<std::pair<std::uint64_t, std::uint64_t>> back_all;  // (event, track)
    for (auto const& h : r.hits) {
        if (h.volume == 3 && h.momentum.z < 0) back_all.insert({h.event, h.track});
        if (h.track >= n) continue;  // primaries only (track ids below the number of events)
        double const p = std::sqrt(h.momentum.x * h.momentum.x + h.momentum.y * h.momentum.y +
                                   h.momentum.z * h.momentum.z);
        if (!(p > 0)) continue;
        if (h.volume == 2 && through.insert(h.track).second) {
            out.ux.push_back(h.momentum.x / p);
            out.uy.push_back(h.momentum.y / p);
            out.uz.push_back(h.momentum.z / p);
        } else if (h.volume == 3 && h.momentum.z < 0 && back.insert(h.track).second) {
            ++out.backscattered;
        }
    }
    out.backscattered_all = back_all.size();
    return out;
}

//! theta_0 [rad] of the projected-angle distribution exp(-theta^2 / (2 theta_0^2)), both planes
//! pooled: a Gaussian fitted (least squares of ln n against theta^2, weighted by the counts n) to the
//! counts n in 12 equal bins of |theta| from 0 to w0 sqrt(2 ln 4) (the core, down to 1/4 of the
//! peak), w0 the width a Gaussian with the same median |theta| would have. The core is what Gottschalk
//! et al. fit; the single-scattering tail beyond it does not enter.
inline double projected_theta0(SlabOutcome const& o)
{
    std::vector<double> a;
    a.reserve(2 * o.ux.size());
    for (std::size_t i = 0; i < o.ux.size(); ++i) {
        a.push_back(std::abs(std::atan2(o.ux[i], o.uz[i])));
        a.push_back(std::abs(std::atan2(o.uy[i], o.uz[i])));
    }
    std::vector<double> sorted = a;
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
    double const w0 = sorted[sorted.size() / 2] / 0.67449;  // median |x| of a Gaussian = 0.67449 sigma
    double const top = w0 * std::sqrt(2.0 * std::log(4.0));
    double const slope = core_log_slope(a, top, true);
    return slope < 0 ? std::sqrt(-0.5 / slope) : 0.0;
}

//! theta_1/e [rad] of the distribution per solid angle (as HansonFoilSupport.hh's theta_1e).
inline std::vector<double> polar_angles(SlabOutcome const& o)
{
    std::vector<double> th;
    th.reserve(o.uz.size());
    for (double c : o.uz) th.push_back(std::acos(std::clamp(c, -1.0, 1.0)));
    return th;
}

}  // namespace gt::test
