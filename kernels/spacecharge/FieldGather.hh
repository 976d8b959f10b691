// Gathering the rest-frame field at particle positions with the deposition's shape; a particle
// outside the grid feels the field of the grid's charge as a point charge at its centroid.
//
// The point-charge field is the leading (monopole) term of the far field of the bunch, right when the
// particle is far outside and an approximation near the grid edge; it is never silently zero. The
// number of particles outside is counted and reported every kick (SpaceChargeDiagnostics::outside).
//
// With the deterministic deposition the gather uses the same rounded (fixed-point) weights as the
// deposition: gather and deposition then remain exact transposes, which keeps the self-force zero
// (with the double weights it would be ~2^-33 of the one-cell force).
//
// A kick gathers and kicks in one pass over the particles, in their own order (FieldKick,
// SpaceChargeKick.hh). The grid is read at random in that order; NodeField keeps a node's three
// components in one 32-byte sector (FieldFromPotential.hh).
#pragma once

#include "kernels/core/Macros.hh"
#include "kernels/core/Types.hh"
#include "kernels/spacecharge/ChargeDeposit.hh"
#include "kernels/spacecharge/FieldFromPotential.hh"

namespace gt {

//! The grid's charge seen from outside: total charge [C] at the centroid (rest frame) [m].
struct PointCharge {
    double charge = 0;
    double x = 0, y = 0, z = 0;
};

//! The rest-frame field at points (x, y, t) from the node fields of the last solve.
struct FieldAt {
    DepositGeometry g;
    NodeField const* field;  //!< node fields [V/m] (2.5D: the nx x ny field of a unit line charge)
    PointCharge outside;
    bool fixed_point;  //!< gather with the deterministic deposition's rounded weights
    //! 2.5D: `field` holds the nx x ny transverse field of a unit line charge and `line` the line
    //! density [C/m] per z node; the field is line(z) E_1(x, y), with no z component (nullptr: 3D).
    double const* line;

    template <int W>
    GT_HOST_DEVICE void gather(ParticleStencil const& s, double& fx, double& fy, double& fz) const
    {
        double sx = 0.0, sy = 0.0, sz = 0.0;
        std::int64_t fixed[W * W * W];
        if (fixed_point) fixed_point_weights<W>(s, fixed);
        for (int m = 0; m < W * W * W; ++m) {
            size_type index = 0;
            double w = 0;
            stencil_node<W>(g.grid, s, m, index, w);
            if (fixed_point) w = static_cast<double>(fixed[m]) * (1.0 / k_fixed_point_unit);
            NodeField const f = field[index];
            sx += w * f.ex;
            sy += w * f.ey;
            sz += w * f.ez;
        }
        fx = sx;
        fy = sy;
        fz = sz;
    }

    GT_HOST_DEVICE void gather_sliced(ParticleStencil const& s, double& fx, double& fy, double& fz) const
    {
        int const w = shape_width(g.shape);
        double sx = 0.0, sy = 0.0, lambda = 0.0;
        for (int b = 0; b < w; ++b)
            for (int a = 0; a < w; ++a) {
                size_type const index =
                    size_type(s.sy.first + b) * size_type(g.grid.nx) + size_type(s.sx.first + a);
                double const wt = s.sx.w[a] * s.sy.w[b];
                NodeField const f = field[index];
                sx += wt * f.ex;
                sy += wt * f.ey;
            }
        for (int c = 0; c < w; ++c) lambda += s.sz.w[c] * line[s.sz.first + c];
        fx = lambda * sx;
        fy = lambda * sy;
        fz = 0.0;
    }

    //! The field at (x, y, t): from the grid inside it, from the point charge outside (0 at the
    //! centroid or for a position that is not a number). K is the stencil, known at compile time
    //! (2: CIC, 3: TSC, 0: the 2.5D model), so that a kernel holds the registers of one only (all three
    //! in one kernel took 130 registers on sm_90: one block of 256 threads an SM).
    template <int K>
    GT_HOST_DEVICE void at(double x, double y, double t, double& fx, double& fy, double& fz) const
    {
        fx = fy = fz = 0.0;
        ParticleStencil s;
        if (particle_stencil(g, x, y, t, s)) {
            if constexpr (K == 0)
                gather_sliced(s, fx, fy, fz);
            else
                gather<K>(s, fx, fy, fz);
            return;
        }
        double const dx = x - outside.x, dy = y - outside.y, dz = g.rest_z * t - outside.z;
        double const r2 = dx * dx + dy * dy + dz * dz;
        if (!(r2 > 0.0)) return;  // at the centroid (or not a number): no direction, no field
        double const r = ::sqrt(r2);
        double const k = outside.charge / (4.0 * constants::pi * constants::eps0 * r2 * r);
        fx = k * dx;
        fy = k * dy;
        fz = k * dz;
    }

    //! The stencil K of `at` for these settings.
    GT_HOST_DEVICE int kind() const { return line ? 0 : g.shape == ParticleShape::cic ? 2 : 3; }

    //! `at` with the stencil chosen at run time (probes).
    GT_HOST_DEVICE void operator()(double x, double y, double t, double& fx, double& fy, double& fz) const
    {
        switch (kind()) {
            case 0:
                at<0>(x, y, t, fx, fy, fz);
                break;
            case 2:
                at<2>(x, y, t, fx, fy, fz);
                break;
            default:
                at<3>(x, y, t, fx, fy, fz);
        }
    }
};

//! The field at each of a set of points, stored (probes).
struct FieldGather {
    FieldAt at;
    double const* x;                   //!< [m]
    double const* y;                   //!< [m]
    double const* t;                   //!< longitudinal coordinate; z = g.rest_z * t
    std::int32_t const* lost_element;  //!< nullptr: every point is live
    double* fx;                        //!< the field at each point [V/m] (0 for lost particles)
    double* fy;
    double* fz;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        if (lost_element && lost_element[i] >= 0) {
            fx[i] = fy[i] = fz[i] = 0.0;
            return;
        }
        double ex, ey, ez;
        at(x[i], y[i], t[i], ex, ey, ez);
        fx[i] = ex;
        fy[i] = ey;
        fz[i] = ez;
    }
};

}  // namespace gt
