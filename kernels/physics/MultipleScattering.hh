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
#include "kernels/physics/MoliereScattering.hh"
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

//! The transport mean free path lambda_1 [m] that the Highland angle implies: the Gaussian model's
//! <1 - cos theta> after a path t is theta0^2(t) (the plane variance), and theta0^2(t) = t / lambda_1
//! to first order, so lambda_1 = X0 (beta c p / 13.6 MeV)^2 / corr^2 with Highland's log term corr
//! taken at t = lambda_1 itself (three fixed-point iterations from corr = 1; corr is clamped to
//! [0.5, 2], where Highland's range of validity ends).
GT_HOST_DEVICE inline double highland_lambda1(double x0, ParticleType const& pt, double T)
{
    double const gamma = 1.0 + T / pt.mass;
    double const beta2 = 1.0 - 1.0 / (gamma * gamma);
    double const beta_cp = pmath::sqrt(T * (T + 2.0 * pt.mass)) * pmath::sqrt(beta2);
    double const base = (beta_cp / (13.6 * fabs(pt.charge))) * (beta_cp / (13.6 * fabs(pt.charge)));
    double lambda = base;  // in X0
    for (int it = 0; it < 3; ++it) {
        double corr = 1.0 + 0.038 * pmath::log(lambda * pt.charge * pt.charge / beta2);
        corr = corr < 0.5 ? 0.5 : (corr > 2.0 ? 2.0 : corr);
        lambda = base / (corr * corr);
    }
    return lambda * x0;
}

//! Path-length correction (Geant4 Physics Reference Manual, "Multiple scattering", the Urban
//! model's conversion for small energy loss): a true path t of mean free path lambda_1 advances
//! z = lambda_1 (1 - exp(-t / lambda_1)) along the direction it starts with. t / lambda_1 is capped
//! at 30 (z = lambda_1 to 1e-13), so that the inverse stays finite.
GT_HOST_DEVICE inline double msc_geometric_length(double t, double lambda1)
{
    double const tau = t / lambda1;
    if (tau < 1.0e-6) return t * (1.0 - 0.5 * tau);
    return lambda1 * (1.0 - pmath::exp(-(tau < 30.0 ? tau : 30.0)));
}

//! The inverse: the true path of a geometric advance z.
GT_HOST_DEVICE inline double msc_true_length(double z, double lambda1)
{
    double const u = z / lambda1;
    if (u < 1.0e-6) return z * (1.0 + 0.5 * u);
    double const cap = 1.0 - 9.357622968840175e-14;  // 1 - exp(-30)
    return -lambda1 * pmath::log(1.0 - (u < cap ? u : cap));
}

//! The step limit of multiple scattering near boundaries, as Geant4's Urban model with
//! fUseSafety (G4UrbanMscModel::ComputeTruePathLengthLimit; opt0: RangeFactor 0.04, facsafety 0.6):
//! a track that could reach a boundary (range > safety) takes true steps of at most
//! max(f_r max(R, lambda_1), 0.6 safety), f_r = range_factor (0.75 + 0.25 lambda_1 / 1 mm) when
//! lambda_1 > 1 mm, and at least 10 lambda_1 1e-3 / (T (10 + T)) (T in MeV). HUGE_VAL: no limit.
GT_HOST_DEVICE inline double msc_step_limit(double range_factor, double range, double lambda1, double safety,
                                            double T)
{
    if (range_factor <= 0 || range <= safety) return HUGE_VAL;
    double fr = range_factor;
    if (lambda1 > 1.0e-3) fr *= 0.75 + 0.25 * lambda1 / 1.0e-3;
    double const rinit = range > lambda1 ? range : lambda1;
    double lim = fr * rinit;
    double const by_safety = 0.6 * safety;
    lim = lim > by_safety ? lim : by_safety;
    double const lim_min = 10.0 * lambda1 * 1.0e-3 / (T * (10.0 + T));
    return lim > lim_min ? lim : lim_min;
}

struct ScatteringResult {
    Vec3 dir;           //!< new direction (unit)
    Vec3 displacement;  //!< lateral displacement [m]
};

//! Two Gaussian projected angles of width theta0 in the frame (e1, e2, dir) and the PDG's correlated
//! displacement after a geometric advance x.
GT_HOST_DEVICE inline ScatteringResult gaussian_scatter(Vec3 dir, Vec3 e1, Vec3 e2, double theta0, double x,
                                                        RandomStream& rng)
{
    double const k12 = 0.28867513459481288225;  // 1/sqrt(12)
    double const z1x = rng.normal(), z2x = rng.normal(), z1y = rng.normal(), z2y = rng.normal();
    // projected angles beyond ~70 degrees are outside any Gaussian description: clamp them
    double tx = z2x * theta0, ty = z2y * theta0;
    tx = tx > 1.2 ? 1.2 : (tx < -1.2 ? -1.2 : tx);
    ty = ty > 1.2 ? 1.2 : (ty < -1.2 ? -1.2 : ty);
    double const yx = x * theta0 * (z1x * k12 + 0.5 * z2x);
    double const yy = x * theta0 * (z1y * k12 + 0.5 * z2y);
    // projected angles: the direction is tilted by tan(theta_x), tan(theta_y) in the two planes
    double sx, cx, sy, cy;
    pmath::sincos(tx, sx, cx);
    pmath::sincos(ty, sy, cy);
    Vec3 const nd = normalized(axpy(sy / cy, e2, axpy(sx / cx, e1, dir)));
    return ScatteringResult{nd, axpy(yy, e2, yx * e1)};
}

//! Deflects dir after a step of (true) length s [m], with t_before [X0] already crossed in this
//! volume; the lateral displacement is that of a geometric advance s_geom (s when negative).
//! exact_mean (shower e+-): the polar angle is drawn from exp(a cos theta) with <cos theta> =
//! exp(-theta0^2), the mean that the path-length correction assumes (<cos theta> = exp(-t/lambda_1)
//! with theta0^2 = t / lambda_1), instead of two Gaussian projected angles, whose mean cosine is
//! too large once theta0^2 > 0.2 (0.67 instead of 0.61 at theta0^2 = 0.5, 0.55 instead of 0.37 at
//! 1); for small theta0 both are Highland's Gaussian (theta^2 exponential of mean 2 theta0^2).
GT_HOST_DEVICE inline ScatteringResult multiple_scatter(Vec3 dir, double s, double x0, double t_before,
                                                        ParticleType const& pt, double T, RandomStream& rng,
                                                        double s_geom = -1.0, bool exact_mean = false)
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
    double const k12 = 0.28867513459481288225;  // 1/sqrt(12)
    double const x = s_geom < 0 ? s : s_geom;
    if (exact_mean) {
        double const z1x = rng.normal(), z1y = rng.normal();
        double const u1 = rng.uniform(), u2 = rng.uniform();
        double const a = inverse_langevin(pmath::exp(-var));
        // cos theta from exp(a (cos theta - 1)) on [-1, 1], by inversion
        double cost =
            a < 1.0e-6 ? 2.0 * u1 - 1.0 : 1.0 + pmath::log(u1 + (1.0 - u1) * pmath::exp(-2.0 * a)) / a;
        cost = cost > 1.0 ? 1.0 : (cost < -1.0 ? -1.0 : cost);
        double const sint = pmath::sqrt((1.0 - cost) * (1.0 + cost));
        double sphi, cphi;
        pmath::sincos(6.283185307179586477 * u2, sphi, cphi);
        double const ux = sint * cphi, uy = sint * sphi;
        // the PDG's correlated displacement (y = z1 s theta0 / sqrt(12) + s theta_plane / 2) with the
        // projected angles' sines, its uncorrelated part's theta0 capped at 1 rad
        double const th = theta0 < 1.0 ? theta0 : 1.0;
        Vec3 const nd = normalized(axpy(cost, dir, axpy(uy, e2, ux * e1)));
        return ScatteringResult{
            nd, axpy(x * (th * k12 * z1y + 0.5 * uy), e2, x * (th * k12 * z1x + 0.5 * ux) * e1)};
    }
    return gaussian_scatter(dir, e1, e2, theta0, x, rng);
}

//! The accurate model (physics.msc_model = "moliere", MoliereScattering.hh): deflects dir after a true
//! step s [m] in material m with depth [m] already crossed in this volume, the lateral displacement
//! that of a geometric advance s_geom (s when negative). As Highland's width, Molière's and Lynch &
//! Dahl's are of the whole thickness crossed: a step gets the difference of the squared widths at
//! depth + s and at depth, so that any splitting of a layer gives the layer's width. e+- (electron):
//! the central part and single-scattering tail of moliere_sample_cos, the mean deflection that of the
//! transport mean free path lambda1_in (> 0; else the screened Rutherford one at the step's energy);
//! heavier particles: Gaussian projected angles of Molière's central width, theta_0 = theta_1/e /
//! sqrt(2) (Hanson's Gaussian approximation to Molière's theory, the width that Gottschalk et al.
//! measured for protons as a Gaussian fitted to the core of the projected angles; B. Gottschalk,
//! arXiv:1804.00022, section 4). Not Lynch & Dahl's theta_0: that Gaussian is fitted to the central
//! 98% of the distribution, which in thin layers takes in the single-scattering tail and comes out
//! wider than the core (+8.5% for Gottschalk's 0.216 g/cm^2 of aluminium, B = 11).
GT_HOST_DEVICE inline ScatteringResult moliere_scatter(Vec3 dir, double s, MaterialParams const& m, double depth,
                                                       ParticleType const& pt, double T, bool electron,
                                                       RandomStream& rng, double s_geom = -1.0,
                                                       double lambda1_in = -1.0)
{
    MoliereAngles const ang = moliere_angles(m, pt, T);
    double const c0 = ang.chic2_per_m * depth, c1 = ang.chic2_per_m * (depth + s);
    Vec3 const helper = fabs(dir.z) < 0.9 ? Vec3{0, 0, 1} : Vec3{1, 0, 0};
    Vec3 const e1 = normalized(cross(helper, dir));
    Vec3 const e2 = cross(dir, e1);
    double const x = s_geom < 0 ? s : s_geom;
    if (!electron) {
        double const var = 0.5 * (moliere_core_sq(c1, ang.ln_chia2) - moliere_core_sq(c0, ang.ln_chia2));
        return gaussian_scatter(dir, e1, e2, pmath::sqrt(var > 0 ? var : 0.0), x, rng);
    }
    double const layer = moliere_core_sq(c1, ang.ln_chia2);
    double core = layer - moliere_core_sq(c0, ang.ln_chia2);
    core = core > 0 ? core : 0.0;
    double const lambda1 = lambda1_in > 0 ? lambda1_in : moliere_lambda1(ang);
    // the tail starts beyond the central width of the layer crossed so far, and at least beyond that
    // of a layer of k_moliere_tail_depth lambda_1: a tail starting at a thin step's own width would,
    // after the later steps, lie inside the layer's central part and widen it (Hanson's foil in ten
    // steps: +6%); with it the width no longer depends on the steps (HansonFoilTest.cc)
    double const tail_sq = moliere_core_sq(ang.chic2_per_m * k_moliere_tail_depth * lambda1, ang.ln_chia2);
    double const z1x = rng.normal(), z1y = rng.normal();
    double const u1 = rng.uniform(), u2 = rng.uniform(), u3 = rng.uniform();
    double const cost =
        moliere_sample_cos(core, layer > tail_sq ? layer : tail_sq, s / lambda1, pmath::exp(ang.ln_chia2), u3, u1);
    double const sint = pmath::sqrt((1.0 - cost) * (1.0 + cost));
    double sphi, cphi;
    pmath::sincos(6.283185307179586477 * u2, sphi, cphi);
    double const ux = sint * cphi, uy = sint * sphi;
    // the PDG's correlated displacement with the projected angles' sines; the uncorrelated part's
    // width is the central part's plane width theta_c / sqrt(2), capped at 1 rad
    double th = pmath::sqrt(0.5 * core);
    th = th < 1.0 ? th : 1.0;
    double const k12 = 0.28867513459481288225;  // 1/sqrt(12)
    Vec3 const nd = normalized(axpy(cost, dir, axpy(uy, e2, ux * e1)));
    return ScatteringResult{nd, axpy(x * (th * k12 * z1y + 0.5 * uy), e2, x * (th * k12 * z1x + 0.5 * ux) * e1)};
}

}  // namespace gt
