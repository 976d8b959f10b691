// field.tabulate: the finite solenoid tabulated on an (r, z) grid against the exact field (the
// bilinear interpolation bound), and the effect on tracks through inputs/tracker.toml.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "deck/DeckReader.hh"
#include "run/DetectorRun.hh"
#include "detector/TabulatedField.hh"
#include "kernels/core/RandomStream.hh"

using namespace gt;

namespace {

// inputs/tracker.toml's coil and world
SolenoidField const k_coil{2.33, 1.2, 2.0, {0, 0, 0}};
double const k_world[3] = {1.5, 1.5, 2.5};
double const k_spacing = 5e-3;
// the region the accuracy is stated for: inside the coil, away from the sheet and its ends
double const k_r_max = 1.1, k_z_max = 1.7;

//! (Br, Bz) of the exact field at (r, z).
void exact(double r, double z, double& br, double& bz)
{
    Vec3 const b = k_coil(Vec3{r, 0, z});
    br = b.x;
    bz = b.z;
}

}  // namespace

TEST_CASE("the tabulated solenoid is within the bilinear interpolation bound of the exact field")
{
    std::vector<double> values;
    RzFieldMap map = tabulate_solenoid(k_coil, k_world, k_spacing, values);
    map.values = values.data();
    // the sheet on a node column, the grid beyond the world's corners
    CHECK(std::fabs(k_coil.radius / map.dr - std::round(k_coil.radius / map.dr)) < 1e-9);
    CHECK(map.dr <= k_spacing);
    CHECK(map.dz <= k_spacing);
    CHECK((map.nr - 1) * map.dr > std::sqrt(2.0) * 1.5);
    CHECK(map.z_lo < -2.5);
    CHECK(map.z_lo + (map.nz - 1) * map.dz > 2.5);

    // The error of bilinear interpolation on a dr x dz cell is at most
    // dr^2/8 max|d2B/dr2| + dz^2/8 max|d2B/dz2| (the tensor product of two linear interpolants, each
    // erring by h^2/8 max|f''|). The second derivatives are the exact field's, by central
    // differences with step 2 mm over the region on a 1 cm lattice; the field varies on the scale of
    // the coil (~1 m), so the lattice's maximum is the region's to a few percent: 25% margin.
    double m_rr = 0, m_zz = 0;
    double const d = 2e-3;
    for (double r = d; r <= k_r_max; r += 0.01) {
        for (double z = -k_z_max; z <= k_z_max; z += 0.01) {
            double br[3], bz[3], cr[3], cz[3];
            for (int k = 0; k < 3; ++k) {
                exact(r + (k - 1) * d, z, br[k], bz[k]);
                exact(r, z + (k - 1) * d, cr[k], cz[k]);
            }
            m_rr = std::max({m_rr, std::fabs(br[0] - 2 * br[1] + br[2]) / (d * d),
                             std::fabs(bz[0] - 2 * bz[1] + bz[2]) / (d * d)});
            m_zz = std::max({m_zz, std::fabs(cr[0] - 2 * cr[1] + cr[2]) / (d * d),
                             std::fabs(cz[0] - 2 * cz[1] + cz[2]) / (d * d)});
        }
    }
    double const bound = 1.25 * (map.dr * map.dr / 8 * m_rr + map.dz * map.dz / 8 * m_zz);
    // random points of the region, in Cartesian form (the map turns Br into Bx, By)
    RandomStream rng(12, 0, 0);
    double worst = 0;
    for (int n = 0; n < 200000; ++n) {
        double const r = k_r_max * std::sqrt(rng.uniform());
        double const phi = 2 * constants::pi * rng.uniform();
        double const z = k_z_max * (2 * rng.uniform() - 1);
        Vec3 const p{r * std::cos(phi), r * std::sin(phi), z};
        Vec3 const e = k_coil(p), t = map(p);
        worst = std::max(worst, norm(t - e));
    }
    MESSAGE("tabulated at 5 mm: max |B - B_exact| = " << worst << " T (bound " << bound << " T, |B| ~ "
                                                      << k_coil(Vec3{0, 0, 0}).z << " T)");
    CHECK(worst <= bound);
    CHECK(worst > 0);  // it does interpolate
    // outside the grid the map is zero: the grid must reach every corner of the world
    CHECK(norm(map(Vec3{1.5, 1.5, 2.5})) > 0);
}

TEST_CASE("a grid beyond the node limit is refused, naming the key")
{
    std::vector<double> values;
    CHECK_THROWS_WITH_AS(tabulate_solenoid(k_coil, k_world, 1e-5, values),
                         doctest::Contains("field.tabulate"), std::invalid_argument);
}

TEST_CASE("muons through the tracker: hits with the tabulated field within the field error's bound")
{
    // no energy loss and no scattering: the hits are where the helix meets each layer. Fixed
    // directions, clear of the layers' ends.
    std::string const deck = std::string(GTRACK_SOURCE_DIR) + "/inputs/tracker.toml";
    std::vector<std::string> set = {"run.backend=cpu",
                                    "gun.events=6",
                                    "gun.per_event=1",
                                    "physics.energy_loss=false",
                                    "physics.multiple_scattering=false",
                                    "gun.direction=[1, 0.3, 0.2]"};
    DetectorRunOptions opt;
    opt.write_output = false;
    opt.quiet = true;
    DetectorRunResult const a = run_detector_deck(read_deck(deck, set), opt);
    set.push_back("field.tabulate=\"5 mm\"");
    DetectorRunResult const b = run_detector_deck(read_deck(deck, set), opt);
    // 9 layers (5 pixel, 4 strip), one hit each per muon
    REQUIRE(a.hits.size() == 6 * 9);
    REQUIRE(b.hits.size() == a.hits.size());
    // The offset of a track from a field error dB over a path L is at most 0.3 dB L^2 / (2 p)
    // (curvature 0.2998 B[T] / p[GeV] per m). Here dB <= 2.5e-5 T (the first test's bound),
    // L <= 0.85 m to the last strip layer, p = 1.1 GeV/c: 2.5e-6 m. The two runs also
    // integrate with different substeps (the propagator's relative error epsilon = 1e-6 per unit
    // length: <= 1e-6 m over 1 m, for each run) and locate each crossing to delta_intersection (1 um,
    // for each run): 2.5e-6 + 2e-6 + 2e-6 m, rounded up to 8 um.
    double worst = 0;
    bool same_steps = true;
    for (std::size_t i = 0; i < a.hits.size(); ++i) {
        same_steps = same_steps && a.hits[i].volume == b.hits[i].volume && a.hits[i].event == b.hits[i].event;
        worst = std::max({worst, norm(a.hits[i].pre - b.hits[i].pre), norm(a.hits[i].post - b.hits[i].post)});
    }
    MESSAGE("hits moved by at most " << worst << " m");
    CHECK(same_steps);
    CHECK(worst <= 8e-6);
    CHECK(worst > 0);  // the tabulated field was used
    // and the bend is the field's: at the outermost strip layer (r = 75 cm) the azimuth turned by
    // asin(r / 2R) from the initial one, R = p_T / (0.2998 B) in the ~2 T near the coil's centre.
    // The field there is 2.0-2.1 T (it falls off towards the coil's ends): a 6% band
    Hit const& last = b.hits[8];
    double const pt = std::sqrt(1000.0 * (1000.0 + 2 * 105.6583755)) * 1e-3 * std::hypot(1.0, 0.3) /
                      std::sqrt(1.0 + 0.09 + 0.04);
    double const r = std::hypot(last.post.x, last.post.y);
    double const turned = std::fabs(std::atan2(last.post.y, last.post.x) - std::atan2(0.3, 1.0));
    double const b_est = 2 * pt * std::sin(turned) / (0.2998 * r);
    MESSAGE("bend at r = " << r << " m: " << turned << " rad, B = " << b_est << " T");
    CHECK(b_est > 1.95);
    CHECK(b_est < 2.15);
}
