// A polycone (Geant4's G4Polycone from z planes, GDML <polycone>): cone sections stacked along z
// between consecutive planes (z_i, rmin_i, rmax_i), sharing one phi segment. Two planes at the same
// z make a step (the radii jump there); a section of zero length is not stored.
//
// The number of planes varies from solid to solid, so the sections live in a side table of the
// geometry (GeometryView::sections, uploaded with the placed volumes: the same bytes on CPU and
// GPU) and the shape's parameter block holds only where its sections start and how many there
// are. The queries take the table.
//
// The solid is the union of its sections, each a Cons (exact distances, conservative safeties):
//  - inside: a section containing the point (binary search on z; at a shared plane either one);
//  - distance to in: the least of the sections' (the union is entered where the first section is);
//  - distance to out: the containing section's, continued into the next section while the ray
//    leaves through a shared plane at a point that the next section holds (exact: the union's
//    boundary is where the ray leaves a section into no other);
//  - safety to out: the containing section's (its boundary includes the shared planes, which are
//    not the solid's: a lower bound, smaller than needed near a shared plane);
//  - safety to in: the least of the sections' (a lower bound of the distance to each, hence to
//    their union).
#pragma once

#include <cstdint>

#include "kernels/geometry/Cons.hh"

namespace gt {

//! One section of a polycone: the cone between two planes, in the polycone's frame.
struct PolyconeSection {
    double z0 = 0, z1 = 0;  //!< its planes, z0 < z1 [m]
    double zc = 0;          //!< (z0 + z1) / 2: the cone's own origin [m]
    Cons cone;              //!< half-length (z1 - z0) / 2, radii at its planes, the phi segment
};

struct Polycone {
    std::int32_t first = 0;  //!< its sections: [first, first + count) in the side table
    std::int32_t count = 0;
    double rmax = 0;  //!< the largest outer radius [m]
    double zmax = 0;  //!< the largest |z| of its planes [m]

    //! How close to a shared plane a ray's exit must be to continue into the next section [m]: the
    //! exit point carries the round-off of p + t d (ulps of metres), far below this.
    static constexpr double k_plane_tolerance = 1e-12;

    GT_HOST_DEVICE static Vec3 local(PolyconeSection const& s, Vec3 p) { return {p.x, p.y, p.z - s.zc}; }

    //! The first section whose upper plane is at or above z (count if none).
    GT_HOST_DEVICE std::int32_t lower_bound(PolyconeSection const* sec, double z) const
    {
        std::int32_t lo = 0, hi = count;
        while (lo < hi) {
            std::int32_t const mid = (lo + hi) / 2;
            if (sec[first + mid].z1 < z)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo;
    }

    //! Whether section s holds p: z against its own planes (so that a point on a shared plane is
    //! in both sections, whatever the rounding of zc and hz), r and phi against its cone there.
    GT_HOST_DEVICE static bool holds(PolyconeSection const& s, Vec3 p)
    {
        if (!(s.z0 <= p.z && p.z <= s.z1)) return false;
        double z = p.z - s.zc;
        z = z < -s.cone.hz ? -s.cone.hz : (z > s.cone.hz ? s.cone.hz : z);
        return s.cone.inside({p.x, p.y, z});
    }

    //! A section holding p (-1 if none); at a shared plane, the one the direction dz leads into.
    GT_HOST_DEVICE std::int32_t containing(PolyconeSection const* sec, Vec3 p, double dz) const
    {
        std::int32_t const k = lower_bound(sec, p.z);
        bool const in_k = k < count && holds(sec[first + k], p);
        bool const in_next = k + 1 < count && holds(sec[first + k + 1], p);
        if (in_k && in_next) return dz > 0 ? k + 1 : k;
        if (in_k) return k;
        if (in_next) return k + 1;
        return -1;
    }

    GT_HOST_DEVICE bool inside(Vec3 p, PolyconeSection const* sec) const
    {
        return containing(sec, p, 0) >= 0;
    }

    GT_HOST_DEVICE double distance_to_out(Vec3 p, Vec3 d, PolyconeSection const* sec) const
    {
        std::int32_t k = containing(sec, p, d.z);
        if (k < 0) return 0.0;
        if (d.z == 0) return in_plane_distance_to_out(p, d, k, sec);
        double total = 0;
        Vec3 q = p;
        // each pass moves one section along z in the ray's direction: at most count passes
        for (std::int32_t pass = 0; pass < count; ++pass) {
            PolyconeSection const& s = sec[first + k];
            double const t = s.cone.distance_to_out(local(s, q), d);
            std::int32_t const next = d.z > 0 ? k + 1 : k - 1;
            if (next < 0 || next >= count) return total + t;
            double const plane = d.z > 0 ? s.z1 : s.z0;
            Vec3 const e = axpy(t, d, q);
            if (!(fabs(e.z - plane) <= k_plane_tolerance)) return total + t;  // left through a side
            PolyconeSection const& n = sec[first + next];
            // the next section holds the exit point: the ray goes on in it (tested on its plane)
            if (!n.cone.inside({e.x, e.y, d.z > 0 ? -n.cone.hz : n.cone.hz})) return total + t;
            total += t;
            q = e;
            k = next;
        }
        return total;
    }

    //! A ray in a plane z = const from p in section k: on a shared plane it runs through both
    //! sections' cross-sections there, so it goes on in the other section while that one holds its
    //! exit point (a line meets the two annuli in a few intervals: a few passes).
    GT_HOST_DEVICE double in_plane_distance_to_out(Vec3 p, Vec3 d, std::int32_t k,
                                                   PolyconeSection const* sec) const
    {
        std::int32_t other = -1;
        if (p.z == sec[first + k].z1 && k + 1 < count) other = k + 1;
        if (p.z == sec[first + k].z0 && k > 0) other = k - 1;
        double total = 0;
        Vec3 q = p;
        for (int pass = 0; pass < 8; ++pass) {
            double const t = sec[first + k].cone.distance_to_out(local(sec[first + k], q), d);
            Vec3 const e = axpy(t, d, q);
            if (other < 0 || !holds(sec[first + other], e)) return total + t;
            total += t;
            q = e;
            std::int32_t const was = k;
            k = other;
            other = was;
        }
        return total;
    }

    GT_HOST_DEVICE double distance_to_in(Vec3 p, Vec3 d, PolyconeSection const* sec) const
    {
        double best = k_no_hit;
        for (std::int32_t i = 0; i < count; ++i) {
            double const t = sec[first + i].cone.distance_to_in(local(sec[first + i], p), d);
            best = t < best ? t : best;
        }
        return best;
    }

    GT_HOST_DEVICE double safety_to_out(Vec3 p, PolyconeSection const* sec) const
    {
        std::int32_t const k = containing(sec, p, 0);
        if (k < 0) return 0.0;
        return sec[first + k].cone.safety_to_out(local(sec[first + k], p));
    }

    GT_HOST_DEVICE double safety_to_in(Vec3 p, PolyconeSection const* sec) const
    {
        double s = k_no_hit;
        for (std::int32_t i = 0; i < count; ++i) {
            double const si = sec[first + i].cone.safety_to_in(local(sec[first + i], p));
            s = si < s ? si : s;
        }
        return s;
    }
};

}  // namespace gt
