// Bremsstrahlung of electrons and positrons in the field of nuclei and atomic electrons.
//
// Differential cross section: Bethe-Heitler with screening in the form of Butcher & Messel
// (Nucl. Phys. 20 (1960) 15; the EGS4 manual, SLAC-265, eq. 2.7.14), per atom of atomic number Z,
// for an electron of total energy E emitting a photon of energy k (y = k/E):
//   k dsigma/dk = alpha r_e^2 Z (Z + xi(Z)) { [1 + (1-y)^2] (Phi1(delta) - F(Z)/2)
//                                              - (2/3)(1-y) (Phi2(delta) - F(Z)/2) },
//   delta = 136 m_e k / (Z^(1/3) E (E - k)), F(Z) = 8/3 ln Z + 8 f_c(Z) (f_c above 50 MeV only),
// with the screening functions Phi1, Phi2 and f_c of PairProduction.hh; xi(Z) = ln(1440 Z^(-2/3)) /
// (ln(183 Z^(-1/3)) - f_c) adds the atomic electrons (Tsai, Rev. Mod. Phys. 46 (1974) 815). In complete
// screening it integrates to E/X0 with Tsai's radiation length (tested). It is the Born
// approximation: no Elwert factor or low-energy correction (it overestimates the radiative loss
// below a few MeV, where the radiative loss is small against the collision loss), no dielectric
// (Ter-Mikaelian) or LPM suppression (relevant above ~100 GeV in lead). Photons are sampled from
// 1/k between the production threshold and T with rejection on the bracket; their polar angle
// follows Tsai's approximation as for pair production.
#pragma once

#include "kernels/core/RandomStream.hh"
#include "kernels/physics/PairProduction.hh"

namespace gt {

//! xi(Z): the atomic electrons' share, Z(Z + xi) instead of Z^2.
GT_HOST_DEVICE inline double electron_field_xi(double z)
{
    double const z13 = pmath::exp(pmath::log(z) / 3.0);
    return pmath::log(1440.0 / (z13 * z13)) / (pmath::log(183.0 / z13) - coulomb_correction(z));
}

//! The bracket { ... } above (>= 0) for an electron of total energy E emitting k, both [MeV].
GT_HOST_DEVICE inline double brems_bracket(double z, double E, double k)
{
    double const z13 = pmath::exp(pmath::log(z) / 3.0);
    double const y = k / E;
    double const half_f = 4.0 / 3.0 * pmath::log(z) + (E > 50.0 ? 4.0 * coulomb_correction(z) : 0.0);
    double const delta = 136.0 * em::k_me * k / (z13 * E * (E - k));
    Screening const s = screening_functions(delta);
    double const t1 = s.phi1 - half_f > 0 ? s.phi1 - half_f : 0.0;
    double const t2 = s.phi2 - half_f > 0 ? s.phi2 - half_f : 0.0;
    double const v = (1.0 + (1.0 - y) * (1.0 - y)) * t1 - 2.0 / 3.0 * (1.0 - y) * t2;
    return v > 0 ? v : 0.0;
}

//! k dsigma/dk per atom [m^2] for an e+- of kinetic energy T emitting k, both [MeV].
GT_HOST_DEVICE inline double brems_k_dsigma_dk(double z, double T, double k)
{
    if (k <= 0 || k >= T) return 0.0;
    double const E = T + em::k_me;
    return em::k_alpha * em::k_re * em::k_re * z * (z + electron_field_xi(z)) * brems_bracket(z, E, k);
}

struct BremsResult {
    double photon_energy;  //!< [MeV]
    Vec3 photon_dir;
    double lepton_energy;  //!< kinetic, after [MeV]
};

//! Samples a photon above k_cut from an e+- of kinetic energy T along dir, target z.
GT_HOST_DEVICE inline BremsResult sample_bremsstrahlung(double z, double T, double k_cut, Vec3 dir,
                                                        RandomStream& rng)
{
    double const E = T + em::k_me;
    // the bracket is largest at k -> 0 (delta -> 0, y -> 0)
    double const half_f = 4.0 / 3.0 * pmath::log(z) + (E > 50.0 ? 4.0 * coulomb_correction(z) : 0.0);
    Screening const s0 = screening_functions(0.0);
    double const gmax = 2.0 * (s0.phi1 - half_f) - 2.0 / 3.0 * (s0.phi2 - half_f);
    double const log_ratio = pmath::log(T / k_cut);
    double k = k_cut;
    for (;;) {
        k = k_cut * pmath::exp(log_ratio * rng.uniform());
        if (brems_bracket(z, E, k) >= gmax * rng.uniform()) break;
    }
    BremsResult r;
    r.photon_energy = k;
    r.lepton_energy = T - k;
    // one draw after the other: the order of a call's arguments is unspecified (g++ and nvcc differ)
    double const cos_theta = sample_lepton_cos_theta(E, rng);
    double const phi = em::k_two_pi * rng.uniform();
    r.photon_dir = rotated(dir, cos_theta, phi);
    return r;
}

}  // namespace gt
