// Photoelectric absorption.
//
// Cross section: between two absorption edges of an element, sigma(E) = a1/E + a2/E^2 + a3/E^3 +
// a4/E^4, the form of the Sandia tables (Biggs & Lighthill, Sandia SC-RR-710507, 1971; used by
// Geant4's G4SandiaTable). gtrack's coefficients are fitted to NIST XCOM per element
// (scripts/em/fit_photoelectric.py, within 2% of XCOM at every XCOM energy from 1 keV to 100 GeV).
// A material sums its elements' coefficients times their atom densities over the union of their
// intervals, so that its macroscopic cross section is evaluated exactly at run time, edges
// included, from a handful of multiplications (no table interpolation across an edge).
//
// Final state: the photon is absorbed; the photoelectron gets E - B, where B is the highest
// absorption edge of the material's elements below E, and B is deposited on the spot (no
// fluorescence or Auger electrons). The photoelectron's direction follows the Sauter K-shell
// distribution (F. Sauter, Ann. Phys. 11 (1931) 454), sampled as in the Geant4 Physics Reference
// Manual ("Sauter-Gavrila"); above 100 MeV of kinetic energy it goes along the photon.
#pragma once

#include "kernels/core/RandomStream.hh"
#include "kernels/physics/DirectionRotation.hh"
#include "kernels/physics/EmConstants.hh"

namespace gt {

//! One interval of the fit: from e_low up to the next interval's e_low.
struct PhotoelectricInterval {
    double e_low = 0;            //!< [MeV]
    double edge = 0;             //!< highest absorption edge at or below e_low [MeV] (the binding energy)
    double a[4] = {0, 0, 0, 0};  //!< [barn MeV^k] per atom, or [MeV^k / m] for a material
};

//! The interval holding E (the first one below its range).
GT_HOST_DEVICE inline PhotoelectricInterval const& find_photoelectric_interval(
    PhotoelectricInterval const* iv, int n, double E)
{
    int lo = 0, hi = n;  // the last interval with e_low <= E, by bisection
    while (hi - lo > 1) {
        int const mid = (lo + hi) / 2;
        if (iv[mid].e_low <= E)
            lo = mid;
        else
            hi = mid;
    }
    return iv[lo];
}

//! sum_k a_k / E^k, by Horner's rule in 1/E.
GT_HOST_DEVICE inline double photoelectric_value(PhotoelectricInterval const& iv, double E)
{
    double const u = 1.0 / E;
    double const v = u * (iv.a[0] + u * (iv.a[1] + u * (iv.a[2] + u * iv.a[3])));
    return v > 0 ? v : 0.0;
}

//! cos(theta) of a photoelectron of kinetic energy T [MeV] relative to the photon (Sauter).
GT_HOST_DEVICE inline double sample_sauter_cos_theta(double T, RandomStream& rng)
{
    double const tau = T / em::k_me;
    if (tau > 100.0 / em::k_me) return 1.0;
    double const gamma = tau + 1.0;
    double const beta = pmath::sqrt(tau * (tau + 2.0)) / gamma;
    double const A = (1.0 - beta) / beta;
    double const Ap2 = A + 2.0;
    double const B = 0.5 * beta * gamma * (gamma - 1.0) * (gamma - 2.0);
    double const grej = 2.0 * (1.0 + A * B) / A;
    double z = 0;
    for (;;) {
        double const q = rng.uniform();
        z = 2.0 * A * (2.0 * q + Ap2 * pmath::sqrt(q)) / (Ap2 * Ap2 - 4.0 * q);
        double const g = (2.0 - z) * (1.0 / (A + z) + B);
        if (g >= rng.uniform() * grej) break;
    }
    return 1.0 - z;
}

}  // namespace gt
