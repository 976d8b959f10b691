// What the energy-loss and scattering models need to know of a material (device-ready).
#pragma once

#include "kernels/core/Macros.hh"

namespace gt {

struct MaterialParams {
    double density = 0;           //!< [kg/m^3]
    double z_over_a = 0;          //!< <Z/A> [mol/g]
    double mean_excitation = 0;   //!< I [MeV]
    double radiation_length = 0;  //!< X0 [m]; HUGE_VAL for vacuum
    //! Sternheimer density-effect parameters (Sternheimer, Berger & Seltzer, At. Data Nucl. Data
    //! Tables 30 (1984) 261): delta(x = log10 beta gamma).
    double x0 = 0, x1 = 0, a = 0, k = 0, cbar = 0, delta0 = 0;
    //! Molière's theory of multiple scattering (MoliereScattering.hh), averaged over the elements with
    //! the weights w_i Z_i (Z_i + 1) / A_i (w_i: mass fractions): sum w_i Z_i (Z_i + 1) / A_i [mol/g],
    //! and the weighted means of ln Z^(2/3) and of Z^2 (the screening angle's Coulomb correction).
    double msc_zz1_over_a = 0, msc_ln_z23 = 0, msc_z2 = 0;
    GT_HOST_DEVICE bool vacuum() const { return density <= 0; }
};

}  // namespace gt
