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

namespace gt {

enum class DistributionKind : std::int32_t { gaussian, kv, waterbag, semigaussian, kurth };

struct BeamSampler {
    DistributionKind kind;
    std::uint64_t seed;
    double cholesky[6][6];  //!< lower-triangular L with Sigma = L L^T, SI / ImpactX units
    double truncate;        //!< Gaussian cut in sigma per coordinate (0: none)

    //! Particle number `id` of the beam.
    GT_HOST_DEVICE Particle sample(std::uint64_t id) const
    {
        RandomStream rng(seed, id, 0);
        double u[6];  // order x, px, y, py, t, pt
        switch (kind) {
            case DistributionKind::gaussian: gaussian(rng, u); break;
            case DistributionKind::kv: kv(rng, u); break;
            case DistributionKind::waterbag: waterbag(rng, u); break;
            case DistributionKind::semigaussian: semigaussian(rng, u); break;
            case DistributionKind::kurth: kurth(rng, u); break;
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
