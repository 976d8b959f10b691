// Basic scalar types and physical constants shared by host and device code.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gt {

using real = double;  //!< state precision: double everywhere unless a validated opt-in says otherwise
using size_type = std::size_t;

namespace constants {
// CODATA 2018 (exact where SI 2019 fixes them).
inline constexpr double c_light = 299792458.0;                 //!< [m/s]
inline constexpr double e_charge = 1.602176634e-19;            //!< [C]
inline constexpr double eps0 = 8.8541878128e-12;               //!< [F/m]
inline constexpr double mu0 = 1.25663706212e-6;                //!< [H/m]
inline constexpr double pi = 3.14159265358979323846;
inline constexpr double two_pi = 6.28318530717958647692;
inline constexpr double electron_mass_mev = 0.51099895000;     //!< [MeV]
inline constexpr double proton_mass_mev = 938.27208816;        //!< [MeV]
inline constexpr double muon_mass_mev = 105.6583755;           //!< [MeV] PDG 2022
inline constexpr double pion_mass_mev = 139.57039;             //!< [MeV] charged pion, PDG 2022
inline constexpr double amu_mev = 931.49410242;                //!< [MeV] atomic mass unit
}  // namespace constants

}  // namespace gt
