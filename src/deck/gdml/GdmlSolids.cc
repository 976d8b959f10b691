// <solids>: the solids gtrack navigates exactly, as shapes of the geometry description. Any other
// solid is refused with its name, type and line: an approximated solid would give wrong physics
// without saying so.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "deck/gdml/GdmlModel.hh"
#include "kernels/geometry/TrapFaces.hh"

namespace gt::gdml {

namespace {

constexpr double k_two_pi = 2.0 * 3.14159265358979323846;
// Angles are equal to the full turn when closer than this [rad]: GDML writers print 2 pi with a
// few digits ("6.28318530717959"), and Geant4 treats such a segment as the full turn too.
constexpr double k_angle_tolerance = 1e-9;

double positive(GdmlSource& src, pugi::xml_node n, char const* attr, double value)
{
    if (!(value > 0)) src.fail(n, fmt::format("{} must be positive, got {} m", attr, value));
    return value;
}

//! A phi segment into the tube's fields; false when it is the full turn.
void read_phi(GdmlSource& src, pugi::xml_node n, double aunit, VolumeConfig& v)
{
    double const start = src.number(n, "startphi", 0.0) * aunit;
    double const delta = src.number(n, "deltaphi") * aunit;
    if (!(delta > 0) || delta > k_two_pi + k_angle_tolerance)
        src.fail(n, fmt::format("deltaphi must be in (0, 360 deg], got {} rad", delta));
    if (delta >= k_two_pi - k_angle_tolerance) return;
    v.phi_start = start;
    v.phi_delta = delta;
}

VolumeConfig read_solid(GdmlSource& src, pugi::xml_node n)
{
    std::string const tag = n.name();
    VolumeConfig v;
    double const lunit = src.unit(n, "lunit", UnitKind::length, "mm");
    double const aunit = tag == "box" || tag == "orb" || tag == "trd" || tag == "eltube"
                             ? 1.0
                             : src.unit(n, "aunit", UnitKind::angle, "rad");
    if (tag == "box") {
        // GDML gives full lengths
        v.shape = "box";
        v.half_size = {0.5 * positive(src, n, "x", src.number(n, "x") * lunit),
                       0.5 * positive(src, n, "y", src.number(n, "y") * lunit),
                       0.5 * positive(src, n, "z", src.number(n, "z") * lunit)};
    } else if (tag == "tube") {
        v.shape = "tube";
        v.rmin = src.number(n, "rmin", 0.0) * lunit;
        v.rmax = positive(src, n, "rmax", src.number(n, "rmax") * lunit);
        v.half_z = 0.5 * positive(src, n, "z", src.number(n, "z") * lunit);
        if (v.rmin < 0 || v.rmin >= v.rmax)
            src.fail(n,
                     fmt::format("rmin ({} m) must be at least 0 and less than rmax ({} m)", v.rmin, v.rmax));
        read_phi(src, n, aunit, v);
    } else if (tag == "cone") {
        // G4Cons (GDML's <cone>): radii at -z/2 (rmin1, rmax1) and +z/2 (rmin2, rmax2), z the full length
        v.shape = "cone";
        v.rmin = src.number(n, "rmin1", 0.0) * lunit;
        v.rmax = src.number(n, "rmax1") * lunit;
        v.rmin2 = src.number(n, "rmin2", 0.0) * lunit;
        v.rmax2 = src.number(n, "rmax2") * lunit;
        v.half_z = 0.5 * positive(src, n, "z", src.number(n, "z") * lunit);
        if (v.rmin < 0 || v.rmin2 < 0 || v.rmax < v.rmin || v.rmax2 < v.rmin2 ||
            !(v.rmax > v.rmin || v.rmax2 > v.rmin2))
            src.fail(n,
                     fmt::format("the radii must satisfy 0 <= rmin1 <= rmax1 and 0 <= rmin2 <= rmax2 with "
                                 "rmin < rmax at one end at least, got rmin1 {} rmax1 {} rmin2 {} rmax2 {} m",
                                 v.rmin, v.rmax, v.rmin2, v.rmax2));
        read_phi(src, n, aunit, v);
    } else if (tag == "trd") {
        // G4Trd: x1, y1 at -z/2 and x2, y2 at +z/2, all full lengths
        v.shape = "trd";
        double const x1 = src.number(n, "x1") * lunit, x2 = src.number(n, "x2") * lunit;
        double const y1 = src.number(n, "y1") * lunit, y2 = src.number(n, "y2") * lunit;
        if (x1 < 0 || x2 < 0 || y1 < 0 || y2 < 0 || !(x1 + x2 > 0) || !(y1 + y2 > 0))
            src.fail(n, fmt::format("x1, x2, y1, y2 must be at least 0 and not both 0, got {} {} {} {} m", x1,
                                    x2, y1, y2));
        v.half_size = {0.5 * x1, 0.5 * y1, 0.5 * positive(src, n, "z", src.number(n, "z") * lunit)};
        v.half_size2 = {0.5 * x2, 0.5 * y2};
    } else if (tag == "eltube") {
        // G4EllipticalTube: semi-axes dx, dy and half-length dz (not full lengths, unlike box and tube)
        v.shape = "eltube";
        v.half_size = {positive(src, n, "dx", src.number(n, "dx") * lunit),
                       positive(src, n, "dy", src.number(n, "dy") * lunit),
                       positive(src, n, "dz", src.number(n, "dz") * lunit)};
    } else if (tag == "para") {
        // G4Para: x, y, z full lengths; alpha the y faces' shear, theta and phi the z axis' tilt
        v.shape = "para";
        v.half_size = {0.5 * positive(src, n, "x", src.number(n, "x") * lunit),
                       0.5 * positive(src, n, "y", src.number(n, "y") * lunit),
                       0.5 * positive(src, n, "z", src.number(n, "z") * lunit)};
        v.para_angles = {src.number(n, "alpha", 0.0) * aunit, src.number(n, "theta", 0.0) * aunit,
                         src.number(n, "phi", 0.0) * aunit};
        double const quarter = 0.25 * k_two_pi;
        if (!(std::fabs(v.para_angles[0]) < quarter) || !(std::fabs(v.para_angles[1]) < quarter))
            src.fail(n, fmt::format("alpha and theta must lie within (-90, 90) deg, got {} and {} rad",
                                    v.para_angles[0], v.para_angles[1]));
    } else if (tag == "trap") {
        // G4Trap: z, y1, x1, x2, y2, x3, x4 full lengths (halved as G4GDMLReadSolids::TrapRead does)
        v.shape = "trap";
        char const* const lengths[] = {"z", "y1", "x1", "x2", "y2", "x3", "x4"};
        double half[7];
        for (int i = 0; i < 7; ++i)
            half[i] = 0.5 * positive(src, n, lengths[i], src.number(n, lengths[i]) * lunit);
        double const theta = src.number(n, "theta", 0.0) * aunit, phi = src.number(n, "phi", 0.0) * aunit;
        double const alpha1 = src.number(n, "alpha1", 0.0) * aunit,
                     alpha2 = src.number(n, "alpha2", 0.0) * aunit;
        double const quarter = 0.25 * k_two_pi;
        if (!(std::fabs(theta) < quarter) || !(std::fabs(alpha1) < quarter) || !(std::fabs(alpha2) < quarter))
            src.fail(n, fmt::format(
                            "theta, alpha1 and alpha2 must lie within (-90, 90) deg, got {}, {} and {} rad",
                            theta, alpha1, alpha2));
        TrapParameters const t{half[0], theta,   phi,     half[1], half[2], half[3],
                               alpha1,  half[4], half[5], half[6], alpha2};
        // Geant4 refuses a trap whose side faces bend by more than 1000 kCarTolerance = 1e-6 mm
        // (G4Trap::MakePlanes); the navigation here takes each face as one plane, so the same limit
        double const bend = trap_face_deviation(t);
        if (!(bend <= 1e-9))
            src.fail(n, fmt::format("the side faces are not planar (a corner lies {} m off its face's plane; "
                                    "Geant4 allows 1e-9 m): x1, x2, x3, x4, y1, y2 and the alphas do not fit",
                                    bend));
        v.trap = {t.dz, t.theta, t.phi, t.dy1, t.dx1, t.dx2, t.alpha1, t.dy2, t.dx3, t.dx4, t.alpha2};
        v.half_z = t.dz;
    } else if (tag == "polycone") {
        // G4Polycone from z planes: <zplane z rmin rmax/> children, z in order (rising or falling:
        // the same solid), consecutive planes at one z a step; startphi/deltaphi as a cone's
        v.shape = "polycone";
        for (pugi::xml_node c : n.children("zplane"))
            v.zplanes.push_back({src.number(c, "z") * lunit, src.number(c, "rmin", 0.0) * lunit,
                                 src.number(c, "rmax") * lunit});
        if (v.zplanes.size() < 2)
            src.fail(n, fmt::format("a polycone needs at least 2 <zplane>s, got {}", v.zplanes.size()));
        if (v.zplanes.front()[0] > v.zplanes.back()[0]) std::reverse(v.zplanes.begin(), v.zplanes.end());
        for (std::size_t i = 0; i < v.zplanes.size(); ++i) {
            auto const& q = v.zplanes[i];
            if (!(q[1] >= 0 && q[2] >= q[1]))
                src.fail(n, fmt::format("<zplane> {} (z = {} m): the radii must satisfy 0 <= rmin <= rmax, "
                                        "got rmin {} rmax {} m",
                                        i + 1, q[0], q[1], q[2]));
            if (i == 0) continue;
            auto const& a = v.zplanes[i - 1];
            if (!(q[0] >= a[0]))
                src.fail(n, fmt::format("the <zplane>s' z must rise (or fall) along the list: {} m follows "
                                        "{} m (plane {})",
                                        q[0], a[0], i + 1));
            if (q[0] > a[0] && !(a[2] > a[1] || q[2] > q[1]))
                src.fail(n, fmt::format("the section from z = {} to {} m has no thickness (rmin = rmax at "
                                        "both planes)",
                                        a[0], q[0]));
        }
        if (!(v.zplanes.back()[0] > v.zplanes.front()[0]))
            src.fail(n, "a polycone needs planes at two different z at least");
        read_phi(src, n, aunit, v);
        v.half_z = std::max(std::fabs(v.zplanes.front()[0]), std::fabs(v.zplanes.back()[0]));
    } else if (tag == "orb") {
        v.shape = "sphere";
        v.rmax = positive(src, n, "r", src.number(n, "r") * lunit);
    } else if (tag == "sphere") {
        v.shape = "sphere";
        v.rmin = src.number(n, "rmin", 0.0) * lunit;
        v.rmax = positive(src, n, "rmax", src.number(n, "rmax") * lunit);
        if (v.rmin < 0 || v.rmin >= v.rmax)
            src.fail(n,
                     fmt::format("rmin ({} m) must be at least 0 and less than rmax ({} m)", v.rmin, v.rmax));
        double const dphi = src.number(n, "deltaphi") * aunit;
        double const theta0 = src.number(n, "starttheta", 0.0) * aunit;
        double const dtheta = src.number(n, "deltatheta") * aunit;
        if (std::fabs(dphi - k_two_pi) > k_angle_tolerance || std::fabs(theta0) > k_angle_tolerance ||
            std::fabs(dtheta - 0.5 * k_two_pi) > k_angle_tolerance)
            src.fail(n,
                     "a sphere with a phi or theta segment is not supported (only the full shell: "
                     "deltaphi = 360 deg, starttheta = 0, deltatheta = 180 deg)");
    } else {
        src.fail(
            n,
            fmt::format(
                "solid '{}' of type <{}> is not supported by gtrack's geometry (supported: "
                "box, tube, cone, polycone (z planes), trd, trap, eltube, para, orb, sphere); it is refused "
                "rather than approximated",
                src.optional_text(n, "name").value_or("?"), tag));
    }
    return v;
}

}  // namespace

void read_solids(GdmlSource& src, pugi::xml_node solids, GdmlModel& model)
{
    for (pugi::xml_node n : solids.children()) {
        if (n.type() != pugi::node_element) continue;
        // optical and border surfaces of a file: no optical physics in gtrack
        if (std::string(n.name()) == "opticalsurface") continue;
        std::string const name = src.text(n, "name");
        if (model.solids.count(name)) src.fail(n, fmt::format("a solid named '{}' is defined already", name));
        model.solids[name] = read_solid(src, n);
        model.solid_nodes[name] = n;
    }
}

}  // namespace gt::gdml
