// RF cavity: thin energy kick (buncher) or drift-kick-drift thick cavity, with reference-energy update.
#pragma once

#include <cmath>

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/PortableMath.hh"
#include "kernels/core/Types.hh"
#include "kernels/elements/Drift.hh"
#include "kernels/elements/MapSupport.hh"
#include "kernels/core/ReferenceParticle.hh"

namespace gt {

//! Phase convention (docs/physics.md): a particle crossing the gap gains
//!   dE = |q| V cos(phase + 2 pi f t / c),   t = c (t_arrival - t_ref) [m]
//! (V is the voltage as the beam sees it, like the magnet strengths: |q| makes phase = 0 the crest
//! for either sign of the charge)
//! so phase = 0 is on crest for the reference particle (t = 0), and a later particle (t > 0) sees
//! the RF phase advanced. With phase < 0 the reference rides the rising slope: later particles gain
//! more energy than earlier ones, d(dE)/dt = -q V k sin(phase) > 0, which bunches a beam below
//! transition (a linac). Only the longitudinal kick is modelled (no transverse RF focusing).
//!
//! The reference gains dE_ref = |q| V cos(phase) and coordinates are re-expressed relative to it
//! (subscript 0: reference before, 1: after). From E = E_ref - pt p_ref c, exactly:
//!   pt1 = pt0 (p0/p1) - (|q| V / (p1 c)) [cos(phase + k t) - cos(phase)]
//!   px1 = px0 (p0/p1), py1 = py0 (p0/p1)   (P_x unchanged by a longitudinal kick: adiabatic damping)
//!   t1 = t0                                 (a thin kick changes neither arrival time)
//! The map is conformally symplectic, M^T J M = (p0/p1) J, i.e. symplectic in unnormalized momenta.
//! A thick cavity of length L is: exact drift L/2 (reference 0), kick, exact drift L/2 (reference 1).
struct RfCavity {
    double length;          //!< [m] 0: thin
    double voltage;         //!< [V] peak gap voltage
    double frequency;       //!< [Hz]
    double phase;           //!< [rad] phase of the reference particle, 0 = on crest
    double k_rf;            //!< [1/m] 2 pi f / c
    double cos_phase;       //!< [1] cos(phase), computed with pmath so that the reference stays at 0
    double kick;            //!< [1] |q| V / (p1 c)
    double momentum_ratio;  //!< [1] p0 / p1
    double inv_beta0, inv_beta_gamma2_0;  //!< reference before the kick
    double inv_beta1, inv_beta_gamma2_1;  //!< reference after the kick

    //! Energy gain of the reference [MeV]; zero when |cos(phase)| < 1e-12, so that a buncher at
    //! the zero crossing (phase = -90 deg, rounded in radians) leaves the reference exactly alone.
    static double reference_gain_mev(double voltage, double phase, ReferenceParticle const& ref)
    {
        double const c = pmath::cos(phase);
        if (std::abs(c) < 1e-12) return 0.0;
        return std::abs(ref.charge_e) * voltage * 1e-6 * c;
    }

    //! `before` and `after` are the reference particle on either side of the kick.
    static RfCavity make(double length, double voltage, double frequency, double phase,
                         ReferenceParticle const& before, ReferenceParticle const& after)
    {
        RfCavity r;
        r.length = length;
        r.voltage = voltage;
        r.frequency = frequency;
        r.phase = phase;
        r.k_rf = constants::two_pi * frequency / constants::c_light;
        r.cos_phase = pmath::cos(phase);
        r.kick = std::abs(before.charge_e) * voltage * 1e-6 / after.pc_mev;
        r.momentum_ratio = before.pc_mev / after.pc_mev;
        r.inv_beta0 = 1.0 / before.beta;
        r.inv_beta_gamma2_0 = 1.0 / (before.beta_gamma * before.beta_gamma);
        r.inv_beta1 = 1.0 / after.beta;
        r.inv_beta_gamma2_1 = 1.0 / (after.beta_gamma * after.beta_gamma);
        return r;
    }

    GT_HOST_DEVICE bool operator()(Particle& p) const
    {
        double const half = 0.5 * length;
        if (half > 0.0 && !drift_exact(p, half, inv_beta0, inv_beta_gamma2_0)) return false;
        p.pt = p.pt * momentum_ratio - kick * (pmath::cos(phase + k_rf * p.t) - cos_phase);
        p.px *= momentum_ratio;
        p.py *= momentum_ratio;
        // Decelerated below rest energy: (p/p1)^2 <= 0 or E <= 0.
        if (!(momentum_squared(p.pt, inv_beta1) > 0.0) || !(inv_beta1 - p.pt > 0.0)) return false;
        if (half > 0.0 && !drift_exact(p, half, inv_beta1, inv_beta_gamma2_1)) return false;
        return true;
    }
};

}  // namespace gt
