// Constants of the electromagnetic shower physics (CODATA 2018, as in the PDG 2022 tables).
#pragma once

#include "kernels/core/Types.hh"

namespace gt::em {

inline constexpr double k_me = constants::electron_mass_mev;  //!< [MeV]
inline constexpr double k_alpha = 7.2973525693e-3;            //!< fine-structure constant
inline constexpr double k_re = 2.8179403262e-15;              //!< classical electron radius [m]
inline constexpr double k_barn = 1.0e-28;                     //!< [m^2]
inline constexpr double k_avogadro = 6.02214076e23;           //!< [1/mol]
inline constexpr double k_pi = constants::pi;
inline constexpr double k_two_pi = constants::two_pi;

}  // namespace gt::em
