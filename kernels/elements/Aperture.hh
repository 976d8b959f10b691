// Thin aperture: rectangle or ellipse; a particle outside (or with a NaN position) is lost.
#pragma once

#include <cfloat>
#include <cstdint>

#include "kernels/core/LaneMask.hh"
#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"

namespace gt {

enum class ApertureShape : std::int32_t { rectangle, ellipse };

//! The open side of an aperture (ELEGANT's OPEN_SIDE of MAXAMP, RCOL, ECOL), or none.
enum class ApertureSide : std::int32_t { none, plus_x, minus_x, plus_y, minus_y };

//! Inside (kept) when |x| <= half_x and |y| <= half_y (rectangle), or (x/half_x)^2 + (y/half_y)^2 <= 1
//! (ellipse): the boundary itself is inside. An infinite half-size leaves that plane open. With an open
//! side, a particle outside the shape is still kept when it is on that side of the axis and strictly within
//! the other plane's half-size (open +x: 0 < x, |y| < half_y), as ELEGANT's evaluateLostWithOpenSides
//! decides (src/limit_amplitudes.c; it loses an infinite or NaN coordinate first, so must this: x <=
//! DBL_MAX). A rectangle open at +x so keeps x >= -half_x, |y| < half_y (and |y| = half_y where x <= half_x).
struct Aperture {
    double half_x;      //!< [m]
    double half_y;      //!< [m]
    double inv_half_x;  //!< [1/m]
    double inv_half_y;  //!< [1/m]
    ApertureShape shape;
    ApertureSide open_side;  //!< in the padding after shape: the struct's size is unchanged

    static Aperture make(ApertureShape shape, double half_x, double half_y,
                         ApertureSide open_side = ApertureSide::none)
    {
        return Aperture{half_x, half_y, 1.0 / half_x, 1.0 / half_y, shape, open_side};
    }

    //! One particle or a block of lanes (LaneMask.hh): returns the particles of `live` inside.
    template <class P, class M = bool>
    GT_HOST_DEVICE GT_FORCEINLINE auto operator()(P& p, M live = true) const
    {
        auto const in = shape_holds(p, live);
        switch (open_side) {
            case ApertureSide::plus_x:
                return in || (live && (p.x > 0.0) && (p.x <= DBL_MAX) && (p.y < half_y) && (p.y > -half_y));
            case ApertureSide::minus_x:
                return in || (live && (p.x < 0.0) && (p.x >= -DBL_MAX) && (p.y < half_y) && (p.y > -half_y));
            case ApertureSide::plus_y:
                return in || (live && (p.y > 0.0) && (p.y <= DBL_MAX) && (p.x < half_x) && (p.x > -half_x));
            case ApertureSide::minus_y:
                return in || (live && (p.y < 0.0) && (p.y >= -DBL_MAX) && (p.x < half_x) && (p.x > -half_x));
            default:
                return in;
        }
    }

  private:
    template <class P, class M>
    GT_HOST_DEVICE GT_FORCEINLINE auto shape_holds(P& p, M live) const
    {
        if (shape == ApertureShape::rectangle)
            return live && p.x <= half_x && p.x >= -half_x && p.y <= half_y && p.y >= -half_y;  // NaN: false
        coordinate_t<P> const u = p.x * inv_half_x;
        coordinate_t<P> const v = p.y * inv_half_y;
        return live && u * u + v * v <= 1.0;
    }
};

}  // namespace gt
