// The solids a GDML file may use, read from GDML (with their units, full lengths and angles) and
// navigated by the kernels: each volume by Monte Carlo hit-or-miss with the navigator's inside test
// against its closed form, and the safety distance sampled against the distance along random
// directions (a safety is a lower bound of every one of them).
#include <random>

#include "GdmlTestSupport.hh"
#include "deck/gdml/GdmlReader.hh"

using namespace gt;

namespace {

constexpr double k_pi = 3.14159265358979323846;

struct Case {
    char const* solid;  //!< the GDML element
    double volume;      //!< closed form [m^3]
};

}  // namespace

TEST_CASE("GDML solids: volumes against closed forms, safeties below the distance along any direction")
{
    // lengths in cm (lunit), angles in deg (aunit): tube z, box x/y/z are full lengths in GDML
    std::vector<Case> const cases = {
        {R"(<box name="S" x="6" y="4" z="2" lunit="cm"/>)", 6e-2 * 4e-2 * 2e-2},
        {R"(<tube name="S" rmin="1" rmax="3" z="4" startphi="30" deltaphi="100" aunit="deg" lunit="cm"/>)",
         (100.0 / 360.0) * k_pi * (9e-4 - 1e-4) * 4e-2},
        {R"(<tube name="S" rmin="1" rmax="3" z="4" startphi="-20" deltaphi="250" aunit="deg" lunit="cm"/>)",
         (250.0 / 360.0) * k_pi * (9e-4 - 1e-4) * 4e-2},
        {R"(<tube name="S" rmax="2" z="3" deltaphi="2*pi" lunit="cm"/>)", k_pi * 4e-4 * 3e-2},
        {R"(<orb name="S" r="2.5" lunit="cm"/>)", 4.0 / 3.0 * k_pi * std::pow(2.5e-2, 3)},
        {R"(<sphere name="S" rmin="1" rmax="2.5" deltaphi="360" deltatheta="180" aunit="deg" lunit="cm"/>)",
         4.0 / 3.0 * k_pi * (std::pow(2.5e-2, 3) - 1e-6)},
        // frustum: pi h / 3 (R1^2 + R1 R2 + R2^2), outer minus inner, times the segment's share
        {R"(<cone name="S" rmin1="1" rmax1="2" rmin2="0.5" rmax2="3" z="4" startphi="20" deltaphi="250" aunit="deg" lunit="cm"/>)",
         (250.0 / 360.0) * k_pi * 4e-2 / 3 * ((4 + 6 + 9) - (1 + 0.5 + 0.25)) * 1e-4},
        {R"(<cone name="S" rmax1="2" rmax2="0" z="3" deltaphi="360" aunit="deg" lunit="cm"/>)",
         k_pi * 3e-2 / 3 * 4e-4},
        // prismatoid: h / 6 (A1 + A2 + 4 A_mid) with full lengths, exact for a cross-section quadratic in z
        {R"(<trd name="S" x1="6" x2="2" y1="3" y2="5" z="4" lunit="cm"/>)",
         4.0 / 6 * (18 + 10 + 4 * 4 * 4) * 1e-6},
        // dx, dy semi-axes and dz the half-length: pi dx dy 2 dz
        {R"(<eltube name="S" dx="3" dy="1.5" dz="2" lunit="cm"/>)", k_pi * 3 * 1.5 * 4 * 1e-6},
        // a sheared box: x y z (full lengths), whatever the angles
        {R"(<para name="S" x="4" y="3" z="2" alpha="20" theta="25" phi="60" aunit="deg" lunit="cm"/>)",
         24e-6},
        // G4Polycone of z planes (a step at z = 0, pointed inner cones): its sections' frusta, outer
        // less inner, times the segment's share
        {R"(<polycone name="S" startphi="30" deltaphi="200" aunit="deg" lunit="cm"><zplane z="-2" rmax="1"/><zplane z="0" rmin="0.5" rmax="2"/><zplane z="0" rmin="0.5" rmax="1.5"/><zplane z="1.5" rmin="0" rmax="1"/></polycone>)",
         200.0 / 360 * k_pi / 3 * (2 * ((1 + 2 + 4) - 0.25) + 1.5 * ((2.25 + 1.5 + 1) - 0.25)) * 1e-6},
        // G4Trap (z, y1, y2, x1..x4 full lengths), planar faces: the section at z is a trapezoid of
        // half-height h, half-lengths bl, tl, linear in z: h/6 (A1 + A2 + 4 A_mid), A = 2 h (bl + tl)
        {R"(<trap name="S" z="4" theta="17" phi="40" y1="2" x1="1.6" x2="2.4" alpha1="11" y2="3" x3="2.4" x4="3.6" alpha2="11" aunit="deg" lunit="cm"/>)",
         4.0 / 6 * (2 * 1 * (0.8 + 1.2) + 2 * 1.5 * (1.2 + 1.8) + 4 * 2 * 1.25 * (1.0 + 1.5)) * 1e-6},
    };
    std::mt19937_64 gen(42);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::normal_distribution<double> normal;
    for (Case const& c : cases) {
        INFO(c.solid);
        gdml::GdmlGeometry const g = gdml::read_gdml_text(
            "solids.gdml",
            test::gdml_text("", "", std::string(c.solid) + R"(<box name="W" x="1" y="1" z="1" lunit="m"/>)",
                            R"(<volume name="V"><materialref ref="G4_Pb"/><solidref ref="S"/></volume>
<volume name="World"><materialref ref="G4_Galactic"/><solidref ref="W"/>
<physvol><volumeref ref="V"/><position name="p" x="1" y="2" z="3" unit="cm"/><rotation name="r" x="10" y="20" z="30" unit="deg"/></physvol></volume>)"),
            {});
        DetectorConfig d;
        d.world = g.world;
        d.volumes = g.volumes;
        GeometryTables const t = build_geometry(d, {{"vacuum", 0}, {"lead", 1}});
        Navigator const nav(t.view());
        PlacedVolume const& pv = t.volumes[1];
        // hit-or-miss in the placed volume's global bounding box, through the navigator's inside test
        int const n = 200000;
        int hits = 0;
        Vec3 const lo = pv.lo, hi = pv.hi;
        double const box = (hi.x - lo.x) * (hi.y - lo.y) * (hi.z - lo.z);
        for (int i = 0; i < n; ++i) {
            Vec3 const p{lo.x + (hi.x - lo.x) * 0.5 * (u(gen) + 1), lo.y + (hi.y - lo.y) * 0.5 * (u(gen) + 1),
                         lo.z + (hi.z - lo.z) * 0.5 * (u(gen) + 1)};
            if (nav.inside(1, p)) ++hits;
        }
        double const f = c.volume / box;
        // binomial standard error of the hit fraction: 4 sigma (a 1e-4 chance of a false alarm)
        double const sigma = std::sqrt(f * (1 - f) / n);
        CHECK(std::fabs(static_cast<double>(hits) / n - f) < 4 * sigma);
        // safeties, inside and outside, against the distance along 64 random directions
        int checked = 0;
        for (int i = 0; i < 4000; ++i) {
            Vec3 const p{lo.x + (hi.x - lo.x) * (0.5 + 0.7 * u(gen)),
                         lo.y + (hi.y - lo.y) * (0.5 + 0.7 * u(gen)),
                         lo.z + (hi.z - lo.z) * (0.5 + 0.7 * u(gen))};
            Vec3 const local = pv.placement.to_local(p);
            PolyconeSection const* const sections = t.sections.data();  // a polycone's
            bool const in = pv.shape.inside(local, sections);
            double const safety =
                in ? pv.shape.safety_to_out(local, sections) : pv.shape.safety_to_in(local, sections);
            for (int k = 0; k < 64; ++k) {
                Vec3 const dir = normalized(Vec3{normal(gen), normal(gen), normal(gen)});
                double const dist = in ? pv.shape.distance_to_out(local, dir, sections)
                                       : pv.shape.distance_to_in(local, dir, sections);
                if (dist >= k_no_hit) continue;
                CHECK_MESSAGE(safety <= dist * (1 + 1e-12) + 1e-15, "p = (", p.x, ", ", p.y, ", ", p.z, ")");
                ++checked;
            }
        }
        CHECK(checked > 10000);
    }
}
