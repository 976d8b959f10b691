// Energy-loss straggling in the Gaussian (Bohr) regime.
//
// Variance of the energy lost over a path s (PDG 2022, section 34.2.9; Geant4 Physics Reference
// Manual, "Gaussian fluctuations"): sigma^2 = 2 pi r_e^2 m_e c^2 n_el z^2 T_max s (1 - beta^2/2) /
// beta^2 = (K/2) (Z/A) rho z^2 T_max s (1 - beta^2/2) / beta^2. The sampled loss is Gaussian about
// the mean, truncated to [0, 2 mean] as in Geant4's Gaussian model. Landau/Vavilov tails of thin
// layers are NOT modelled (docs/physics.md).
#pragma once

#include "kernels/core/RandomStream.hh"
#include "kernels/physics/BetheBloch.hh"

namespace gt {

//! Variance of the energy loss over path s [m] [MeV^2].
GT_HOST_DEVICE inline double bohr_variance(MaterialParams const& m, ParticleType const& pt, double T,
                                           double s)
{
    if (m.density <= 0 || pt.charge == 0) return 0.0;
    double const gamma = 1.0 + T / pt.mass;
    double const betagamma2 = gamma * gamma - 1.0;
    double const beta2 = betagamma2 / (gamma * gamma);
    double tmax =
        pt.is_electron ? (pt.charge < 0 ? 0.5 * T : T) : max_energy_transfer(pt.mass, betagamma2, gamma);
    double const s_cm = s * 100.0;
    return 0.5 * eloss::k_K * m.z_over_a * m.density * 1.0e-3 * pt.charge * pt.charge * tmax * s_cm *
           (1.0 - 0.5 * beta2) / beta2;
}

//! A sampled energy loss with mean `mean` [MeV].
GT_HOST_DEVICE inline double sample_energy_loss(double mean, double variance, RandomStream& rng)
{
    if (mean <= 0) return 0.0;
    double const sigma = pmath::sqrt(variance);
    double const loss = mean + sigma * rng.normal();
    if (loss < 0) return 0.0;
    return loss > 2.0 * mean ? 2.0 * mean : loss;
}

}  // namespace gt
