// Draws one macroparticle of an initial beam: the same particle for a given (seed, id) on CPU and GPU.
//
// Each distribution is first sampled in normalized coordinates u = (u_x, v_x, u_y, v_y, u_t, v_t),
// each with unit variance and no correlation; the physical coordinates are then z = L u, with L
// the lower Cholesky factor of the 6x6 second-moment matrix Sigma = L L^T built on the host from the
// Twiss parameters (or given in full). This covers every coupling the deck can express.
#pragma once

#include <cstdint>

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/PortableMath.hh"
#include "kernels/core/RandomStream.hh"
#include "kernels/study/StudyGrid.hh"

namespace gt {

enum class DistributionKind : std::int32_t { gaussian, kv, waterbag, semigaussian, kurth, cathode, grid };

//! pt of a particle at rest at a cathode, whose coordinates are normalized to p0 = m c (a reference
//! of beta gamma = 1, E0 = sqrt(2) m c^2): pt = -(E - E0) / (p0 c) = sqrt(2) - 1 (docs/physics.md).
inline constexpr double k_cathode_pt_rest = 0.41421356237309504880;

//! Emission from rest at a cathode (distribution = "cathode"): where and when each particle leaves
//! the cathode plane, and its thermal momentum, in units of m c.
struct CathodeEmission {
    std::int32_t uniform_spot;  //!< 1: a uniform disk of radius 2 spot_rms; 0: Gaussian
    std::int32_t flattop;       //!< 1: flat top with linear edges; 0: Gaussian
    double spot_rms;            //!< [m] rms of x and of y
    double length;              //!< [m] c x (flat top: full length at half height; Gaussian: rms)
    double rise;                //!< [m] c x the rise (and fall) time of the flat top
    double thermal;             //!< [1] rms of each thermal momentum component / (m c) = sqrt(MTE / m c^2)
};

struct BeamSampler {
    DistributionKind kind;
    std::uint64_t seed;
    double cholesky[6][6];  //!< lower-triangular L with Sigma = L L^T, SI / ImpactX units
    double truncate;        //!< Gaussian cut in sigma per coordinate (0: none)
    CathodeEmission cathode;  //!< kind == cathode
    StudyGrid grid;           //!< kind == grid: a ring study's initial conditions (no random draw)

    //! Particle number `id` of the beam.
    GT_HOST_DEVICE Particle sample(std::uint64_t id) const
    {
        if (kind == DistributionKind::grid) return grid.particle(id);
        RandomStream rng(seed, id, 0);
        if (kind == DistributionKind::cathode) return emitted(rng);
        double u[6];  // order x, px, y, py, t, pt
        switch (kind) {
            case DistributionKind::gaussian: gaussian(rng, u); break;
            case DistributionKind::kv: kv(rng, u); break;
            case DistributionKind::waterbag: waterbag(rng, u); break;
            case DistributionKind::semigaussian: semigaussian(rng, u); break;
            case DistributionKind::kurth: kurth(rng, u); break;
            case DistributionKind::cathode:
            case DistributionKind::grid: break;
        }
        double z[6];
        for (int i = 0; i < 6; ++i) {
            double acc = 0.0;
            for (int j = 0; j <= i; ++j) acc += cholesky[i][j] * u[j];
            z[i] = acc;
        }
        return Particle{z[0], z[1], z[2], z[3], z[4], z[5]};
    }

  private:
    //! A particle leaving the cathode (docs/physics.md, "Beams emitted from a cathode"): (x, y) on
    //! the spot; t = c x the emission time, flat top as the sum of two uniforms (a trapezoid of full
    //! length at half height `length` and edges `rise`, variance (length^2 + rise^2) / 12) or
    //! Gaussian; momenta of the flux of a Maxwell-Boltzmann gas at kT = MTE through the plane: px, py
    //! normal with rms sqrt(MTE / m c^2) (so <px^2 + py^2> m c^2 / 2 = MTE), pz Rayleigh with the same
    //! scale. pt relative to E0 = sqrt(2) m c^2, written as (sqrt 2 - 1) - (gamma - 1) so that the
    //! kinetic energy (~1e-6 m c^2) keeps its digits.
    GT_HOST_DEVICE Particle emitted(RandomStream& rng) const
    {
        double const pi = 3.14159265358979323846;
        CathodeEmission const& c = cathode;
        double x = 0.0, y = 0.0;
        if (c.uniform_spot) {
            double const r = 2.0 * c.spot_rms * pmath::sqrt(rng.uniform());
            double sn = 0.0, cs = 0.0;
            pmath::sincos(2.0 * pi * rng.uniform(), sn, cs);
            x = r * cs;
            y = r * sn;
        } else {
            double const gx = normal_cut(rng);
            double const gy = normal_cut(rng);
            x = c.spot_rms * gx;
            y = c.spot_rms * gy;
        }
        double t = 0.0;
        if (c.flattop) {
            double const u1 = rng.uniform();
            double const u2 = rng.uniform();
            t = (c.length * u1 + c.rise * u2) - 0.5 * (c.length + c.rise);
        } else {
            t = c.length * normal_cut(rng);
        }
        double const px = c.thermal * rng.normal();
        double const py = c.thermal * rng.normal();
        double const pz = c.thermal * pmath::sqrt(-2.0 * pmath::log(rng.uniform()));
        double const p2 = (px * px + py * py) + pz * pz;
        double const kinetic = p2 / (1.0 + pmath::sqrt(1.0 + p2));  // gamma - 1
        return Particle{x, px, y, py, t, k_cathode_pt_rest - kinetic};
    }

    GT_HOST_DEVICE double normal_cut(RandomStream& rng) const
    {
        double g = rng.normal();
        if (truncate > 0.0) {
            while (g > truncate || g < -truncate) g = rng.normal();
        }
        return g;
    }

    //! Independent unit normals, optionally truncated per coordinate at `truncate` sigma.
    GT_HOST_DEVICE void gaussian(RandomStream& rng, double* u) const
    {
        for (int i = 0; i < 6; ++i) u[i] = normal_cut(rng);
    }

    //! A point uniform on the unit sphere S^(n-1), from n normals (rotation invariance).
    GT_HOST_DEVICE static void on_sphere(RandomStream& rng, double* v, int n)
    {
        double r2 = 0.0;
        do {
            r2 = 0.0;
            for (int i = 0; i < n; ++i) {
                v[i] = rng.normal();
                r2 += v[i] * v[i];
            }
        } while (r2 == 0.0);
        double const inv = 1.0 / pmath::sqrt(r2);
        for (int i = 0; i < n; ++i) v[i] *= inv;
    }

    //! Kapchinskij-Vladimirskij: (x,px,y,py) on the 4D hypersphere of radius 2 (<u^2> = R^2/4 = 1);
    //! t uniform (|u_t| <= sqrt 3) and pt Gaussian, as ImpactX's KVdist.
    GT_HOST_DEVICE void kv(RandomStream& rng, double* u) const
    {
        double s[4];
        on_sphere(rng, s, 4);
        u[0] = 2.0 * s[0];
        u[1] = 2.0 * s[1];
        u[2] = 2.0 * s[2];
        u[3] = 2.0 * s[3];
        u[4] = 1.7320508075688772935 * (2.0 * rng.uniform() - 1.0);
        u[5] = normal_cut(rng);
    }

    //! Uniform in the 6D ball of radius sqrt(8): <u_i^2> = R^2 / (d + 2) = 1.
    GT_HOST_DEVICE void waterbag(RandomStream& rng, double* u) const
    {
        double s[6];
        on_sphere(rng, s, 6);
        // Radius density ~ rho^5 in 6D: rho = U^(1/6).
        double const rho = pmath::exp(pmath::log(rng.uniform()) / 6.0) * 2.8284271247461900976;
        for (int i = 0; i < 6; ++i) u[i] = rho * s[i];
    }

    //! Positions uniform in the 3D ball of radius sqrt(5) (<u^2> = R^2/5 = 1), momenta Gaussian.
    GT_HOST_DEVICE void semigaussian(RandomStream& rng, double* u) const
    {
        double s[3];
        on_sphere(rng, s, 3);
        double const rho = pmath::exp(pmath::log(rng.uniform()) / 3.0) * 2.2360679774997896964;
        u[0] = rho * s[0];
        u[2] = rho * s[1];
        u[4] = rho * s[2];
        u[1] = normal_cut(rng);
        u[3] = normal_cut(rng);
        u[5] = normal_cut(rng);
    }

    //! Kurth's stationary 6D distribution (R. Kurth, Q. Appl. Math. 32, 325 (1978); sampling as in
    //! C. Mitchell et al., IPAC2021 WEPAB248): position uniform in the unit ball; angular momentum
    //! L = r sqrt(U); radial momentum p_r = p_max cos(alpha) with p_max^2 = 1 - L^2/r^2 - r^2 + L^2;
    //! tangential momentum of size L/r in a uniform direction. Scaled by sqrt(5) to unit variance.
    GT_HOST_DEVICE void kurth(RandomStream& rng, double* u) const
    {
        double const pi = 3.14159265358979323846;
        double const r = pmath::exp(pmath::log(rng.uniform()) / 3.0);
        double const cos_theta = 2.0 * rng.uniform() - 1.0;
        double const sin_theta = pmath::sqrt(1.0 - cos_theta * cos_theta);
        double sin_phi = 0.0, cos_phi = 0.0;
        pmath::sincos(2.0 * pi * rng.uniform(), sin_phi, cos_phi);
        double const L = r * pmath::sqrt(rng.uniform());
        double const lr = L / r;
        double pmax2 = 1.0 - lr * lr - r * r + L * L;
        double const pr = pmath::sqrt(pmax2 > 0.0 ? pmax2 : 0.0) * pmath::cos(pi * rng.uniform());
        double sin_beta = 0.0, cos_beta = 0.0;
        pmath::sincos(2.0 * pi * rng.uniform(), sin_beta, cos_beta);
        double const p_phi = lr * cos_beta;
        double const p_theta = lr * sin_beta;
        double const scale = 2.2360679774997896964;
        u[0] = scale * r * sin_theta * cos_phi;
        u[2] = scale * r * sin_theta * sin_phi;
        u[4] = scale * r * cos_theta;
        u[1] = scale * (pr * sin_theta * cos_phi + p_theta * cos_theta * cos_phi - p_phi * sin_phi);
        u[3] = scale * (pr * sin_theta * sin_phi + p_theta * cos_theta * sin_phi + p_phi * cos_phi);
        u[5] = scale * (pr * cos_theta - p_theta * sin_theta);
    }
};

//! Fills a particle state with a fresh beam: ids 0..n-1, all alive.
struct GenerateBeam {
    ParticleView particles;
    BeamSampler sampler;
    std::uint64_t first_id;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        std::uint64_t const id = first_id + i;
        particles.store(i, sampler.sample(id));
        particles.id[i] = id;
        particles.lost_element[i] = -1;
        particles.lost_turn[i] = -1;
    }
};

}  // namespace gt
