// The kernels' parameter blocks from a solid's defining dimensions (Geant4's): host-side, where
// the derived constants (unit vectors of phi edges, cone slopes and cosines) are computed once.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels/geometry/Shape.hh"
#include "kernels/geometry/TrapFaces.hh"

namespace gt {

//! The segment [start, start + delta] [rad]; delta <= 0 for the full turn.
inline PhiSegment make_phi_segment(double start, double delta)
{
    PhiSegment s;
    if (!(delta > 0)) return s;
    s.has_phi = true;
    s.wide = delta > 3.14159265358979323846;
    s.sx = std::cos(start);
    s.sy = std::sin(start);
    s.ex = std::cos(start + delta);
    s.ey = std::sin(start + delta);
    return s;
}

//! The cone from radius r1 at z = -hz to r2 at z = +hz.
inline ConeSurface make_cone_surface(double r1, double r2, double hz)
{
    ConeSurface c;
    c.a = 0.5 * (r1 + r2);
    c.k = (r2 - r1) / (2.0 * hz);
    c.c = 1.0 / std::sqrt(1.0 + c.k * c.k);
    return c;
}

//! G4Cons's parameters: radii at -hz (rmin1, rmax1) and +hz (rmin2, rmax2) [m], the phi segment [rad].
inline Cons make_cons(double rmin1, double rmax1, double rmin2, double rmax2, double hz, double phi_start = 0,
                      double phi_delta = 0)
{
    Cons c;
    c.hz = hz;
    c.rmax = std::max(rmax1, rmax2);
    if (rmin1 > 0 || rmin2 > 0) c.inner = make_cone_surface(rmin1, rmin2, hz);
    c.outer = make_cone_surface(rmax1, rmax2, hz);
    c.phi = make_phi_segment(phi_start, phi_delta);
    return c;
}

//! G4Trd's half-lengths: x1, y1 at -hz, x2, y2 at +hz [m].
inline Trd make_trd(double x1, double x2, double y1, double y2, double hz)
{
    Trd t;
    t.hz = hz;
    t.ax = 0.5 * (x1 + x2);
    t.kx = (x2 - x1) / (2.0 * hz);
    t.ay = 0.5 * (y1 + y2);
    t.ky = (y2 - y1) / (2.0 * hz);
    t.cx = 1.0 / std::sqrt(1.0 + t.kx * t.kx);
    t.cy = 1.0 / std::sqrt(1.0 + t.ky * t.ky);
    t.hx = std::max(x1, x2);
    t.hy = std::max(y1, y2);
    return t;
}

//! G4EllipticalTube's semi-axes dx, dy and half-length hz [m].
inline EllipticalTube make_elliptical_tube(double dx, double dy, double hz)
{
    EllipticalTube e;
    e.dx = dx;
    e.dy = dy;
    e.hz = hz;
    e.ix = 1.0 / dx;
    e.iy = 1.0 / dy;
    e.rmin = std::min(dx, dy);
    return e;
}

//! G4Para's half-lengths dx, dy, dz [m] and angles alpha, theta, phi [rad].
inline Para make_para(double dx, double dy, double dz, double alpha, double theta, double phi)
{
    Para p;
    p.box.half = {dx, dy, dz};
    double const tt = std::tan(theta);
    p.ta = std::tan(alpha);
    p.ty = tt * std::sin(phi);
    double const tx = tt * std::cos(phi);
    p.cxz = tx - p.ta * p.ty;
    p.ix = 1.0 / std::sqrt(1.0 + p.ta * p.ta + p.cxz * p.cxz);
    p.iy = 1.0 / std::sqrt(1.0 + p.ty * p.ty);
    // x = x' + ta y' + tx z, y = y' + ty z: the vertices' extent
    p.bound = {dx + std::fabs(p.ta) * dy + std::fabs(tx) * dz, dy + std::fabs(p.ty) * dz, dz};
    return p;
}

//! G4Trap from its parameters (side faces planar: see trap_face_deviation).
inline Trap make_trap(TrapParameters const& t)
{
    std::array<Vec3, 8> const v = trap_vertices(t);
    Trap r;
    r.hz = t.dz;
    for (int f = 0; f < 2; ++f) {
        // the y faces contain the x-parallel edges: their normal's x component is 0 (up to rounding)
        std::array<double, 4> const q = trap_face_plane(v, f);
        double const len = std::sqrt(q[1] * q[1] + q[2] * q[2]);
        r.y_face[f][0] = q[1] / len;
        r.y_face[f][1] = q[2] / len;
        r.y_face[f][2] = q[3] / len;
    }
    for (int f = 0; f < 2; ++f) {
        std::array<double, 4> const q = trap_face_plane(v, 2 + f);
        for (int k = 0; k < 4; ++k) r.x_face[f][k] = q[k];
    }
    return r;
}

//! G4Polycone from its z planes (z, rmin, rmax) [m], z non-decreasing, and its phi segment [rad]:
//! one Cons per pair of planes at different z, appended to the geometry's side table.
inline Polycone make_polycone(std::vector<std::array<double, 3>> const& planes, double phi_start,
                              double phi_delta, std::vector<PolyconeSection>& table)
{
    Polycone p;
    p.first = static_cast<std::int32_t>(table.size());
    for (std::size_t i = 0; i + 1 < planes.size(); ++i) {
        auto const& a = planes[i];
        auto const& b = planes[i + 1];
        p.rmax = std::max({p.rmax, a[2], b[2]});
        p.zmax = std::max({p.zmax, std::fabs(a[0]), std::fabs(b[0])});
        if (!(b[0] > a[0])) continue;  // a step: the radii jump at this z
        PolyconeSection s;
        s.z0 = a[0];
        s.z1 = b[0];
        s.zc = 0.5 * (a[0] + b[0]);
        s.cone = make_cons(a[1], a[2], b[1], b[2], 0.5 * (b[0] - a[0]), phi_start, phi_delta);
        table.push_back(s);
    }
    p.count = static_cast<std::int32_t>(table.size()) - p.first;
    return p;
}

}  // namespace gt
