// The space-charge kick of one particle from the rest-frame field at its position.
//
// In the lab the bunch's field is E_perp = gamma E'_perp, E_z = E'_z and B = beta/c z x E; the
// magnetic force cancels all but 1/gamma^2 of the transverse electric one:
//   dP_x/dt = q (E_x - v B_y) = q E_x / gamma^2 = q E'_x / gamma,
// and over ds = beta c dt, with px = P_x / p_ref and p_ref = beta gamma m c:
//   dpx = q E'_x ds / (m c^2 beta^2 gamma^2),    dpt = -q E'_z ds / (p_ref c)
// (BeamFrame::transverse_kick, longitudinal_kick; docs/physics.md section 6.4).
#pragma once

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"

namespace gt {

struct SpaceChargeKick {
    ParticleView p;
    double const* fx;  //!< rest-frame field at each particle [V/m]
    double const* fy;
    double const* fz;
    double transverse;    //!< BeamFrame::transverse_kick(ds) [m/V]
    double longitudinal;  //!< BeamFrame::longitudinal_kick(ds) [m/V]

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        if (!p.alive(i)) return;
        p.px[i] += transverse * fx[i];
        p.py[i] += transverse * fy[i];
        p.pt[i] += longitudinal * fz[i];
    }
};

}  // namespace gt
