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
#pragma once

#include "kernels/core/Macros.hh"
#include "kernels/core/Types.hh"
#include "kernels/spacecharge/ChargeDeposit.hh"

namespace gt {

//! The grid's charge seen from outside: total charge [C] at the centroid (rest frame) [m].
struct PointCharge {
    double charge = 0;
    double x = 0, y = 0, z = 0;
};

struct FieldGather {
    DepositGeometry g;
    double const* x;                   //!< [m]
    double const* y;                   //!< [m]
    double const* t;                   //!< longitudinal coordinate; z = g.rest_z * t
    std::int32_t const* lost_element;  //!< nullptr: every point is live
    double const* ex;                  //!< node fields [V/m]
    double const* ey;
    double const* ez;
    PointCharge outside;
    bool fixed_point;  //!< gather with the deterministic deposition's rounded weights
    //! 2.5D: ex, ey hold the nx x ny transverse field of a unit line charge and `line` the line
    //! density [C/m] per z node; the field is line(z) E_1(x, y), with no z component (nullptr: 3D).
    double const* line;
    double* fx;  //!< the field at each point [V/m] (0 for lost particles)
    double* fy;
    double* fz;

    template <int W>
    GT_HOST_DEVICE void gather(ParticleStencil const& s, size_type i) const
    {
        double sx = 0.0, sy = 0.0, sz = 0.0;
        std::int64_t fixed[W * W * W];
        if (fixed_point) fixed_point_weights<W>(s, fixed);
        for (int m = 0; m < W * W * W; ++m) {
            size_type index = 0;
            double w = 0;
            stencil_node<W>(g.grid, s, m, index, w);
            if (fixed_point) w = static_cast<double>(fixed[m]) * (1.0 / k_fixed_point_unit);
            sx += w * ex[index];
            sy += w * ey[index];
            sz += w * ez[index];
        }
        fx[i] = sx;
        fy[i] = sy;
        fz[i] = sz;
    }

    GT_HOST_DEVICE void gather_sliced(ParticleStencil const& s, size_type i) const
    {
        int const w = shape_width(g.shape);
        double sx = 0.0, sy = 0.0, lambda = 0.0;
        for (int b = 0; b < w; ++b)
            for (int a = 0; a < w; ++a) {
                size_type const index =
                    size_type(s.sy.first + b) * size_type(g.grid.nx) + size_type(s.sx.first + a);
                double const wt = s.sx.w[a] * s.sy.w[b];
                sx += wt * ex[index];
                sy += wt * ey[index];
            }
        for (int c = 0; c < w; ++c) lambda += s.sz.w[c] * line[s.sz.first + c];
        fx[i] = lambda * sx;
        fy[i] = lambda * sy;
        fz[i] = 0.0;
    }

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        fx[i] = fy[i] = fz[i] = 0.0;
        if (lost_element && lost_element[i] >= 0) return;
        ParticleStencil s;
        if (particle_stencil(g, x[i], y[i], t[i], s)) {
            if (line)
                gather_sliced(s, i);
            else if (g.shape == ParticleShape::cic)
                gather<2>(s, i);
            else
                gather<3>(s, i);
            return;
        }
        double const dx = x[i] - outside.x, dy = y[i] - outside.y, dz = g.rest_z * t[i] - outside.z;
        double const r2 = dx * dx + dy * dy + dz * dz;
        if (!(r2 > 0.0)) return;  // at the centroid (or not a number): no direction, no field
        double const r = ::sqrt(r2);
        double const k = outside.charge / (4.0 * constants::pi * constants::eps0 * r2 * r);
        fx[i] = k * dx;
        fy[i] = k * dy;
        fz[i] = k * dz;
    }
};

}  // namespace gt
