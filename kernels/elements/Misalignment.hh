// Misalignment of any element: transverse offset (dx, dy) and roll (tilt) about the s axis.
#pragma once

#include <cmath>

#include "kernels/core/LaneMask.hh"
#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"

namespace gt {

//! The element is displaced by (dx, dy) and rolled by tilt (a right-handed rotation about +s: a
//! positive tilt turns the element's x axis towards +y, as MAD-X TILT). Entering: x -= dx, y -= dy, then
//! rotate positions and momenta by -tilt into the element frame; leaving: the inverse. Both are symplectic (a
//! shift and a rotation of each conjugate pair together). Reference: MAD-X user guide, "Misalignments". A
//! centred particle in a quadrupole shifted by dx > 0 sees x_e = -dx: kick px += k1 L dx, towards the
//! magnetic centre.
struct Misalignment {
    double dx;        //!< [m]
    double dy;        //!< [m]
    double tilt;      //!< [rad]
    double cos_tilt;  //!< [1]
    double sin_tilt;  //!< [1]

    static Misalignment make(double dx, double dy, double tilt)
    {
        return Misalignment{dx, dy, tilt, std::cos(tilt), std::sin(tilt)};
    }

    //! One particle or the particles of `live` in a block of lanes (LaneMask.hh).
    template <class P, class M = bool>
    GT_HOST_DEVICE GT_FORCEINLINE void enter(P& p, M live = true) const
    {
        using T = coordinate_t<P>;
        T const x = p.x - dx, y = p.y - dy;
        T const px = p.px, py = p.py;
        where(live, p.x, cos_tilt * x + sin_tilt * y);
        where(live, p.y, -sin_tilt * x + cos_tilt * y);
        where(live, p.px, cos_tilt * px + sin_tilt * py);
        where(live, p.py, -sin_tilt * px + cos_tilt * py);
    }

    template <class P, class M = bool>
    GT_HOST_DEVICE GT_FORCEINLINE void leave(P& p, M live = true) const
    {
        using T = coordinate_t<P>;
        T const x = p.x, y = p.y, px = p.px, py = p.py;
        where(live, p.x, cos_tilt * x - sin_tilt * y + dx);
        where(live, p.y, sin_tilt * x + cos_tilt * y + dy);
        where(live, p.px, cos_tilt * px - sin_tilt * py);
        where(live, p.py, sin_tilt * px + cos_tilt * py);
    }
};

}  // namespace gt
