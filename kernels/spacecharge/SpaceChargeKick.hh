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
#include "kernels/spacecharge/FieldGather.hh"

namespace gt {

//! Gather and kick in one pass (the physics above): each live
//! particle's field at its position, then its momenta. The same operations, in the same order, as a
//! gather into arrays followed by a kick from them, so the same bits. K: FieldAt::at's stencil.
template <int K>
struct FieldKick {
    FieldAt at;
    ParticleView p;
    double transverse;    //!< BeamFrame::transverse_kick(ds) [m/V]
    double longitudinal;  //!< BeamFrame::longitudinal_kick(ds) [m/V]

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        if (!p.alive(i)) return;
        double fx, fy, fz;
        at.template at<K>(p.x[i], p.y[i], p.t[i], fx, fy, fz);
        p.px[i] += transverse * fx;
        p.py[i] += transverse * fy;
        p.pt[i] += longitudinal * fz;
    }
};

//! The other arrangement (SpaceChargeSettings::gather_in_cell_order): the field of each particle,
//! gathered in the order of the last sort (slot i holds particle order[i], so neighbouring slots read
//! neighbouring nodes) and stored at the particle's own index as one 32-byte record (a full sector
//! written at random). KickFromFields then kicks in the particles' order. The same operations on the
//! same numbers as FieldKick, so the same bits.
template <int K>
struct FieldToParticles {
    FieldAt at;
    DepositSource source;  //!< the packed positions of this kick and the order (not nullptr)
    NodeField* field;      //!< per particle, in the particles' order

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        PackedPosition const q = source[i];
        NodeField f{0.0, 0.0, 0.0, 0.0};
        if (q.lost_element < 0) at.template at<K>(q.x, q.y, q.t, f.ex, f.ey, f.ez);
        field[source.order[i]] = f;
    }
};

struct KickFromFields {
    ParticleView p;
    NodeField const* field;  //!< per particle
    double transverse;       //!< BeamFrame::transverse_kick(ds) [m/V]
    double longitudinal;     //!< BeamFrame::longitudinal_kick(ds) [m/V]

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        if (!p.alive(i)) return;
        NodeField const f = field[i];
        p.px[i] += transverse * f.ex;
        p.py[i] += transverse * f.ey;
        p.pt[i] += longitudinal * f.ez;
    }
};

}  // namespace gt
