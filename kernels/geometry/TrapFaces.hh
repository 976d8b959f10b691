// G4Trap's defining parameters, its corners and side-face planes as Geant4 makes them (host-side):
// what the GDML reader checks a trap with (planar side faces) and what make_trap builds its planes from.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>

#include "kernels/geometry/Vec3.hh"

namespace gt {

//! G4Trap's parameters in its constructor's order: half-length dz, polar and azimuthal angles theta,
//! phi of the line joining the z faces' centres [rad]; at -dz the half-height dy1, the x half-lengths
//! dx1 at y = -dy1 and dx2 at y = +dy1, the shear alpha1; at +dz the same dy2, dx3, dx4, alpha2.
struct TrapParameters {
    double dz, theta, phi, dy1, dx1, dx2, alpha1, dy2, dx3, dx4, alpha2;
};

//! The eight corners, as G4Trap numbers them: bit 0 the +x side, bit 1 the +y side, bit 2 the +z face.
inline std::array<Vec3, 8> trap_vertices(TrapParameters const& t)
{
    double const tt = std::tan(t.theta);
    double const cx = t.dz * tt * std::cos(t.phi), cy = t.dz * tt * std::sin(t.phi);
    double const s1 = t.dy1 * std::tan(t.alpha1), s2 = t.dy2 * std::tan(t.alpha2);
    return {{{-cx - s1 - t.dx1, -cy - t.dy1, -t.dz},
             {-cx - s1 + t.dx1, -cy - t.dy1, -t.dz},
             {-cx + s1 - t.dx2, -cy + t.dy1, -t.dz},
             {-cx + s1 + t.dx2, -cy + t.dy1, -t.dz},
             {cx - s2 - t.dx3, cy - t.dy2, t.dz},
             {cx - s2 + t.dx3, cy - t.dy2, t.dz},
             {cx + s2 - t.dx4, cy + t.dy2, t.dz},
             {cx + s2 + t.dx4, cy + t.dy2, t.dz}}};
}

//! The corners of each side face (-y, +y, -x, +x), in order around it.
inline constexpr int k_trap_faces[4][4] = {{0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};

//! A side face's plane as Geant4 makes it: the normal along the cross product of the diagonals,
//! through the corners' centroid, turned outwards (away from the solid's centroid) [unit normal, m].
inline std::array<double, 4> trap_face_plane(std::array<Vec3, 8> const& v, int face)
{
    int const* c = k_trap_faces[face];
    Vec3 const a{v[c[2]].x - v[c[0]].x, v[c[2]].y - v[c[0]].y, v[c[2]].z - v[c[0]].z};
    Vec3 const b{v[c[3]].x - v[c[1]].x, v[c[3]].y - v[c[1]].y, v[c[3]].z - v[c[1]].z};
    Vec3 n{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
    double const len = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
    n = {n.x / len, n.y / len, n.z / len};
    Vec3 m{0, 0, 0}, g{0, 0, 0};
    for (int i = 0; i < 4; ++i) m = {m.x + 0.25 * v[c[i]].x, m.y + 0.25 * v[c[i]].y, m.z + 0.25 * v[c[i]].z};
    for (Vec3 const& p : v) g = {g.x + 0.125 * p.x, g.y + 0.125 * p.y, g.z + 0.125 * p.z};
    double d = -(n.x * m.x + n.y * m.y + n.z * m.z);
    if (n.x * g.x + n.y * g.y + n.z * g.z + d > 0) {
        n = {-n.x, -n.y, -n.z};
        d = -d;
    }
    return {n.x, n.y, n.z, d};
}

//! The largest distance of a side face's corner from that face's plane [m]: 0 for a planar trap.
inline double trap_face_deviation(TrapParameters const& t)
{
    std::array<Vec3, 8> const v = trap_vertices(t);
    double worst = 0;
    for (int f = 0; f < 4; ++f) {
        std::array<double, 4> const q = trap_face_plane(v, f);
        for (int c : k_trap_faces[f]) {
            Vec3 const& p = v[c];
            worst = std::max(worst, std::fabs(q[0] * p.x + q[1] * p.y + q[2] * p.z + q[3]));
        }
    }
    return worst;
}

}  // namespace gt
