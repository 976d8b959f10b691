// An on-axis field profile f(z) on a uniform grid, interpolated by a cubic spline: the value and its
// first three derivatives, which the paraxial expansion of the off-axis field needs.
#pragma once

#include <cstdint>

#include "kernels/core/Macros.hh"

namespace gt {

//! f and its z-derivatives at one point [unit of f, per m, per m^2, per m^3].
struct ProfileSample {
    double f, d1, d2, d3;
};

//! Piecewise cubic f(z) = c0 + c1 u + c2 u^2 + c3 u^3, u = z - z_i on interval i of a uniform grid.
//! The four coefficients of an interval are stored together (one 32-byte read per evaluation: the
//! layout AVASX found best for field maps, all components of a node in one place). Outside
//! [z_lo, z_lo + intervals dz] the profile is zero. The host owns the coefficients; `offset` says
//! where they start in the lattice's field data, and the backend points `coefficients` at its copy.
struct CubicSplineProfile {
    double const* coefficients;  //!< 4 per interval [unit of f, /m, /m^2, /m^3]
    std::int64_t offset;         //!< index of the first coefficient in the lattice's field data
    std::int32_t intervals;      //!< grid points - 1
    double z_lo;                 //!< [m] first grid point
    double dz;                   //!< [m] grid spacing
    double inv_dz;               //!< [1/m]

    GT_HOST_DEVICE ProfileSample operator()(double z) const
    {
        double const u = (z - z_lo) * inv_dz;
        if (!(u >= 0.0) || u > double(intervals)) return ProfileSample{0.0, 0.0, 0.0, 0.0};
        std::int32_t i = static_cast<std::int32_t>(u);
        if (i > intervals - 1) i = intervals - 1;
        double const h = z - (z_lo + double(i) * dz);
        double const* c = coefficients + 4 * std::int64_t(i);
        ProfileSample s;
        s.f = c[0] + h * (c[1] + h * (c[2] + h * c[3]));
        s.d1 = c[1] + h * (2.0 * c[2] + 3.0 * h * c[3]);
        s.d2 = 2.0 * c[2] + 6.0 * h * c[3];
        s.d3 = 6.0 * c[3];
        return s;
    }
};

}  // namespace gt
