// Electron-positron pair production by photons in the field of nuclei and atomic electrons.
//
// Cross section per atom: the parameterization of the Geant4 Physics Reference Manual ("Gamma
// conversion into an electron-positron pair", after Hubbell, Gimm & Overbo, J. Phys. Chem. Ref.
// Data 9 (1980) 1023), sigma(Z, E) = (Z+1) Z [F1(X) + F2(X) Z + F3(X)/Z], X = ln(E / m_e c^2),
// with F1, F2, F3 fifth-order polynomials; it includes the triplet (electron-field) part. Valid
// from 1.5 MeV to 100 GeV (within 4% of XCOM for Z >= 8 there, tested); below 1.5 MeV it is
// scaled by ((E - 2 m_e)/(1.5 MeV - 2 m_e))^2, above 100 GeV held at its 100 GeV value (XCOM's
// changes by less than 1% from 100 GeV on).
//
// Energy sharing: the Bethe-Heitler differential cross section with screening and the Coulomb
// correction, in the form of Butcher & Messel, Nucl. Phys. 20 (1960) 15 (as in the Geant4 Physics
// Reference Manual): dsigma/d eps ~ [eps^2 + (1-eps)^2] (Phi1(delta) - F(Z)/2)
//   + (2/3) eps (1-eps) (Phi2(delta) - F(Z)/2), delta = 136 m_e / (Z^(1/3) E eps (1-eps)),
// F(Z) = 8/3 ln Z (+ 8 f_c(Z) above 50 MeV), f_c Davies-Bethe-Maximon. Sampled by rejection
// from a uniform eps; below 2 MeV eps is uniform. The leptons' polar angles follow Tsai's
// approximation as in Geant4 (theta = u m_e / E_lepton, u from a sum of two Gamma(2) laws),
// at opposite azimuths.
#pragma once

#include "kernels/core/RandomStream.hh"
#include "kernels/physics/DirectionRotation.hh"
#include "kernels/physics/EmConstants.hh"

namespace gt {

//! Pair production cross section per atom of atomic number z for a photon of energy E [MeV] [m^2].
GT_HOST_DEVICE inline double pair_per_atom(double z, double E)
{
    double const threshold = 2.0 * em::k_me;
    if (E <= threshold) return 0.0;
    double const e_low = 1.5, e_high = 1.0e5;  // [MeV]
    double const e_fit = E < e_low ? e_low : (E > e_high ? e_high : E);
    double const x = pmath::log(e_fit / em::k_me);
    double const f1 =
        8.7842e+2 + x * (-1.9625e+3 + x * (1.2949e+3 + x * (-2.0028e+2 + x * (1.2575e+1 + x * -2.8333e-1))));
    double const f2 =
        -1.0342e+1 + x * (1.7692e+1 + x * (-8.2381 + x * (1.3063 + x * (-9.0815e-2 + x * 2.3586e-3))));
    double const f3 =
        -4.5263e+2 + x * (1.1161e+3 + x * (-8.6749e+2 + x * (2.1773e+2 + x * (-2.0467e+1 + x * 6.5372e-1))));
    double sigma = (z + 1.0) * z * (f1 + f2 * z + f3 / z) * 1.0e-6 * em::k_barn;  // the fit is in microbarn
    if (E < e_low) {
        double const s = (E - threshold) / (e_low - threshold);
        sigma *= s * s;
    }
    return sigma > 0 ? sigma : 0.0;
}

//! The Coulomb correction f_c(Z) of Davies, Bethe & Maximon, Phys. Rev. 93 (1954) 788.
GT_HOST_DEVICE inline double coulomb_correction(double z)
{
    double const a2 = (em::k_alpha * z) * (em::k_alpha * z);
    return a2 * (1.0 / (1.0 + a2) + 0.20206 - 0.0369 * a2 + 0.0083 * a2 * a2 - 0.002 * a2 * a2 * a2);
}

//! Butcher-Messel screening functions Phi1, Phi2 of delta.
struct Screening {
    double phi1, phi2;
};
GT_HOST_DEVICE inline Screening screening_functions(double delta)
{
    if (delta <= 1.0)
        return {20.867 - 3.242 * delta + 0.625 * delta * delta,
                20.209 - 1.930 * delta - 0.086 * delta * delta};
    double const v = 21.12 - 4.184 * pmath::log(delta + 0.952);
    return {v, v};
}

struct PairResult {
    double electron_energy, positron_energy;  //!< kinetic [MeV]
    Vec3 electron_dir, positron_dir;
};

//! Polar angle cosine of a lepton of total energy e_total [MeV] (Tsai's approximation).
GT_HOST_DEVICE inline double sample_lepton_cos_theta(double e_total, RandomStream& rng)
{
    double const a = 0.625;
    double const r1 = rng.uniform(), r2 = rng.uniform(), r3 = rng.uniform();
    double const u = -pmath::log(r1 * r2) / (r3 < 0.25 ? a : 3.0 * a);
    double theta = u * em::k_me / e_total;
    if (theta > em::k_pi) theta = em::k_pi;
    return pmath::cos(theta);
}

//! Samples the pair created by a photon of energy E [MeV] along dir in the field of a nucleus z.
GT_HOST_DEVICE inline PairResult sample_pair(double E, Vec3 dir, double z, RandomStream& rng)
{
    double const eps0 = em::k_me / E;
    double eps = 0;
    if (E < 2.0) {
        eps = eps0 + (0.5 - eps0) * rng.uniform();
    } else {
        double const z13 = pmath::exp(pmath::log(z) / 3.0);
        double const half_f = 4.0 / 3.0 * pmath::log(z) + (E > 50.0 ? 4.0 * coulomb_correction(z) : 0.0);
        double const delta_min = 4.0 * 136.0 * eps0 / z13;
        Screening const smax = screening_functions(delta_min);
        double const gmax = (smax.phi1 - half_f) + (smax.phi2 - half_f) / 6.0;
        for (;;) {
            eps = eps0 + (0.5 - eps0) * rng.uniform();
            double const delta = 136.0 * eps0 / (z13 * eps * (1.0 - eps));
            Screening const s = screening_functions(delta);
            double const t1 = s.phi1 - half_f > 0 ? s.phi1 - half_f : 0.0;
            double const t2 = s.phi2 - half_f > 0 ? s.phi2 - half_f : 0.0;
            double const g =
                (eps * eps + (1.0 - eps) * (1.0 - eps)) * t1 + 2.0 / 3.0 * eps * (1.0 - eps) * t2;
            if (g >= rng.uniform() * gmax) break;
        }
    }
    if (rng.uniform() < 0.5) eps = 1.0 - eps;  // which lepton takes eps is random
    PairResult r;
    double const e_minus = eps * E, e_plus = E - e_minus;  // total energies
    r.electron_energy = e_minus - em::k_me;
    r.positron_energy = e_plus - em::k_me;
    double const phi = em::k_two_pi * rng.uniform();
    r.electron_dir = rotated(dir, sample_lepton_cos_theta(e_minus, rng), phi);
    r.positron_dir = rotated(dir, sample_lepton_cos_theta(e_plus, rng), phi + em::k_pi);
    return r;
}

}  // namespace gt
