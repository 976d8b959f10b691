// Ionization by electrons (Moller) and positrons (Bhabha): the restricted collision stopping power
// below the delta-ray production threshold, the cross section for delta rays above it, and the
// sampling of a delta ray.
//
// Restricted stopping power (Geant4 Physics Reference Manual, "Ionisation: continuous energy loss";
// Berger & Seltzer, ICRU Report 37 eqs. 2.2-2.4 for the unrestricted limit):
//   dE/dx = 2 pi r_e^2 m c^2 n_el / beta^2 [ ln(2 (tau+2) / (I/mc^2)^2) + F(tau, D) - delta ],
//   e-: F = -1 - beta^2 + ln((tau-D) D) + tau/(tau-D) + [D^2/2 + (2 tau+1) ln(1 - D/tau)] / gamma^2,
//       D = min(T_cut, T/2) / mc^2,
//   e+: F = ln(tau D) - beta^2/tau [tau + 2D - 3 D^2 y/2 - (D - D^3/3) y^2 - (D^2/2 - tau D^3/3 + D^4/4)
//   y^3],
//       D = min(T_cut, T) / mc^2, y = 1/(1+gamma);
// with D at its maximum these are exactly the unrestricted Berger-Seltzer formulas of BetheBloch.hh.
// Delta-ray cross sections: Moller (Ann. Phys. 14 (1932) 531) and Bhabha (Proc. R. Soc. A 154 (1936)
// 195) integrated from x = T_cut/T to the kinematic limit (1/2 for e-, 1 for e+), per electron; the
// delta energy is sampled from 1/x^2 with rejection on the rest of the differential cross section
// (Geant4 PRM); directions from two-body kinematics.
#pragma once

#include "kernels/core/RandomStream.hh"
#include "kernels/physics/BetheBloch.hh"
#include "kernels/physics/DirectionRotation.hh"
#include "kernels/physics/EmConstants.hh"

namespace gt {

//! Restricted collision stopping power of e- (positron = false) or e+ of kinetic energy T [MeV],
//! energy transfers below t_cut [MeV] [MeV/m].
GT_HOST_DEVICE inline double restricted_electron_dedx(MaterialParams const& m, bool positron, double T,
                                                      double t_cut)
{
    if (m.density <= 0 || T <= 0) return 0.0;
    double const tau = T / em::k_me;
    double const gamma = tau + 1.0;
    double const gamma2 = gamma * gamma;
    double const beta2 = tau * (tau + 2.0) / gamma2;
    double const i_rel = m.mean_excitation / em::k_me;
    double f = 0;
    if (!positron) {
        double const d_max = 0.5 * tau, d_cut = t_cut / em::k_me;
        double const d = d_cut < d_max ? d_cut : d_max;
        f = -1.0 - beta2 + pmath::log((tau - d) * d) + tau / (tau - d) +
            (0.5 * d * d + (2.0 * tau + 1.0) * pmath::log(1.0 - d / tau)) / gamma2;
    } else {
        double const d_cut = t_cut / em::k_me;
        double const d = d_cut < tau ? d_cut : tau;
        double const y = 1.0 / (1.0 + gamma);
        double const d2 = d * d, d3 = d2 * d, d4 = d3 * d;
        f = pmath::log(tau * d) - beta2 / tau *
                                      (tau + 2.0 * d - 1.5 * d2 * y - (d - d3 / 3.0) * y * y -
                                       (0.5 * d2 - tau * d3 / 3.0 + 0.25 * d4) * y * y * y);
    }
    double const bracket = pmath::log(2.0 * (tau + 2.0) / (i_rel * i_rel)) + f -
                           density_effect(m, pmath::sqrt(tau * (tau + 2.0)));
    double const v = 0.5 * eloss::k_K / beta2 * bracket;  // [MeV cm^2/g per Z/A]
    return v > 0 ? v * 100.0 * m.density * 1.0e-3 * m.z_over_a : 0.0;
}

//! Cross section per atomic electron for a delta ray above t_cut [MeV] [m^2].
GT_HOST_DEVICE inline double delta_ray_per_electron(bool positron, double T, double t_cut)
{
    double const x_max = positron ? 1.0 : 0.5;
    double const x_min = t_cut / T;
    if (x_min >= x_max) return 0.0;
    double const gamma = T / em::k_me + 1.0;
    double const gamma2 = gamma * gamma;
    double const beta2 = 1.0 - 1.0 / gamma2;
    double const c = em::k_two_pi * em::k_me * em::k_re * em::k_re / T;
    if (!positron) {
        double const gg = (2.0 * gamma - 1.0) / gamma2;
        double const v =
            ((x_max - x_min) * (1.0 - gg + 1.0 / (x_min * x_max) + 1.0 / ((1.0 - x_min) * (1.0 - x_max))) -
             gg * pmath::log(x_max * (1.0 - x_min) / (x_min * (1.0 - x_max)))) /
            beta2;
        return v > 0 ? c * v : 0.0;
    }
    double const y = 1.0 / (1.0 + gamma);
    double const y2 = y * y, y12 = 1.0 - 2.0 * y;
    double const b1 = 2.0 - y2, b2 = y12 * (3.0 + y2);
    double const y122 = y12 * y12;
    double const b4 = y122 * y12, b3 = b4 + y122;
    double const v = (x_max - x_min) * (1.0 / (beta2 * x_min * x_max) + b2 - 0.5 * b3 * (x_min + x_max) +
                                        b4 * (x_min * x_min + x_min * x_max + x_max * x_max) / 3.0) -
                     b1 * pmath::log(x_max / x_min);
    return v > 0 ? c * v : 0.0;
}

struct DeltaRayResult {
    double primary_energy;  //!< kinetic, after [MeV]
    Vec3 primary_dir;
    double delta_energy;  //!< [MeV]
    Vec3 delta_dir;
};

//! Samples a delta ray above t_cut from an e-/e+ of kinetic energy T [MeV] along dir.
GT_HOST_DEVICE inline DeltaRayResult sample_delta_ray(bool positron, double T, double t_cut, Vec3 dir,
                                                      RandomStream& rng)
{
    double const x_max = positron ? 1.0 : 0.5;
    double const x_min = t_cut / T;
    double const gamma = T / em::k_me + 1.0;
    double const gamma2 = gamma * gamma;
    double const beta2 = 1.0 - 1.0 / gamma2;
    double x = x_min;
    if (!positron) {
        double const gg = (2.0 * gamma - 1.0) / gamma2;
        double const y_max = 1.0 - x_max;
        double const grej =
            1.0 - gg * x_max + x_max * x_max * (1.0 - gg + (1.0 - gg * y_max) / (y_max * y_max));
        for (;;) {
            double const q = rng.uniform();
            x = x_min * x_max / (x_min * (1.0 - q) + x_max * q);
            double const y = 1.0 - x;
            double const z = 1.0 - gg * x + x * x * (1.0 - gg + (1.0 - gg * y) / (y * y));
            if (z >= grej * rng.uniform()) break;
        }
    } else {
        double const y = 1.0 / (1.0 + gamma);
        double const y2 = y * y, y12 = 1.0 - 2.0 * y;
        double const b1 = 2.0 - y2, b2 = y12 * (3.0 + y2);
        double const y122 = y12 * y12;
        double const b4 = y122 * y12, b3 = b4 + y122;
        // an upper bound of z(x): the positive terms at x_max, the negative ones at x_min
        double const xx = x_max * x_max;
        double const grej = 1.0 + (xx * xx * b4 - x_min * x_min * x_min * b3 + xx * b2 - x_min * b1) * beta2;
        for (;;) {
            double const q = rng.uniform();
            x = x_min * x_max / (x_min * (1.0 - q) + x_max * q);
            double const x2 = x * x;
            double const z = 1.0 + (x2 * x2 * b4 - x * x2 * b3 + x2 * b2 - x * b1) * beta2;
            if (z >= grej * rng.uniform()) break;
        }
    }
    DeltaRayResult r;
    r.delta_energy = x * T;
    r.primary_energy = T - r.delta_energy;
    // two-body kinematics on an electron at rest
    double const p_delta = pmath::sqrt(r.delta_energy * (r.delta_energy + 2.0 * em::k_me));
    double const p_total = pmath::sqrt(T * (T + 2.0 * em::k_me));
    double cos_theta = r.delta_energy * (T + 2.0 * em::k_me) / (p_delta * p_total);
    cos_theta = cos_theta > 1.0 ? 1.0 : cos_theta;
    r.delta_dir = rotated(dir, cos_theta, em::k_two_pi * rng.uniform());
    Vec3 const p_out = axpy(-p_delta, r.delta_dir, p_total * dir);
    double const n = norm(p_out);
    r.primary_dir = n > 0 ? (1.0 / n) * p_out : dir;
    return r;
}

}  // namespace gt
