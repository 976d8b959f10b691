// Thin aperture: rectangle or ellipse; a particle outside (or with a NaN position) is lost.
#pragma once

#include <cstdint>

#include "kernels/core/LaneMask.hh"
#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"

namespace gt {

enum class ApertureShape : std::int32_t { rectangle, ellipse };

//! Inside (kept) when |x| <= half_x and |y| <= half_y (rectangle), or (x/half_x)^2 + (y/half_y)^2 <= 1
//! (ellipse): the boundary itself is inside. An infinite half-size leaves that plane open.
struct Aperture {
    double half_x;      //!< [m]
    double half_y;      //!< [m]
    double inv_half_x;  //!< [1/m]
    double inv_half_y;  //!< [1/m]
    ApertureShape shape;

    static Aperture make(ApertureShape shape, double half_x, double half_y)
    {
        return Aperture{half_x, half_y, 1.0 / half_x, 1.0 / half_y, shape};
    }

    //! One particle or a block of lanes (LaneMask.hh): returns the particles of `live` inside.
    template <class P, class M = bool>
    GT_HOST_DEVICE GT_FORCEINLINE auto operator()(P& p, M live = true) const
    {
        if (shape == ApertureShape::rectangle)
            return live && p.x <= half_x && p.x >= -half_x && p.y <= half_y && p.y >= -half_y;  // NaN: false
        coordinate_t<P> const u = p.x * inv_half_x;
        coordinate_t<P> const v = p.y * inv_half_y;
        return live && u * u + v * v <= 1.0;
    }
};

}  // namespace gt
