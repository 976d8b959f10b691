// Synchrotron-radiation energy loss in the magnets' maps: the classical mean loss per step (`[lattice]
// radiation = "mean"`) and, with `radiation = "quantum"`, its fluctuation (quantum excitation) as a Gaussian
// energy kick per step drawn from a counter-based stream per particle (docs/physics.md).
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/PortableMath.hh"
#include "kernels/core/RandomStream.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "kernels/elements/Drift.hh"
#include "kernels/elements/MapSupport.hh"

namespace gt {

//! The radiation constant of an element, c_rad = (2/3) r_c (beta0 gamma0)^3 [m], with r_c = q^2 / (4 pi eps0
//! m c^2) the classical radius of the reference's species (0 for a neutral one). The power radiated by a
//! charge on a curve of radius rho is P = (2/3) r_c m c^3 beta^4 gamma^4 / rho^2 (Jackson, Classical
//! Electrodynamics, 3rd ed., eq. 14.31; Sands, SLAC-121, eq. 4.5), so per unit path length
//! dE/dl = (2/3) r_c m c^2 beta^3 gamma^4 / rho^2. With 1/rho = b (p0/p), b = |B_perp| / (B rho)_0 the field
//! normalized to the reference rigidity, P = p/p0, beta gamma = P beta0 gamma0 and
//! gamma = (1/beta0 - pt) beta0 gamma0, in the energy coordinate pt = -(E - E0)/(p0 c):
//!   d pt = c_rad (1/beta0 - pt) P b^2 dl.
//! Ultra-relativistic (pt = -delta): d delta / dl = -(C_gamma / 2 pi) E0^3 (1 + delta)^2 b^2 with C_gamma =
//! 4 pi r_c / (3 (m c^2)^3) = 8.846e-5 m / GeV^3 for electrons (Sands eq. 4.7; the MAD-X physics guide,
//! "Synchrotron radiation"). Host: computed once per element from the reference at its entrance.
inline double radiation_constant(ReferenceParticle const& ref)
{
    // e^2 / (4 pi eps0) = 1.439964548e-15 MeV m (alpha hbar c, CODATA 2018).
    double const e2_mev_m = 1.439964548e-15;
    double const r_c = ref.charge_e * ref.charge_e * e2_mev_m / ref.mass_mev;
    double const bg = ref.beta_gamma;
    return (2.0 / 3.0) * r_c * bg * bg * bg;
}

//! The quantum-excitation constant of an element, c_q = (55 / (24 sqrt 3)) r_c lambdabar_c (beta0 gamma0)^5
//! [m^2], with lambdabar_c = hbar / (m c) the reduced Compton wavelength of the reference's species.
//! Derivation (Sands, SLAC-121, ch. 5, quantum excitation): photons are emitted at the rate N with
//! N <u^2> = (55 / (24 sqrt 3)) u_c P_gamma, u_c = (3/2) hbar c gamma^3 / rho the critical energy and
//! P_gamma = (2/3) r_c m c^3 gamma^4 / rho^2 the power (ultra-relativistic). Per unit path length
//! d<(dE)^2>/dl = N <u^2> / c = (55 / (24 sqrt 3)) r_c lambdabar_c (m c^2)^2 gamma^7 / rho^3. In
//! pt = -(E - E0) / (p0 c), with gamma = (1/beta0 - pt) beta0 gamma0 and 1/rho = b / P (b the field
//! normalized to the reference rigidity):
//!   d<dpt^2>/dl = c_q (1/beta0 - pt)^7 |b / P|^3,
//! which is (55 / (24 sqrt 3)) r_c lambdabar_c gamma0^5 |b|^3 on the reference. Check of the factor: per
//! turn the excitation adds (55 / (24 sqrt 3)) r_c lambdabar_c gamma^5 I3 to <A^2>, A the amplitude of the
//! synchrotron oscillation, the damping removes J_E (U0/E0) <A^2> with U0/E0 = (2/3) r_c gamma^3 I2, and
//! <delta^2> = <A^2>/2 (half the oscillation is in z): sigma_delta^2 = C_q gamma^2 I3 / (J_E I2) with
//! C_q = (55 / (24 sqrt 3)) (3/2) / 2 lambdabar_c = 55 lambdabar_c / (32 sqrt 3) = 3.832e-13 m for electrons
//! (Sands eq. 5.43). Host: computed once per element from the reference at its entrance.
inline double quantum_excitation_constant(ReferenceParticle const& ref)
{
    double const e2_mev_m = 1.439964548e-15;      // e^2 / (4 pi eps0) [MeV m] (CODATA 2018)
    double const hbar_c_mev_m = 197.3269804e-15;  // hbar c [MeV m] (CODATA 2018)
    double const r_c = ref.charge_e * ref.charge_e * e2_mev_m / ref.mass_mev;
    double const lambdabar = hbar_c_mev_m / ref.mass_mev;
    double const bg = ref.beta_gamma;
    return 55.0 / (24.0 * std::sqrt(3.0)) * r_c * lambdabar * (bg * bg * bg * bg * bg);
}

//! What a radiating map needs for its quantum excitation (`[lattice] radiation = "quantum"`; host-set by the
//! table builder): the constant and the Philox key of the run's photon streams. c_q = 0: the mean loss only.
struct QuantumExcitation {
    double c_q;         //!< [m^2] quantum_excitation_constant() of the reference at the entry; 0: none
    std::uint64_t key;  //!< the run's seed ^ k_photon_salt (PhotonStream)

    static QuantumExcitation none() { return QuantumExcitation{0.0, 0}; }
};

//! Mixed into `[run] seed` for the photon streams, so that they are not the streams of the beam's sampling
//! (same seed, ids and step 0).
inline constexpr std::uint64_t k_photon_salt = 0x5175616e74756d51ull;  // "QuantumQ"

//! Where a particle is in the run, for its photon streams: its id and the turn (TrackSegment).
struct PhotonClock {
    std::uint64_t id;
    std::int32_t turn;
};

//! radiate()'s photons when there is no quantum excitation: the mean loss only (the code of
//! `radiation = "mean"`, unchanged).
struct NoPhotons {
    static constexpr bool emits = false;
};

//! The photons one particle emits in one entry of the table: Gaussian numbers from RandomStream (Philox),
//! keyed by (run seed ^ k_photon_salt ^ the id's high word) and counted by (draw, entry, id's low word,
//! turn): RandomStream's counter (draw, step, id_lo, id_hi) with step = the entry's index in the table and id
//! = (turn << 32) | id_lo. The draw counts the Philox blocks of this particle in this entry (two normals
//! each, in the order of the map's kicks). So a number depends only on (seed, particle, turn, entry, kick):
//! not on the thread, the backend, the rank, the segment boundaries or a resumed run's start.
class PhotonStream {
  public:
    static constexpr bool emits = true;

    GT_HOST_DEVICE PhotonStream(QuantumExcitation const& q, PhotonClock const& clock, std::int32_t entry)
        : rng_(q.key ^ (clock.id >> 32),
               (static_cast<std::uint64_t>(static_cast<std::uint32_t>(clock.turn)) << 32) |
                   (clock.id & 0xffffffffull),
               static_cast<std::uint32_t>(entry)),
          c_q_(q.c_q)
    {
    }

    //! [m^2] the entry's quantum-excitation constant.
    GT_HOST_DEVICE double c_q() const { return c_q_; }
    //! The next standard normal number.
    GT_HOST_DEVICE double normal() { return rng_.normal(); }

  private:
    RandomStream rng_;
    double c_q_;
};

//! The split steps' kicks (SplitSteps, ExactBend's triple jump) integrate the mean loss with Yoshida's
//! weights w1, w0, w1 (w0 = 1 - 2 w1 < 0). A variance cannot be negative: the photons of a kick of length l
//! are drawn over |l| / (2 w1 + |w0|) = |l| / (4 w1 - 1) instead, positive weights 0.307, 0.386, 0.307 of the
//! step that sum to one (exact for an emission rate linear in s; the mean keeps the third-order quadrature).
inline constexpr double k_split_step_emission = 1.0 / (4.0 / (2.0 - 1.2599210498948731647672106) - 1.0);

//! The particle radiates over a step of length l of the reference orbit where the magnet's field
//! normalized to the reference rigidity is (bx, by) [1/m] and the reference orbit's curvature h [1/m].
//! The path length of the particle is dl = (1 + h x) (P / pz) l (paraxial: (1 + h x)(1 + (x'^2 + y'^2)/2) l),
//! and the field it radiates in is the part perpendicular to its velocity v = (px, py, pz)/P:
//! b_perp^2 = bx^2 + by^2 - ((bx px + by py)/P)^2 (the longitudinal field of the curved frame is not
//! included). The photons leave along the velocity, so the momentum keeps its direction: px and py scale
//! with P_new / P (Sands sec. 4.1; the origin of vertical damping, J_y = 1); x, y and t do not change (a thin
//! kick). A particle whose momentum is not physical is left alone (the map around it loses it).
//! Every transcendental from pmath, so the CPU and GPU give the same bits.
//!
//! `photons`: NoPhotons (the mean loss only) or the particle's PhotonStream in this entry, which adds the
//! quantum excitation: a Gaussian kick of pt with the variance c_q (1/beta0 - pt)^7 |b_perp / P|^3 dl_e
//! (quantum_excitation_constant), dl_e the particle's path over `emitting` (= l for a step of positive
//! length; the split steps' kicks pass |l| k_split_step_emission). Gaussian, not photon by photon: the
//! first two moments of the emission over the step are right (docs/physics.md says what that leaves out).
//! A map calls it with the `Photons&` it was given (a template parameter), so the same source serves
//! both; a kick with no field (b_perp = 0) draws nothing.
template <class Photons>
GT_HOST_DEVICE GT_FORCEINLINE void radiate(Particle& p, double c_rad, double inv_beta, double bx, double by,
                                           double h, double l, Photons& photons, double emitting)
{
    double const pt = p.pt;
    double const energy = inv_beta - pt;
    double const p2 = momentum_squared(pt, inv_beta);
    double const pz2 = p2 - (p.px * p.px + p.py * p.py);
    if (!(pz2 > 0.0) || !(energy > 0.0)) return;
    double const pn = pmath::sqrt(p2);
    double const pz = pmath::sqrt(pz2);
    double const bv = (bx * p.px + by * p.py) / pn;
    double const b2 = (bx * bx + by * by) - bv * bv;
    double const path = (1.0 + h * p.x) * (pn / pz);
    double const dl = path * l;
    double pt1 = pt + c_rad * energy * pn * b2 * dl;
    if constexpr (Photons::emits) {
        double const curvature = b2 > 0.0 ? pmath::sqrt(b2) / pn : 0.0;  // |b_perp| / P = 1 / rho
        double const e2 = energy * energy;
        double const variance =
            photons.c_q() * (e2 * e2 * e2 * energy) * (curvature * curvature * curvature) * (path * emitting);
        if (variance > 0.0) {
            double const xi = photons.normal();
            pt1 += pmath::sqrt(variance) * xi;
        }
    }
    double const p21 = momentum_squared(pt1, inv_beta);
    if (!(p21 > 0.0)) return;
    double const ratio = pmath::sqrt(p21) / pn;
    p.pt = pt1;
    p.px *= ratio;
    p.py *= ratio;
}

//! radiate() with its photons drawn over the step's own length (`emitting` = l).
template <class Photons>
GT_HOST_DEVICE GT_FORCEINLINE void radiate(Particle& p, double c_rad, double inv_beta, double bx, double by,
                                           double h, double l, Photons& photons)
{
    radiate(p, c_rad, inv_beta, bx, by, h, l, photons, l);
}

//! The mean loss only (NoPhotons).
GT_HOST_DEVICE GT_FORCEINLINE void radiate(Particle& p, double c_rad, double inv_beta, double bx, double by,
                                           double h, double l)
{
    NoPhotons none;
    radiate(p, c_rad, inv_beta, bx, by, h, l, none, l);
}

//! The field of a multipole of order n with a = kn/n!, b = ksn/n! (MultipoleKick's normalization):
//! by + i bx = (a + i b)(x + i y)^n, the field whose kick is px -= l by, py += l bx.
GT_HOST_DEVICE GT_FORCEINLINE void multipole_field(double a, double b, std::int32_t order, double x, double y,
                                                   double& bx, double& by)
{
    double zr = order > 0 ? x : 1.0;
    double zi = order > 0 ? y : 0.0;
    for (std::int32_t i = 1; i < order; ++i) {
        double const r = zr * x - zi * y;
        zi = zr * y + zi * x;
        zr = r;
    }
    by = a * zr - b * zi;
    bx = a * zi + b * zr;
}

//! An exact drift at the particle's own pt, for the split-step integrations with radiation (the kicks
//! change pt there, so the drifts cannot share one ExactDriftStep as they do without it). One particle
//! only (radiation is tracked per particle, also in the CPU's lanes: SegmentLanes.hh); `live` is
//! SplitSteps::integrate's mask, always true here since it returns at the first loss.
struct ExactDriftAtEachStep {
    double inv_beta, two_inv_beta, inv_beta2, inv_beta_gamma2;
    GT_HOST_DEVICE GT_FORCEINLINE bool operator()(Particle& p, double l, bool live = true) const
    {
        ExactDriftStep const step =
            ExactDriftStep::at(p.pt, inv_beta, two_inv_beta, inv_beta2, inv_beta_gamma2);
        return live && step.physical() && step(p, l);
    }
};

//! A thin kick of a split-step integration followed by the radiation of its field over the kick's length
//! (SplitSteps' kicks sit at 0.676, 0.5 and 0.324 of a step with weights w1, w0, w1: a quadrature exact
//! for polynomials of second degree in s, so the loss of a step is integrated to third order).
//! `Kick` is QuadrupoleKick or MultipoleKick; the field is by + i bx = (a + i b)(x + i y)^n.
//! `photons`: NoPhotons or the particle's PhotonStream (radiate()); the photons of a kick of length l (w1 h
//! or w0 h) are drawn over |l| k_split_step_emission.
template <class Kick, class Photons = NoPhotons>
struct RadiatingKick {
    Kick kick;
    double a, b;  //!< the field's coefficients (MultipoleKick's normalization)
    std::int32_t order;
    double c_rad, inv_beta;
    //! A reference to the stream; NoPhotons held by value (no address kept: the mean code as before).
    std::conditional_t<Photons::emits, Photons&, NoPhotons> photons;
    GT_HOST_DEVICE GT_FORCEINLINE void operator()(Particle& p, double l, bool live = true) const
    {
        if (!live) return;
        kick(p, l);
        double bx = 0.0, by = 0.0;
        multipole_field(a, b, order, p.x, p.y, bx, by);
        if constexpr (Photons::emits)
            radiate(p, c_rad, inv_beta, bx, by, 0.0, l, photons, (l < 0.0 ? -l : l) * k_split_step_emission);
        else
            radiate(p, c_rad, inv_beta, bx, by, 0.0, l);
    }
};

}  // namespace gt
