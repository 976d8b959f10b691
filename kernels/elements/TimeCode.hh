// An element tracked in time (t-code): each particle is taken from the entrance plane to a common
// time grid, pushed through the element's fields in time steps (Boris or RK4), and taken to the exit
// plane where it crosses it (docs/physics.md, "t-code").
#pragma once

#include <cstdint>

#include "kernels/beam/FixedTime.hh"
#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/PortableMath.hh"
#include "kernels/core/Types.hh"
#include "kernels/elements/AxialFieldMap.hh"
#include "kernels/elements/FieldMap3D.hh"
#include "kernels/elements/MapSupport.hh"
#include "kernels/field/RungeKutta4.hh"

namespace gt {

//! The field a t-code element pushes through (the element it replaces).
enum class TimeField : std::int32_t {
    none,        //!< drift
    quadrupole,  //!< hard-edge quadrupole, k1
    solenoid,    //!< hard-edge uniform solenoid, ks
    axial_map,   //!< solenoid or RF cavity from an on-axis profile (paraxial fields)
    grid_map,    //!< 3D field map: static or RF E and B on a grid (trilinear)
};

enum class TimeIntegrator : std::int32_t {
    boris,  //!< static magnetic fields: the rotation conserves |P| exactly
    rk4,    //!< fields with E (RF), or where fourth order is wanted
};

//! Normalized fields at one point: e = q E / (p0 c), b = q B / p0 [1/m].
struct TimeFieldValue {
    double ex, ey, ez, bx, by, bz;
};

//! Newton iterations that find the time a particle crosses the exit plane inside a step; the error
//! falls quadratically from the secant estimate's O(h^2), so three reach round-off for any step
//! that resolves the motion.
inline constexpr int k_exit_iterations = 3;

//! [1] at a cathode, (P / m c)^2 of an emitted particle may come out below 0 by the round-off of pt
//! near sqrt 2 - 1 (a few 1e-16): it is then taken as at rest.
inline constexpr double k_cathode_round_off = 1e-15;

//! In time sigma = c (t - t_ref,entry) [m], with P = kinetic momentum / p0 and w = E / (p0 c):
//!   dx/dsigma = P / w,   dP/dsigma = e + (P / w) x b,   e = q E / (p0 c), b = q B / p0
//! (the Lorentz force; dE/dsigma follows from w^2 = P^2 + mu2). Outside [0, length] the space is
//! field-free. The hard edges of the solenoids (the vector potential jumps there) are crossed with
//! the canonical momentum continuous and |P| conserved, the z-code's convention: P_kin = P_can -
//! q A / p0. The step grid is sigma_k = k step for every particle, so that a bunch can later be
//! pushed step by step with space-charge kicks at common times and give the same bits.
struct TimeCode {
    TimeField field;
    TimeIntegrator integrator;
    std::int32_t max_steps;  //!< steps inside the element after which a particle counts as stopped
    std::int32_t cathode;    //!< 1: the beam is emitted from rest at the entrance plane (a cathode)
    double length;           //!< [m]
    double step;             //!< [m] c dt
    double k1;               //!< [1/m^2] quadrupole
    double ks;               //!< [1/m] solenoid
    union {
        AxialFieldMap map;    //!< axial_map: profile, rf, z_begin, k_rf, phase, kappa (one slice, tau_begin 0)
        FieldMap3D grid_map;  //!< grid_map: the z-code's one slice (z_begin 0, tau_begin 0)
    };
    double inv_beta0;        //!< [1] 1/beta of the entrance reference
    double mu2;              //!< [1] 1/(beta0 gamma0)^2
    double tau_ref_end;      //!< [m] sigma of the reference at the exit plane
    double pt_ref_end;       //!< [1] the reference's pt at the exit, entrance normalization
    double momentum_ratio;   //!< [1] p0 / p1

    //! Where a map is evaluated for a particle at z: RK4 stages of the step that crosses the exit
    //! plane may lie past it, but the particle ends on the plane, so they see the field at the plane,
    //! as the uniform fields (quadrupole, solenoid) do. A field that does not vanish at the exit (a DC
    //! gap's anode) is then not cut off in the middle of the crossing step.
    GT_HOST_DEVICE double inside_z(double z) const { return z < length ? z : length; }

    GT_HOST_DEVICE TimeFieldValue fields(TimeState const& s, double sigma) const
    {
        TimeFieldValue f{0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
        switch (field) {
            case TimeField::none:
                break;
            case TimeField::quadrupole:  // B = g (y, x, 0): H's k1 (x^2 - y^2) / 2 (Quadrupole.hh)
                f.bx = k1 * s.y;
                f.by = k1 * s.x;
                break;
            case TimeField::solenoid:
                f.bz = ks;
                break;
            case TimeField::axial_map: {
                FieldValue const v = map.field(s.x, s.y, map.z_begin + inside_z(s.z), sigma);
                double const kc = map.kappa * constants::c_light;
                f = TimeFieldValue{map.kappa * v.ex, map.kappa * v.ey, map.kappa * v.ez,
                                   kc * v.bx,        kc * v.by,        kc * v.bz};
                break;
            }
            case TimeField::grid_map: {
                // The z-code's evaluator (trilinear grid, E cos psi, B sin psi): sigma is its tau.
                FieldValue const v = grid_map.field(s.x, s.y, grid_map.z_begin + inside_z(s.z), sigma);
                double const kc = grid_map.kappa * constants::c_light;
                f = TimeFieldValue{grid_map.kappa * v.ex, grid_map.kappa * v.ey, grid_map.kappa * v.ez,
                                   kc * v.bx,             kc * v.by,             kc * v.bz};
                break;
            }
        }
        return f;
    }

    //! q A_theta / (r p0) [1/m] at a hard edge z (0 or length): the jump of the vector potential. A
    //! 3D map has none: its px, py count as kinetic at the ends, as in the z-code (FieldMap3D.hh).
    GT_HOST_DEVICE double edge_potential(double x, double y, double z) const
    {
        if (field == TimeField::solenoid) return 0.5 * ks;
        if (field == TimeField::axial_map) return map.potential_over_r(x, y, map.z_begin + z);
        return 0.0;
    }

    //! Crosses a hard edge: P_kin += sign a (y, -x) with |P| kept (a static magnetic edge). False
    //! when no forward momentum is left.
    GT_HOST_DEVICE bool cross_edge(TimeState& s, double sign) const
    {
        double const a = sign * edge_potential(s.x, s.y, s.z);
        if (a == 0.0) return true;
        double const p2 = (s.px * s.px + s.py * s.py) + s.pz * s.pz;
        s.px += a * s.y;
        s.py -= a * s.x;
        double const pz2 = p2 - (s.px * s.px + s.py * s.py);
        if (!(pz2 > 0.0)) return false;
        s.pz = pmath::sqrt(pz2);
        return true;
    }

    GT_HOST_DEVICE static void free_drift(TimeState& s, double h, double mu2)
    {
        double const inv_w = 1.0 / time_state_energy(s, mu2);
        s.x += h * s.px * inv_w;
        s.y += h * s.py * inv_w;
        s.z += h * s.pz * inv_w;
    }

    //! d(state)/dsigma.
    GT_HOST_DEVICE TimeState derivative(TimeState const& s, double sigma) const
    {
        TimeFieldValue const f = fields(s, sigma);
        double const inv_w = 1.0 / time_state_energy(s, mu2);
        double const bx = s.px * inv_w, by = s.py * inv_w, bz = s.pz * inv_w;
        return TimeState{bx,
                         by,
                         bz,
                         f.ex + (by * f.bz - bz * f.by),
                         f.ey + (bz * f.bx - bx * f.bz),
                         f.ez + (bx * f.by - by * f.bx)};
    }

    //! Classical RK4 over h from sigma.
    GT_HOST_DEVICE void rk4_step(TimeState& s, double sigma, double h) const
    {
        runge_kutta4_step(s, sigma, h, [this](TimeState const& y, double at) { return derivative(y, at); });
    }

    //! Boris in its time-symmetric drift-rotate-drift form (second order; Boris 1970, Qin et al.,
    //! Phys. Plasmas 20, 084503 (2013)) for a static magnetic field: half drift, rotation of P about
    //! b by 2 atan(|b| h / 2w) at the midpoint, half drift. w is constant.
    GT_HOST_DEVICE void boris_step(TimeState& s, double sigma, double h) const
    {
        double const w = time_state_energy(s, mu2);
        double const half = 0.5 * h / w;
        s.x += half * s.px;
        s.y += half * s.py;
        s.z += half * s.pz;
        TimeFieldValue const f = fields(s, sigma + 0.5 * h);
        double const tx = f.bx * half, ty = f.by * half, tz = f.bz * half;
        double const scale = 2.0 / (1.0 + ((tx * tx + ty * ty) + tz * tz));
        double const qx = s.px + (s.py * tz - s.pz * ty);
        double const qy = s.py + (s.pz * tx - s.px * tz);
        double const qz = s.pz + (s.px * ty - s.py * tx);
        s.px += scale * (qy * tz - qz * ty);
        s.py += scale * (qz * tx - qx * tz);
        s.pz += scale * (qx * ty - qy * tx);
        s.x += half * s.px;
        s.y += half * s.py;
        s.z += half * s.pz;
    }

    GT_HOST_DEVICE void field_step(TimeState& s, double sigma, double h) const
    {
        if (integrator == TimeIntegrator::boris)
            boris_step(s, sigma, h);
        else
            rk4_step(s, sigma, h);
    }

    //! Where a particle is after advance().
    enum class Where : std::int32_t { before, inside, exited, lost };

    //! Advances a particle at sigma (before the entrance, z <= 0, or inside, 0 < z < length) by h.
    //! On `exited` s is at the exit plane (z = length) at time `sigma_exit`, its momenta outside the
    //! edge.
    GT_HOST_DEVICE Where advance(TimeState& s, double sigma, double h, double& sigma_exit) const
    {
        double now = sigma;
        double left = h;
        // Not yet in: the field-free approach, straight to the entrance if it is reached in this step
        // (z = 0, -0 included: a particle exactly at the plane at a grid time has not crossed the edge).
        if (s.z <= 0.0 && !cathode) {
            double const to_entry = -s.z * time_state_energy(s, mu2) / s.pz;
            if (to_entry >= left) {
                free_drift(s, left, mu2);
                return Where::before;
            }
            free_drift(s, to_entry, mu2);
            s.z = 0.0;
            now += to_entry;
            left -= to_entry;
            if (!cross_edge(s, 1.0)) return Where::lost;
        }
        TimeState trial = s;
        field_step(trial, now, left);
        if (!(trial.pz > 0.0) || !(trial.z - trial.z == 0.0)) return Where::lost;  // turned back, or NaN
        if (cathode && !(trial.z >= 0.0)) return Where::lost;  // back into the cathode
        if (trial.z < length) {
            s = trial;
            return Where::inside;
        }
        // Crosses the exit in this step: Newton for the time tau with z(tau) = length, from the
        // secant estimate through the step's ends.
        double tau = left * ((length - s.z) / (trial.z - s.z));
        for (int k = 0; k < k_exit_iterations; ++k) {
            trial = s;
            field_step(trial, now, tau);
            if (!(trial.pz > 0.0)) return Where::lost;
            tau += (length - trial.z) * time_state_energy(trial, mu2) / trial.pz;
            if (!(tau > 0.0)) tau = 0.0;
            if (tau > left) tau = left;
        }
        trial = s;
        field_step(trial, now, tau);
        trial.z = length;  // the Newton residual is at round-off
        if (!cross_edge(trial, -1.0)) return Where::lost;
        s = trial;
        sigma_exit = now + tau;
        return Where::exited;
    }

    //! The deck's coordinates at the exit plane (relative to the exit reference) of a state at the
    //! exit plane at time sigma_exit.
    GT_HOST_DEVICE Particle leave(TimeState const& s, double sigma_exit) const
    {
        Particle p = to_fixed_s(s, sigma_exit, length, inv_beta0, mu2);
        p.px *= momentum_ratio;
        p.py *= momentum_ratio;
        p.t -= tau_ref_end;
        p.pt = (p.pt - pt_ref_end) * momentum_ratio;
        return p;
    }

    //! The grid step from which a particle arriving at the entrance at p.t is followed in time: the
    //! last grid time before its arrival.
    GT_HOST_DEVICE double first_step(double t) const { return pmath::floor(t / step); }

    //! Takes a particle from the entrance plane (its deck coordinates p) to the time grid, to be
    //! advanced first from sigma `from` by `first` (then by whole steps). Normally it is drifted
    //! back to the grid time k0 h before it arrives (from = k0 h, first = h). Emitted from a cathode,
    //! it is born at the plane at its emission time p.t, at rest but for its thermal momentum, and
    //! sees no field before (from = p.t, first = (k0 + 1) h - p.t): the coordinates are normalized
    //! to m c (mu2 = 1), px, py kinetic, pz >= 0 from the kinetic energy (sqrt 2 - 1) - pt.
    GT_HOST_DEVICE bool enter(Particle const& p, double k0, TimeState& s, double& from, double& first) const
    {
        if (!cathode) {
            from = k0 * step;
            first = step;
            return to_fixed_time(p, from, inv_beta0, s);
        }
        // gamma - 1 (inv_beta0 = sqrt 2 here); a deficit within the round-off of pt (~1e-16) counts
        // as rest, more is below rest energy: lost.
        double const kinetic = (inv_beta0 - 1.0) - p.pt;
        double const pz2 = kinetic * (kinetic + 2.0) - (p.px * p.px + p.py * p.py);
        if (!(pz2 > -k_cathode_round_off)) return false;
        s = TimeState{p.x, p.y, 0.0, p.px, p.py, pz2 > 0.0 ? pmath::sqrt(pz2) : 0.0};
        from = p.t;
        first = (k0 + 1.0) * step - p.t;
        return true;
    }

    //! The whole element for one particle: entrance plane -> common time grid -> exit plane. False
    //! (lost) when it cannot move forward at the entrance, turns back inside, or is still inside
    //! after max_steps (too slow).
    GT_HOST_DEVICE bool operator()(Particle& p) const
    {
        double const k0 = first_step(p.t);
        double sigma = 0.0, h = 0.0;
        TimeState s{};
        if (!enter(p, k0, s, sigma, h)) return false;
        for (std::int32_t k = 0; k <= max_steps; ++k) {
            double sigma_exit = 0.0;
            Where const where = advance(s, sigma, h, sigma_exit);
            if (where == Where::lost) return false;
            if (where == Where::exited) {
                p = leave(s, sigma_exit);
                return true;
            }
            sigma = (k0 + double(k + 1)) * step;
            h = step;
        }
        return false;
    }
};

}  // namespace gt
