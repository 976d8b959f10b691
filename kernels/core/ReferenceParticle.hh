// The reference particle: species and the relativistic quantities derived once from its energy (host and
// device: element kernels read it when they are made; it sits at the bottom of the layers).
#pragma once

#include <cmath>
#include <string>

#include "kernels/core/Types.hh"

namespace gt {

struct ReferenceParticle {
    double mass_mev = 0;     //!< rest energy m c^2 [MeV]
    double charge_e = 0;     //!< charge q / e (signed)
    double kinetic_mev = 0;  //!< kinetic energy [MeV]
    double gamma = 1;        //!< Lorentz factor
    double beta = 0;         //!< v / c
    double beta_gamma = 0;   //!< p / (m c)
    double pc_mev = 0;       //!< momentum times c [MeV]
    double rigidity = 0;     //!< magnetic rigidity B rho = p / |q| [T m]
    double s = 0;            //!< path length along the reference orbit [m]
    double t = 0;            //!< reference time of flight [s]

    static ReferenceParticle from_kinetic(double mass_mev, double charge_e, double kinetic_mev)
    {
        ReferenceParticle r;
        r.mass_mev = mass_mev;
        r.charge_e = charge_e;
        r.set_kinetic(kinetic_mev);
        return r;
    }

    //! Sets the energy and re-derives everything from it (keeps s and t).
    void set_kinetic(double kinetic)
    {
        kinetic_mev = kinetic;
        gamma = 1.0 + kinetic / mass_mev;
        // beta gamma from the kinetic energy directly: no cancellation at low energy.
        beta_gamma = std::sqrt(kinetic * (kinetic + 2.0 * mass_mev)) / mass_mev;
        beta = beta_gamma / gamma;
        pc_mev = beta_gamma * mass_mev;
        rigidity = charge_e != 0 ? pc_mev * 1e6 / (constants::c_light * std::abs(charge_e)) : 0.0;
    }

    double total_energy_mev() const { return gamma * mass_mev; }
};

}  // namespace gt
