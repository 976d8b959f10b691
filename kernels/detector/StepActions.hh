// The actions of one step iteration, each a per-track functor that an executor runs over all slots
// as its own kernel (Celeritas' stepping loop, seed paper section 2): initialize primaries into
// vacant slots, limit the step, propagate, apply along-step physics, score hits, cross boundaries,
// end tracks.
#pragma once

#include "kernels/detector/Atomic.hh"
#include "kernels/detector/Hit.hh"
#include "kernels/detector/ParticleGun.hh"
#include "kernels/detector/TrackState.hh"
#include "kernels/physics/EnergyLossFluctuation.hh"
#include "kernels/physics/MultipleScattering.hh"

namespace gt {

//! Run-wide counters, incremented atomically by the actions.
enum Counter : int { k_hit_count = 0, k_escaped, k_stopped, k_looping, k_steps, k_substeps, k_num_counters };

//! Longest step of a charged track in a magnetic field [m] (in vacuum nothing else limits it).
inline constexpr double k_max_field_step = 1.0;

//! Energy tallies are integers in units of k_tally_unit, so that their sums do not depend on order.
inline constexpr double k_tally_unit = 1.0e-9;  //!< [MeV]

GT_HOST_DEVICE inline double beta_of(double T, double mass)
{
    double const gamma = 1.0 + T / mass;
    return pmath::sqrt(1.0 - 1.0 / (gamma * gamma));
}

struct InitializeTracks {
    DetectorParamsView params;
    TrackView t;
    std::uint64_t next_primary;  //!< number of the first primary to start in this iteration
    std::uint64_t* counters;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        if (t.status[i] != 0) return;
        std::uint64_t const id = next_primary + t.vacancy_rank[i];
        if (id >= params.gun.primaries) return;
        Primary const p = make_primary(params.gun, params.seed, id);
        t.track_id[i] = id;
        t.event[i] = p.event;
        t.particle[i] = p.particle;
        t.pos[i] = p.pos;
        t.dir[i] = p.dir;
        t.energy[i] = p.energy;
        t.time[i] = 0;
        t.step_count[i] = 0;
        t.in_step[i] = 0;
        t.step_done[i] = 0;
        t.on_boundary[i] = 0;
        t.ending[i] = 0;
        t.h_next[i] = HUGE_VAL;
        t.h_limit[i] = HUGE_VAL;
        t.msc_depth[i] = 0;
        t.edep[i] = 0;
        std::int32_t const v = Navigator(params.geometry).locate(p.pos, 0);
        t.volume[i] = v;
        if (v < 0) {  // started outside the world: ends at once
            atomic_add(counters + k_escaped, 1);
            return;
        }
        t.status[i] = 1;
    }
};

//! Physics step limit for tracks starting a new step.
struct LimitStep {
    DetectorParamsView params;
    TrackView t;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        if (t.status[i] != 1 || t.in_step[i]) return;
        PhysicsParams const& ph = params.physics;
        ParticleType const& pt = params.particles[t.particle[i]];
        MaterialParams const& mat = params.materials[params.geometry.volumes[t.volume[i]].material];
        // in vacuum, or for a neutral particle, nothing limits the step but the geometry
        double s = pt.charge != 0 && !mat.vacuum() ? ph.max_step : HUGE_VAL;
        if (pt.charge != 0 && !mat.vacuum() && ph.energy_loss) {
            double const dedx = mean_dedx(mat, pt, t.energy[i]);
            if (dedx > 0) {
                double const range = t.energy[i] / dedx;  // a short estimate of the residual range
                double const s_loss = range > ph.final_range ? (ph.range_fraction * range > ph.final_range
                                                                    ? ph.range_fraction * range
                                                                    : ph.final_range)
                                                             : range;
                s = s_loss < s ? s_loss : s;
            }
        }
        // a charged track in a field may circle in vacuum for ever: bounded steps let max_steps end it
        if (pt.charge != 0 && params.field.type != FieldType::none && s > k_max_field_step)
            s = k_max_field_step;
        t.remaining[i] = s;
        t.step_length[i] = 0;
        t.pre_pos[i] = t.pos[i];
        t.pre_dir[i] = t.dir[i];
        t.pre_energy[i] = t.energy[i];
        t.pre_time[i] = t.time[i];
        t.in_step[i] = 1;
        t.step_done[i] = 0;
        t.on_boundary[i] = 0;
        t.edep[i] = 0;
    }
};

struct Propagate {
    DetectorParamsView params;
    TrackView t;
    std::uint64_t* counters;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        if (t.status[i] != 1 || !t.in_step[i] || t.step_done[i]) return;
        Navigator const nav(params.geometry);
        ParticleType const& pt = params.particles[t.particle[i]];
        if (params.field.type != FieldType::none && pt.charge != 0) {
            double const T = t.energy[i];
            double const p = pmath::sqrt(T * (T + 2.0 * pt.mass));
            PropState st{t.remaining[i], t.h_next[i], t.h_limit[i]};
            Vec3 pos = t.pos[i], dir = t.dir[i];
            FieldPropagator<MagneticField> const prop(params.field, params.propagation, nav);
            PropagationResult const r = prop(pos, dir, pt.charge, p, t.volume[i], st);
            t.pos[i] = pos;
            t.dir[i] = dir;
            t.remaining[i] = st.remaining;
            t.h_next[i] = st.h_next;
            t.h_limit[i] = st.h_limit;
            t.step_length[i] += r.length;
            t.step_done[i] = r.done;
            t.on_boundary[i] = r.boundary;
            atomic_add(counters + k_substeps, static_cast<std::uint64_t>(r.substeps));
            return;
        }
        NextStep const ns = nav.find_next_step(t.volume[i], t.pos[i], t.dir[i], t.remaining[i]);
        t.pos[i] = axpy(ns.distance, t.dir[i], t.pos[i]);
        t.step_length[i] += ns.distance;
        t.remaining[i] -= ns.distance;
        t.step_done[i] = 1;
        t.on_boundary[i] = ns.boundary;
        atomic_add(counters + k_substeps, 1);
    }
};

//! Continuous energy loss with straggling, the energy cut, and multiple scattering, over the
//! whole step once it is complete.
struct AlongStep {
    DetectorParamsView params;
    TrackView t;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        if (t.status[i] != 1 || !t.step_done[i]) return;
        PhysicsParams const& ph = params.physics;
        ParticleType const& pt = params.particles[t.particle[i]];
        MaterialParams const& mat = params.materials[params.geometry.volumes[t.volume[i]].material];
        double const s = t.step_length[i];
        double T = t.energy[i];
        t.time[i] = t.pre_time[i] + s / (beta_of(t.pre_energy[i], pt.mass) * constants::c_light);
        if (pt.charge == 0 || mat.vacuum()) return;
        RandomStream rng(params.seed, t.track_id[i], t.step_count[i]);
        double edep = 0;
        if (ph.energy_loss && s > 0) {
            // mean loss with dE/dx taken at the step's mid energy
            double const half = 0.5 * s * mean_dedx(mat, pt, T);
            double const t_mid = T - half > 0 ? T - half : 0.5 * T;
            double loss = s * mean_dedx(mat, pt, t_mid);
            if (ph.fluctuations && loss < T)
                loss = sample_energy_loss(loss, bohr_variance(mat, pt, T, s), rng);
            if (loss >= T) {
                edep = T;
                T = 0;
            } else {
                edep = loss;
                T -= loss;
            }
        }
        if (T < ph.energy_cut) {
            edep += T;
            T = 0;
            t.ending[i] = static_cast<std::int32_t>(TrackEnd::stopped);
        }
        t.energy[i] = T;
        t.edep[i] = edep;
        if (ph.multiple_scattering && T > 0 && s > 0 && mat.radiation_length < HUGE_VAL) {
            ScatteringResult const sc =
                multiple_scatter(t.dir[i], s, mat.radiation_length, t.msc_depth[i], pt, t.pre_energy[i], rng);
            t.dir[i] = sc.dir;
            t.msc_depth[i] += s / mat.radiation_length;
            if (!t.on_boundary[i]) {
                // the lateral displacement may not leave the volume: limit it to the safety
                double const d = norm(sc.displacement);
                if (d > 0) {
                    Navigator const nav(params.geometry);
                    double const safe = nav.safety(t.volume[i], t.pos[i], d);
                    double const f = d <= safe ? 1.0 : 0.99 * safe / d;
                    t.pos[i] = axpy(f, sc.displacement, t.pos[i]);
                }
            }
        }
    }
};

//! Appends a hit for every completed step in a sensitive volume; tallies energy per volume.
struct ScoreHits {
    DetectorParamsView params;
    TrackView t;
    Hit* hits;
    std::uint64_t hit_capacity;  //!< the host guarantees room for one hit per slot
    std::uint64_t* counters;
    std::uint64_t* tallies;  //!< per logical volume, in k_tally_unit

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        if (t.status[i] != 1 || !t.step_done[i]) return;
        PlacedVolume const& pv = params.geometry.volumes[t.volume[i]];
        double const edep = t.edep[i];
        if (edep > 0) atomic_add(tallies + pv.logical, static_cast<std::uint64_t>(edep / k_tally_unit + 0.5));
        if (!pv.sensitive) return;
        std::uint64_t const k = atomic_add(counters + k_hit_count, 1);
        if (k >= hit_capacity) return;  // cannot happen: the host grows the buffer beforehand
        ParticleType const& pt = params.particles[t.particle[i]];
        double const T0 = t.pre_energy[i];
        double const p0 = pmath::sqrt(T0 * (T0 + 2.0 * pt.mass));
        Hit h;
        h.event = t.event[i];
        h.track = t.track_id[i];
        h.volume = pv.logical;
        h.replica = pv.replica;
        h.step = t.step_count[i];
        h.particle = t.particle[i];
        h.pre = t.pre_pos[i];
        h.post = t.pos[i];
        h.time = t.pre_time[i];
        h.edep = edep;
        h.momentum = p0 * t.pre_dir[i];
        hits[k] = h;
    }
};

struct CrossBoundary {
    DetectorParamsView params;
    TrackView t;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        if (t.status[i] != 1 || !t.step_done[i] || !t.on_boundary[i] || t.ending[i]) return;
        std::int32_t const v = Navigator(params.geometry).cross_boundary(t.volume[i], t.pos[i], t.dir[i]);
        if (v < 0) {
            t.ending[i] = static_cast<std::int32_t>(TrackEnd::escaped);
            return;
        }
        if (v != t.volume[i]) t.msc_depth[i] = 0;
        t.volume[i] = v;
        // leave the surface by the same push the navigator used to decide the side, so that the
        // next step starts strictly inside the new volume (1 nm, far below delta_intersection)
        t.pos[i] = axpy(nav::k_push, t.dir[i], t.pos[i]);
    }
};

//! Closes completed steps and ends tracks that stopped, escaped or took too many steps.
struct EndStep {
    DetectorParamsView params;
    TrackView t;
    std::uint64_t* counters;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        if (t.status[i] != 1 || !t.step_done[i]) return;
        t.step_count[i] += 1;
        t.in_step[i] = 0;
        t.step_done[i] = 0;
        atomic_add(counters + k_steps, 1);
        std::int32_t e = t.ending[i];
        if (e == 0 && t.step_count[i] >= params.physics.max_steps)
            e = static_cast<std::int32_t>(TrackEnd::looping);
        if (e == 0) return;
        t.status[i] = 0;
        int const c = e == static_cast<std::int32_t>(TrackEnd::escaped)   ? k_escaped
                      : e == static_cast<std::int32_t>(TrackEnd::stopped) ? k_stopped
                                                                          : k_looping;
        atomic_add(counters + c, 1);
    }
};

}  // namespace gt
