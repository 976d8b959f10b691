// The beam rest frame of a space-charge kick: the boost, the species and the macroparticle charge,
// and the change of coordinates between the lab phase space and rest-frame positions.
//
// At fixed s, a particle with t = c (t_arrival - t_ref) > 0 arrives later, so at the reference's
// arrival time it is a distance beta c (t_arrival - t_ref) = beta t *behind* the reference:
// z_lab = -beta t (the Xsuite zeta). Lengths along the boost are gamma times longer in the rest
// frame, so z_rest = gamma z_lab = -beta gamma t. Transverse positions are unchanged. (Exact to
// first order in the momentum spread, as in ImpactX; docs/physics.md section 6.)
#pragma once

#include "kernels/core/Macros.hh"
#include "kernels/core/Types.hh"

namespace gt {

struct BeamFrame {
    double gamma = 1;         //!< [1] of the reference particle
    double beta = 0;          //!< [1] of the reference particle
    double charge = 0;        //!< [C] charge of one particle of the species (signed)
    double mass = 0;          //!< [kg] rest mass of one particle of the species
    double macro_charge = 0;  //!< [C] charge of one macroparticle (signed, same sign as `charge`)

    //! z_rest = rest_z * t.
    GT_HOST_DEVICE double rest_z() const { return -beta * gamma; }

    //! The momentum changes per unit rest-frame field [1/(V/m)] of a kick of length ds [m]:
    //! transverse dpx = transverse * E'_x, longitudinal dpt = longitudinal * E'_z (docs/physics.md 6.4):
    //!   dpx = q E'_x ds / (m c^2 beta^2 gamma^2)   (lab E_x = gamma E'_x, B_y = beta E_x / c: 1/gamma^2)
    //!   dpt = -q E'_z ds / (p_ref c)               (E_z = E'_z; the energy gain is q E_z ds)
    double transverse_kick(double ds) const
    {
        double const mc2 = mass * constants::c_light * constants::c_light;
        return charge * ds / (mc2 * beta * beta * gamma * gamma);
    }
    double longitudinal_kick(double ds) const
    {
        double const pc = mass * constants::c_light * constants::c_light * beta * gamma;
        return -charge * ds / pc;
    }
};

}  // namespace gt
