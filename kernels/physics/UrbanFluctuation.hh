// Energy-loss fluctuations of Urban's model (Geant4's G4UniversalFluctuation), written from the
// formulas of the Geant4 Physics Reference Manual, "Energy loss fluctuations" / "Fluctuations in
// thin absorbers" (L. Urban, CERN-OPEN-2006-077); no Geant4 code is used.
//
// The atom has two excitation levels E1, E2 with oscillator strengths f1, f2 (f2 = 2/Z_eff, or 0 for
// Z_eff <= 2; f1 = 1 - f2; E2 = 10 Z_eff^2 eV; f1 ln E1 + f2 ln E2 = ln I), and ionizing collisions
// whose energy transfer E follows g(E) = I T_up / (T_up - I) / E^2 on [I, T_up] (T_up: the largest
// continuous transfer, here the delta-ray threshold). Over a step whose mean restricted loss is D,
// the mean numbers of collisions are (r = 0.4, the share of ionization in the loss)
//   a_i = D (1 - r) f_i / E_i (w - ln E_i) / (w - ln I),  w = ln(2 m_e c^2 beta^2 gamma^2) - beta^2,
//   a_3 = D r (T_up - I) / (I T_up ln(T_up / I)),
// so that a1 E1 + a2 E2 + a3 <E> = D exactly: the model keeps the mean and gives the shape. Each
// number is Poisson; the loss is n1 E1 + n2 E2 + the sum of n3 transfers sampled from g. When a_3 is
// large the transfers below alpha I (alpha chosen so that 16 collisions are expected above it) are
// summed as one Gaussian with the compound-Poisson moments of g on [I, alpha I] (mean
// alpha I ln(alpha) / (alpha - 1), second moment alpha I^2), the 16 above it one by one; Poisson
// numbers above 16 are Gaussian. Variance of the loss: a1 E1^2 + a2 E2^2 + a3 I T_up; for thick
// layers it approaches Bohr's (tests/EnergyLossFluctuationTest.cc).
#pragma once

#include "kernels/core/RandomStream.hh"
#include "kernels/core/Types.hh"

namespace gt {

//! A material's constants of the model (from its composition, src/detector/EmTableBuilder.cc).
struct UrbanMaterial {
    double ipot = 0;  //!< mean excitation energy I [MeV]
    double f2 = 0;    //!< oscillator strength of the upper level (f1 = 1 - f2)
    double e1 = 0;    //!< lower level [MeV]
    double e2 = 0;    //!< upper level [MeV]
    double log_e1 = 0, log_e2 = 0, log_ipot = 0;
};

namespace urban {
inline constexpr double k_rate = 0.4;         //!< share of ionization in the loss (Geant4's "rate")
inline constexpr double k_min_loss = 1.0e-5;  //!< below 10 eV the mean is returned [MeV]
inline constexpr double k_n_max = 16.0;       //!< Poisson numbers above this are Gaussian
}  // namespace urban

//! The constants for a material of effective atomic number z_eff (mass-fraction weighted) and mean
//! excitation energy I [MeV].
inline UrbanMaterial make_urban_material(double z_eff, double ipot)
{
    UrbanMaterial m;
    m.ipot = ipot;
    m.f2 = z_eff > 2.0 ? 2.0 / z_eff : 0.0;
    m.e2 = 1.0e-5 * z_eff * z_eff;  // 10 Z^2 eV
    m.log_ipot = pmath::log(ipot);
    m.log_e2 = pmath::log(m.e2);
    m.log_e1 = (m.log_ipot - m.f2 * m.log_e2) / (1.0 - m.f2);
    m.e1 = pmath::exp(m.log_e1);
    return m;
}

//! The mean collision numbers a1, a2, a3 of a step with mean loss `mean` [MeV], for a particle of
//! beta^2 gamma^2 = bg2 and beta^2, with the largest transfer t_up [MeV]. False where the model does
//! not apply (t_up <= I, or a particle too slow to excite): the mean is then the loss.
struct UrbanCollisions {
    double a1 = 0, a2 = 0, a3 = 0;
};

GT_HOST_DEVICE inline bool urban_collisions(UrbanMaterial const& m, double mean, double bg2, double beta2,
                                            double t_up, UrbanCollisions& c)
{
    if (mean < urban::k_min_loss || t_up <= m.ipot || m.ipot <= 0) return false;
    double const w = pmath::log(2.0 * constants::electron_mass_mev * bg2) - beta2;
    double const exc = mean * (1.0 - urban::k_rate);
    if (w > m.log_e2) {
        double const cc = exc / (w - m.log_ipot);
        c.a1 = cc * (1.0 - m.f2) * (w - m.log_e1) / m.e1;
        c.a2 = cc * m.f2 * (w - m.log_e2) / m.e2;
    } else {
        // too slow to reach the upper level: all excitations on the lower one (the same mean)
        c.a1 = exc / m.e1;
        c.a2 = 0;
    }
    c.a3 = mean * urban::k_rate * (t_up - m.ipot) / (m.ipot * t_up * pmath::log(t_up / m.ipot));
    return true;
}

//! Poisson number of mean lambda (inversion for lambda <= 16, else Gaussian), as a double.
GT_HOST_DEVICE inline double urban_poisson(double lambda, RandomStream& rng)
{
    if (lambda <= 0) return 0.0;
    if (lambda > urban::k_n_max) {
        // rounded to the nearest integer (E[floor(x + 1/2)] = lambda for a Gaussian of width >= 4)
        double const n = floor(lambda + pmath::sqrt(lambda) * rng.normal() + 0.5);
        return n > 0 ? n : 0.0;
    }
    double const u = rng.uniform();
    double p = pmath::exp(-lambda), cum = p;
    double k = 0;
    while (u > cum && k < 200.0) {
        k += 1.0;
        p *= lambda / k;
        cum += p;
        if (p < 1.0e-300) break;  // rounding left cum short of 1: u lies in the far tail
    }
    return k;
}

//! Sum of n transfers from 1/E^2 on [lo, hi] (one uniform each).
GT_HOST_DEVICE inline double urban_transfers(double n, double lo, double hi, RandomStream& rng)
{
    double const w = (hi - lo) / hi;
    double sum = 0;
    for (double k = 0; k < n; k += 1.0) sum += lo / (1.0 - rng.uniform() * w);
    return sum;
}

//! A sampled loss [MeV] of a step with mean loss `mean` (see the top of the file).
GT_HOST_DEVICE inline double sample_urban_loss(UrbanMaterial const& m, double mean, double bg2, double beta2,
                                               double t_up, RandomStream& rng)
{
    UrbanCollisions c;
    if (!urban_collisions(m, mean, bg2, beta2, t_up, c)) return mean;
    double loss = m.e1 * urban_poisson(c.a1, rng) + m.e2 * urban_poisson(c.a2, rng);
    if (c.a3 <= 2.0 * urban::k_n_max) {
        loss += urban_transfers(urban_poisson(c.a3, rng), m.ipot, t_up, rng);
        return loss;
    }
    // alpha: 16 collisions expected above alpha I, a3 - 16 (>= 16) below it
    double const w1 = t_up / m.ipot;
    double const alpha = w1 * c.a3 / (c.a3 + (w1 - 1.0) * urban::k_n_max);
    double const lambda_a = c.a3 - urban::k_n_max;
    double const mean_a = m.ipot * alpha * pmath::log(alpha) / (alpha - 1.0);
    double const second_a = alpha * m.ipot * m.ipot;
    double const sum_a = lambda_a * mean_a + pmath::sqrt(lambda_a * second_a) * rng.normal();
    loss += sum_a > 0 ? sum_a : 0.0;
    loss += urban_transfers(urban_poisson(urban::k_n_max, rng), alpha * m.ipot, t_up, rng);
    return loss;
}

//! The model's variance of the loss [MeV^2] (a1 E1^2 + a2 E2^2 + a3 I T_up).
GT_HOST_DEVICE inline double urban_variance(UrbanMaterial const& m, double mean, double bg2, double beta2,
                                            double t_up)
{
    UrbanCollisions c;
    if (!urban_collisions(m, mean, bg2, beta2, t_up, c)) return 0.0;
    return c.a1 * m.e1 * m.e1 + c.a2 * m.e2 * m.e2 + c.a3 * m.ipot * t_up;
}

}  // namespace gt
