// Multiple Coulomb scattering: Highland's formula with the Lynch-Dahl correction, Gaussian
// projected angles and the correlated lateral displacement.
//
// PDG 2022 eq. 34.15: theta0 = 13.6 MeV / (beta c p) z sqrt(x/X0) [1 + 0.038 ln(x z^2 / (X0 beta^2))].
// The formula holds for the whole thickness crossed, not per step (the log term does not add): a
// step of t = s/X0 after t_before already crossed in the same volume gets the variance
// theta0^2(t_before + t) - theta0^2(t_before), so that any splitting of a layer into steps gives the
// Highland angle of the layer. Per plane (PDG eqs. 34.16-34.20) with independent standard normals
// z1, z2: y_plane = z1 s theta0 / sqrt(12) + z2 s theta0 / 2 and theta_plane = z2 theta0.
#pragma once

#include "kernels/core/RandomStream.hh"
#include "kernels/geometry/Vec3.hh"
#include "kernels/physics/ParticleType.hh"

namespace gt {

//! theta0^2 of Highland-Lynch-Dahl for a thickness t = x / X0 (0 where the log term turns negative).
GT_HOST_DEVICE inline double highland_theta0_sq(double t, double beta_cp, double z, double beta2)
{
    if (t <= 0) return 0.0;
    double const corr = 1.0 + 0.038 * pmath::log(t * z * z / beta2);
    if (corr <= 0) return 0.0;
    double const th = 13.6 / beta_cp * fabs(z) * corr;
    return th * th * t;
}

struct ScatteringResult {
    Vec3 dir;           //!< new direction (unit)
    Vec3 displacement;  //!< lateral displacement [m]
};

//! Deflects dir after a step of length s [m], with t_before [X0] already crossed in this volume.
GT_HOST_DEVICE inline ScatteringResult multiple_scatter(Vec3 dir, double s, double x0, double t_before,
                                                        ParticleType const& pt, double T, RandomStream& rng)
{
    double const gamma = 1.0 + T / pt.mass;
    double const beta2 = 1.0 - 1.0 / (gamma * gamma);
    double const p = pmath::sqrt(T * (T + 2.0 * pt.mass));
    double const beta_cp = p * pmath::sqrt(beta2);
    double const t = s / x0;
    double var = highland_theta0_sq(t_before + t, beta_cp, pt.charge, beta2) -
                 highland_theta0_sq(t_before, beta_cp, pt.charge, beta2);
    if (var < 0) var = 0;
    double const theta0 = pmath::sqrt(var);
    // an orthonormal frame (e1, e2, dir)
    Vec3 const helper = fabs(dir.z) < 0.9 ? Vec3{0, 0, 1} : Vec3{1, 0, 0};
    Vec3 const e1 = normalized(cross(helper, dir));
    Vec3 const e2 = cross(dir, e1);
    double const z1x = rng.normal(), z2x = rng.normal(), z1y = rng.normal(), z2y = rng.normal();
    double const k12 = 0.28867513459481288225;  // 1/sqrt(12)
    // projected angles beyond ~70 degrees are outside any Gaussian description: clamp them
    double tx = z2x * theta0, ty = z2y * theta0;
    tx = tx > 1.2 ? 1.2 : (tx < -1.2 ? -1.2 : tx);
    ty = ty > 1.2 ? 1.2 : (ty < -1.2 ? -1.2 : ty);
    double const yx = s * theta0 * (z1x * k12 + 0.5 * z2x);
    double const yy = s * theta0 * (z1y * k12 + 0.5 * z2y);
    // projected angles: the direction is tilted by tan(theta_x), tan(theta_y) in the two planes
    double sx, cx, sy, cy;
    pmath::sincos(tx, sx, cx);
    pmath::sincos(ty, sy, cy);
    Vec3 const nd = normalized(axpy(sy / cy, e2, axpy(sx / cx, e1, dir)));
    return ScatteringResult{nd, axpy(yy, e2, yx * e1)};
}

}  // namespace gt
