// Mean collision energy loss: Bethe-Bloch with the density effect for heavy charged particles,
// Berger-Seltzer for electrons and positrons.
//
// Heavy particles: PDG Review of Particle Physics (2022), "Passage of particles through matter",
// eq. 34.5 with T_max of eq. 34.4 and the Sternheimer density correction, eq. 34.7 (parameters as
// in Sternheimer, Berger & Seltzer 1984). No shell, Barkas or Bloch corrections: the formula is
// good to a few percent for 0.1 <~ beta gamma <~ 1000. Below beta gamma = 0.05 (where it fails)
// the loss is scaled as sqrt(T) from its value there (an electronic-stopping-like fall-off).
//
// Electrons and positrons: ICRU Report 37 (1984) eqs. 2.2-2.4 (Berger & Seltzer): the total
// collision stopping power with Moller / Bhabha F(tau), and the same density correction.
#pragma once

#include "kernels/core/PortableMath.hh"
#include "kernels/core/Types.hh"
#include "kernels/physics/MaterialParams.hh"
#include "kernels/physics/ParticleType.hh"

namespace gt {

namespace eloss {
inline constexpr double k_K = 0.307075;  //!< 4 pi N_A r_e^2 m_e c^2 [MeV mol^-1 cm^2], PDG 2022
inline constexpr double k_ln10 = 2.30258509299404568402;
inline constexpr double k_ln2 = 0.69314718055994530942;
inline constexpr double k_me = constants::electron_mass_mev;
inline constexpr double k_min_betagamma = 0.05;
}  // namespace eloss

//! Sternheimer's density-effect correction delta at beta gamma.
GT_HOST_DEVICE inline double density_effect(MaterialParams const& m, double betagamma)
{
    double const x = pmath::log(betagamma) / eloss::k_ln10;
    if (x >= m.x1) return 2.0 * eloss::k_ln10 * x - m.cbar;
    if (x >= m.x0) {
        double const tail = m.a * pmath::exp(m.k * pmath::log(m.x1 - x));
        return 2.0 * eloss::k_ln10 * x - m.cbar + tail;
    }
    if (m.delta0 > 0) return m.delta0 * pmath::exp(2.0 * eloss::k_ln10 * (x - m.x0));
    return 0.0;
}

//! Maximum energy transfer to a free electron (PDG eq. 34.4) [MeV].
GT_HOST_DEVICE inline double max_energy_transfer(double mass, double betagamma2, double gamma)
{
    double const r = eloss::k_me / mass;
    return 2.0 * eloss::k_me * betagamma2 / (1.0 + 2.0 * gamma * r + r * r);
}

//! Mean collision stopping power -dE/dx of a particle of kinetic energy T [MeV] [MeV/m].
GT_HOST_DEVICE inline double mean_dedx(MaterialParams const& m, ParticleType const& pt, double T)
{
    if (m.density <= 0 || pt.charge == 0 || T <= 0) return 0.0;
    double const rho_gcm3 = m.density * 1.0e-3;
    double const to_per_m = 100.0 * rho_gcm3 * m.z_over_a;  // (MeV cm^2/g per Z/A) -> MeV/m
    if (pt.is_electron) {
        double const tau = T / eloss::k_me;
        double const gamma = tau + 1.0;
        double const beta2 = tau * (tau + 2.0) / (gamma * gamma);
        double const betagamma = pmath::sqrt(tau * (tau + 2.0));
        double const i_rel = m.mean_excitation / eloss::k_me;
        double f = 0;
        if (pt.charge < 0) {
            f = 1.0 - beta2 + (tau * tau / 8.0 - (2.0 * tau + 1.0) * eloss::k_ln2) / (gamma * gamma);
        } else {
            double const y = 1.0 / (tau + 2.0);
            f = 2.0 * eloss::k_ln2 - beta2 / 12.0 * (23.0 + 14.0 * y + 10.0 * y * y + 4.0 * y * y * y);
        }
        double const bracket =
            pmath::log(tau * tau * (tau + 2.0) / (2.0 * i_rel * i_rel)) + f - density_effect(m, betagamma);
        double const v = 0.5 * eloss::k_K / beta2 * bracket;
        return v > 0 ? v * to_per_m : 0.0;
    }
    double const z2 = pt.charge * pt.charge;
    double const t_low = pt.mass * (pmath::sqrt(1.0 + eloss::k_min_betagamma * eloss::k_min_betagamma) - 1.0);
    double const T_eval = T < t_low ? t_low : T;
    double const gamma = 1.0 + T_eval / pt.mass;
    double const betagamma2 = gamma * gamma - 1.0;
    double const beta2 = betagamma2 / (gamma * gamma);
    double const tmax = max_energy_transfer(pt.mass, betagamma2, gamma);
    double const i = m.mean_excitation;
    double const bracket = 0.5 * pmath::log(2.0 * eloss::k_me * betagamma2 * tmax / (i * i)) - beta2 -
                           0.5 * density_effect(m, pmath::sqrt(betagamma2));
    double v = eloss::k_K * z2 / beta2 * bracket;
    if (v < 0) v = 0;
    if (T < t_low) v *= pmath::sqrt(T / t_low);
    return v * to_per_m;
}

}  // namespace gt
