// A t-code entry pushed as a whole bunch, one common time step at a time, so that space charge can
// act on the bunch at fixed time between the steps (docs/physics.md, "t-code", "Space charge").
//
// Each particle goes through exactly the operations TimeCode::operator() applies to it (the same
// grid times sigma_K = K h, the same advance() calls, the same exit), so without kicks the result
// is the per-particle t-code's, bit for bit; the bunch only waits for its slowest particle.
#pragma once

#include <cstdint>
#include <limits>

#include "kernels/beam/FixedTime.hh"
#include "kernels/core/Buffer.hh"
#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/elements/Element.hh"

namespace gt {

//! Where a particle of the bunch is.
enum class TimeBunchWhere : std::int32_t {
    gone,     //!< lost before the entry: untouched
    waiting,  //!< at the entrance plane (the deck's coordinates in the particle arrays), its first grid step later
    moving,   //!< followed in time (the state arrays), before the entrance or inside
    exited,   //!< at the exit plane at time `when` (the state arrays)
    lost,     //!< lost in the element (its entrance coordinates stay in the particle arrays)
};

//! The bunch's per-particle state beside the particle arrays (slot i is particle i).
struct TimeBunchView {
    double* x;
    double* y;
    double* z;
    double* px;
    double* py;
    double* pz;
    double* when;         //!< waiting, moving: the first grid step k0; exited: sigma at the exit [m]
    double* kx;           //!< the last space-charge kick of a full step h (NaN: none yet)
    double* ky;
    double* kz;
    std::int32_t* where;  //!< TimeBunchWhere

    GT_HOST_DEVICE GT_FORCEINLINE TimeState load(size_type i) const
    {
        return TimeState{x[i], y[i], z[i], px[i], py[i], pz[i]};
    }
    GT_HOST_DEVICE GT_FORCEINLINE void store(size_type i, TimeState const& s) const
    {
        x[i] = s.x;
        y[i] = s.y;
        z[i] = s.z;
        px[i] = s.px;
        py[i] = s.py;
        pz[i] = s.pz;
    }
    GT_HOST_DEVICE GT_FORCEINLINE TimeBunchWhere at(size_type i) const { return TimeBunchWhere(where[i]); }
    GT_HOST_DEVICE GT_FORCEINLINE void set(size_type i, TimeBunchWhere w) const { where[i] = std::int32_t(w); }
};

//! Entry: the live particles wait at the entrance (misalignment applied, as track_element does).
struct TimeBunchEnter {
    ParticleView particles;
    TimeBunchView bunch;
    Element element;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        if (!particles.alive(i)) {
            bunch.set(i, TimeBunchWhere::gone);
            return;
        }
        Particle p = particles.load(i);
        if (element.misaligned) element.misalignment.enter(p);
        particles.store(i, p);
        bunch.when[i] = element.time_code.first_step(p.t);
        bunch.set(i, TimeBunchWhere::waiting);
    }
};

//! N = 1 (Min): the first grid step of the waiting particles (+inf: none).
struct TimeBunchFirstStep {
    TimeBunchView bunch;
    GT_HOST_DEVICE void operator()(size_type i, double* v) const
    {
        v[0] = bunch.at(i) == TimeBunchWhere::waiting ? bunch.when[i] : HUGE_VAL;
    }
};

//! Advances every particle from sigma_K = K h to sigma_(K+1): a waiting particle whose first step
//! is K is taken to the grid first (TimeCode::operator()'s loop, one iteration).
struct TimeBunchStep {
    ParticleView particles;
    TimeBunchView bunch;
    TimeCode code;
    double step_index;  //!< K (an integer)

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        TimeBunchWhere const w = bunch.at(i);
        if (w != TimeBunchWhere::waiting && w != TimeBunchWhere::moving) return;
        double const k0 = bunch.when[i];
        double const sigma = step_index * code.step;
        TimeState s{};
        double from = sigma, h = code.step;
        if (w == TimeBunchWhere::waiting) {
            if (step_index < k0) return;
            if (!code.enter(particles.load(i), k0, s, from, h)) {
                bunch.set(i, TimeBunchWhere::lost);
                return;
            }
            bunch.set(i, TimeBunchWhere::moving);
            // Not kicked yet (kz NaN). Emitted from a cathode, kx holds the weight of the first kick,
            // which stands for [emission, sigma_K+1 + h/2] (TimeBunchKick).
            double const nan = std::numeric_limits<double>::quiet_NaN();
            bunch.kx[i] = code.cathode ? 0.5 + h / code.step : nan;
            bunch.ky[i] = bunch.kz[i] = nan;
        } else {
            s = bunch.load(i);
        }
        double sigma_exit = 0.0;
        TimeCode::Where const where = code.advance(s, from, h, sigma_exit);
        if (where == TimeCode::Where::lost) {
            bunch.set(i, TimeBunchWhere::lost);
            return;
        }
        if (where == TimeCode::Where::exited) {
            // The last kick, at sigma_K, stood for [sigma_K - h/2, sigma_K + h/2]; the particle was
            // inside until sigma_exit: the difference, with the same force (TimeBunchKick).
            if (bunch.kz[i] == bunch.kz[i]) {
                double const f = (sigma_exit - sigma) / code.step - 0.5;
                s.px += f * bunch.kx[i];
                s.py += f * bunch.ky[i];
                s.pz += f * bunch.kz[i];
            }
            bunch.store(i, s);
            bunch.when[i] = sigma_exit;
            bunch.set(i, TimeBunchWhere::exited);
        } else {
            bunch.store(i, s);
            if (step_index - k0 >= double(code.max_steps))
                bunch.set(i, TimeBunchWhere::lost);  // still inside after max_steps + 1 steps: too slow
        }
    }
};

//! N = 3 (Sum) after a step: particles still to go (waiting or moving), particles inside the
//! element (moving, z > 0: the ones space charge kicks) and the sum of their Pz / p0.
struct TimeBunchCounts {
    TimeBunchView bunch;
    GT_HOST_DEVICE void operator()(size_type i, double* v) const
    {
        TimeBunchWhere const w = bunch.at(i);
        bool const inside = w == TimeBunchWhere::moving && bunch.z[i] > 0.0;
        v[0] = (w == TimeBunchWhere::waiting || w == TimeBunchWhere::moving) ? 1.0 : 0.0;
        v[1] = inside ? 1.0 : 0.0;
        v[2] = inside ? bunch.pz[i] : 0.0;
    }
};

//! The lab positions of the whole bunch at sigma = K h, as a particle state the space-charge solver
//! deposits: x, y, and t = -z / beta_b, so that the solver's rest-frame z' = -beta_b gamma_b t is
//! gamma_b z (at fixed time the longitudinal coordinate is z itself). Waiting particles are drifted
//! back from the entrance plane and exited ones on from the exit plane (both in straight lines, as
//! the s <-> t conversion does); lost and gone ones are not deposited. Slot i is particle i (`id`),
//! so the solver may reorder the slots; px, py, pt start at 0 and receive the kicks.
struct TimeBunchPositions {
    ParticleView particles;
    TimeBunchView bunch;
    TimeCode code;
    double step_index;
    double inv_beta_b;  //!< [1] 1 / beta of the bunch's frame
    ParticleView out;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        double const sigma = step_index * code.step;
        TimeBunchWhere const w = bunch.at(i);
        double x = 0.0, y = 0.0, z = 0.0;
        bool deposit = true;
        if (w == TimeBunchWhere::waiting && code.cathode) {
            deposit = false;  // not emitted yet
        } else if (w == TimeBunchWhere::waiting) {
            TimeState s{};
            deposit = to_fixed_time(particles.load(i), sigma, code.inv_beta0, s);
            x = s.x;
            y = s.y;
            z = s.z;
        } else if (w == TimeBunchWhere::moving) {
            x = bunch.x[i];
            y = bunch.y[i];
            z = bunch.z[i];
        } else if (w == TimeBunchWhere::exited) {
            TimeState const s = bunch.load(i);
            double const d = (sigma - bunch.when[i]) / time_state_energy(s, code.mu2);
            x = s.x + d * s.px;
            y = s.y + d * s.py;
            z = s.z + d * s.pz;
        } else {
            deposit = false;
        }
        out.x[i] = x;
        out.y[i] = y;
        out.t[i] = -z * inv_beta_b;
        out.px[i] = 0.0;
        out.py[i] = 0.0;
        out.pt[i] = 0.0;
        out.id[i] = i;
        out.lost_element[i] = deposit ? -1 : 0;
        out.lost_turn[i] = 0;
    }
};

//! Adds the kicks the solver left in `kicks` (slot j for particle id[j]) to the particles inside the
//! element. The solver's longitudinal kick is dpt = -q E'_z ds / (p_b c); over a time step the
//! momentum changes by dPz = q E_z dt, i.e. dpz = -dpt / beta_b when ds = beta_b c dt (P_b / p0).
//! A kick at sigma_K stands for [sigma_K - h/2, sigma_K + h/2] (kick-drift-kick leapfrog, second
//! order); the first one after the entrance for [sigma_entry, sigma_K + h/2], sigma_K - sigma_entry
//! = z w / Pz (straight back to the plane: O(h^2) in the weight), and the exit takes off or adds the
//! rest (TimeBunchStep).
struct TimeBunchKick {
    TimeBunchView bunch;
    ParticleView kicks;
    double inv_beta_b;
    double step;  //!< [m] h
    double mu2;

    GT_HOST_DEVICE void operator()(size_type j) const
    {
        size_type const i = size_type(kicks.id[j]);
        if (bunch.at(i) != TimeBunchWhere::moving || !(bunch.z[i] > 0.0)) return;
        double const kx = kicks.px[j], ky = kicks.py[j], kz = -kicks.pt[j] * inv_beta_b;
        double f = 1.0;
        if (!(bunch.kz[i] == bunch.kz[i]) && bunch.kx[i] == bunch.kx[i]) {  // the first after emission
            f = bunch.kx[i];
        } else if (!(bunch.kz[i] == bunch.kz[i])) {  // the first kick
            double const inside = bunch.z[i] * time_state_energy(bunch.load(i), mu2) / bunch.pz[i];
            f = 0.5 + inside / step;
            if (!(f <= 1.5)) f = 1.5;
        }
        bunch.px[i] += f * kx;
        bunch.py[i] += f * ky;
        bunch.pz[i] += f * kz;
        bunch.kx[i] = kx;
        bunch.ky[i] = ky;
        bunch.kz[i] = kz;
    }
};

//! Exit: the exited particles in the deck's coordinates at the exit plane; the lost ones recorded
//! (their entrance coordinates kept); the misalignment left, and a non-finite result lost, as
//! track_element does.
struct TimeBunchLeave {
    ParticleView particles;
    TimeBunchView bunch;
    Element element;
    std::int32_t turn;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        TimeBunchWhere const w = bunch.at(i);
        if (w == TimeBunchWhere::gone) return;
        bool const ok = w == TimeBunchWhere::exited;
        Particle p = ok ? element.time_code.leave(bunch.load(i), bunch.when[i]) : particles.load(i);
        if (element.misaligned) element.misalignment.leave(p);
        if (!(ok && is_finite(p))) {
            particles.lost_element[i] = element.index;
            particles.lost_turn[i] = turn;
        }
        particles.store(i, p);
    }
};

//! Host: the bunch arrays in one memory space, grown to the beam's size on first use.
class TimeBunchState {
  public:
    TimeBunchView view(size_type n, MemSpace space)
    {
        if (where_.size() < n) {
            for (auto& b : values_) b = Buffer<double>(n, space);
            where_ = Buffer<std::int32_t>(n, space);
        }
        return TimeBunchView{values_[0].data(), values_[1].data(), values_[2].data(), values_[3].data(),
                             values_[4].data(), values_[5].data(), values_[6].data(), values_[7].data(),
                             values_[8].data(), values_[9].data(), where_.data()};
    }

  private:
    Buffer<double> values_[10];
    Buffer<std::int32_t> where_;
};

}  // namespace gt
