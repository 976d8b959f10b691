// The actions of one step iteration, each a per-track functor that an executor runs over all slots
// as its own kernel (Celeritas' stepping loop, seed paper section 2): initialize primaries into
// vacant slots, limit the step, propagate, apply along-step physics, score hits, cross boundaries,
// end tracks.
#pragma once

#include <type_traits>

#include "kernels/detector/Atomic.hh"
#include "kernels/detector/EmStep.hh"
#include "kernels/detector/EventEnergy.hh"
#include "kernels/detector/EventTrackLength.hh"
#include "kernels/detector/Hit.hh"
#include "kernels/detector/LoopPlan.hh"
#include "kernels/detector/ParticleGun.hh"
#include "kernels/detector/Secondary.hh"
#include "kernels/detector/TrackState.hh"
#include "kernels/physics/EnergyLossFluctuation.hh"
#include "kernels/physics/MultipleScattering.hh"
#include "kernels/physics/UrbanFluctuation.hh"

namespace gt {

//! Run-wide counters, incremented atomically by the actions.
//! k_secondaries: secondaries created; k_held: interactions held back one iteration for want of room
//! in the secondary buffer (they happen, identically, in a later iteration).
enum Counter : int {
    k_hit_count = 0,
    k_escaped,
    k_stopped,
    k_looping,
    k_steps,
    k_substeps,
    k_secondaries,
    k_held,
    k_num_counters
};

//! Longest step of a charged track in a magnetic field [m] (in vacuum nothing else limits it).
inline constexpr double k_max_field_step = 1.0;

GT_HOST_DEVICE inline double beta_of(double T, double mass)
{
    double const gamma = 1.0 + T / mass;
    return pmath::sqrt(1.0 - 1.0 / (gamma * gamma));
}

//! The transport mean free path [m] that multiple scattering's path-length correction and step limit use.
//! Shower e+- keep Highland's model by default (msc_model = "moliere" applies to the other charged
//! tracks): with Molière's and the screened-Rutherford lambda_1, the shower cores in lead widened (r90
//! +7%, TestEm2's radial containment outside its tolerance). msc_model = "moliere_all" gives shower e+-
//! Molière's angles with this (Highland's) lambda_1 as their mean, docs/physics.md §8.
GT_HOST_DEVICE inline double msc_lambda1(PhysicsParams const&, MaterialParams const& mat, ParticleType const& pt,
                                         double T)
{
    return highland_lambda1(mat.radiation_length, pt, T);
}

//! Rest-energy bookkeeping of the energy balance (EventEnergy.hh): a positron counts T + 2 m_e.
GT_HOST_DEVICE inline double balance_energy(DetectorParamsView const& p, std::int32_t particle, double T)
{
    return em_species(p, particle) == k_em_positron ? T + 2.0 * constants::electron_mass_mev : T;
}

//! Fills vacant slots: the first `from_pending` (by vacancy rank) with secondaries from the top of
//! the stack, the rest with the next primaries. With a `plan`, the three counts are the plan's
//! (read on the backend, LoopPlan.hh) and the fields are not used.
struct InitializeTracks {
    DetectorParamsView params;
    TrackView t;
    std::uint64_t next_primary;  //!< number of the first primary to start in this iteration
    Secondary const* pending;    //!< the secondary stack
    std::uint64_t pending_count;
    std::uint64_t from_pending;  //!< secondaries to start in this iteration
    std::uint64_t* counters;
    EventEnergyView energy;
    LoopScalars const* plan = nullptr;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        if (t.status[i] != 0) return;
        std::uint64_t const rank = t.vacancy_rank[i];
        std::uint64_t const first_primary = plan ? plan->first_primary : next_primary;
        std::uint64_t const from_stack = plan ? plan->from_stack : from_pending;
        // the plan's stack count is after this iteration's starts
        std::uint64_t const waiting = plan ? plan->stack_count + plan->from_stack : pending_count;
        Secondary s;
        if (rank < from_stack) {
            s = pending[waiting - 1 - rank];
        } else {
            std::uint64_t const id = first_primary + (rank - from_stack);
            if (id >= params.gun.primaries) return;
            Primary const p = make_primary(params.gun, params.seed, id);
            s.event = p.event;
            s.track = id;
            s.particle = p.particle;
            s.pos = p.pos;
            s.dir = p.dir;
            s.energy = p.energy;
            s.time = p.time;
            s.volume = Navigator(params.geometry).locate(p.pos, 0);
            energy.add(p.event, k_energy_primary, balance_energy(params, p.particle, p.energy));
        }
        t.track_id[i] = s.track;
        t.event[i] = s.event;
        t.particle[i] = s.particle;
        t.pos[i] = s.pos;
        t.dir[i] = s.dir;
        t.energy[i] = s.energy;
        t.time[i] = s.time;
        t.step_count[i] = 0;
        t.in_step[i] = 0;
        t.step_done[i] = 0;
        t.on_boundary[i] = 0;
        t.ending[i] = 0;
        t.h_next[i] = HUGE_VAL;
        t.h_limit[i] = HUGE_VAL;
        t.msc_depth[i] = 0;
        t.edep[i] = 0;
        t.edep_cut[i] = 0;
        t.mfp_left[i] = -1;
        t.xs_used[i] = 0;
        t.interacts[i] = 0;
        t.held[i] = 0;
        t.volume[i] = s.volume;
        if (s.volume < 0) {  // started outside the world: ends at once
            atomic_add(counters + k_escaped, 1);
            energy.add(s.event, k_energy_escaped, balance_energy(params, s.particle, s.energy));
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
        std::int32_t const material = params.geometry.volumes[t.volume[i]].material;
        MaterialParams const& mat = params.materials[material];
        int const species = em_species(params, t.particle[i]);
        if (species >= 0) {
            start_step(i, limit_em_step(i, species, material, mat));
            return;
        }
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
        start_step(i, s);
    }

    //! The step of an e-, e+ or photon: the nearer of its next interaction (its mean free paths left
    //! over the total cross section) and, for e+-, the energy-loss limit on the range table.
    GT_HOST_DEVICE double limit_em_step(size_type i, int species, std::int32_t material,
                                        MaterialParams const& mat) const
    {
        PhysicsParams const& ph = params.physics;
        EmTablesView const& em = params.em;
        bool const charged = species != k_em_gamma;
        t.interacts[i] = 0;
        t.xs_used[i] = 0;
        double s = HUGE_VAL;
        if (!mat.vacuum()) {
            if (t.mfp_left[i] < 0) {
                RandomStream rng(params.seed, t.track_id[i] ^ k_limit_stream, t.step_count[i]);
                t.mfp_left[i] = -pmath::log(rng.uniform());
            }
            double const T = t.energy[i];
            double xs = em_total_xs(em, material, species, T);
            if (charged) {
                double const R = em.value(material, em_range_quantity(species), T);
                double const f = ph.range_fraction * R;
                double s_loss = R > ph.final_range ? (f > ph.final_range ? f : ph.final_range) : R;
                s_loss = s_loss < ph.max_step ? s_loss : ph.max_step;
                // a cross section may grow as the particle slows down: use the larger of the step's
                // two ends, and let the interaction accept with sigma(T_end) / xs_used
                double const t_end =
                    em.energy_of_range(material, em_range_quantity(species), R - (s_loss < R ? s_loss : R));
                if (t_end > 0) {
                    double const xs_end = em_total_xs(em, material, species, t_end);
                    xs = xs_end > xs ? xs_end : xs;
                }
                s = s_loss;
            }
            double const s_phys = xs > 0 ? t.mfp_left[i] / xs : HUGE_VAL;
            if (s_phys < s) {
                s = s_phys;
                t.interacts[i] = 1;
            }
            t.xs_used[i] = xs;
            if (charged && ph.multiple_scattering && mat.radiation_length < HUGE_VAL) {
                // s is a true path length: multiple scattering limits it near boundaries and converts
                // it to the geometric advance the navigator moves (kernels/physics/MultipleScattering.hh)
                ParticleType const& pt = params.particles[t.particle[i]];
                double const lambda1 = msc_lambda1(ph, mat, pt, T);
                if (ph.msc_range_factor > 0) {
                    double const R = em.value(material, em_range_quantity(species), T);
                    double const safety = Navigator(params.geometry).safety(t.volume[i], t.pos[i], R);
                    double const lim = msc_step_limit(ph.msc_range_factor, R, lambda1, safety, T);
                    if (lim < s) {
                        s = lim;
                        t.interacts[i] = 0;
                    }
                }
                if (ph.msc_path_correction) s = msc_geometric_length(s, lambda1);
            }
        }
        if (charged && params.field.type != FieldType::none && s > k_max_field_step) {
            s = k_max_field_step;
            t.interacts[i] = 0;
        }
        return s;
    }

    GT_HOST_DEVICE void start_step(size_type i, double s) const
    {
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
        t.edep_cut[i] = 0;
    }
};

//! The field kind of a deck without a field: Propagate<NoField> moves every track on a straight line,
//! without the field propagator's code (and its 128 registers, ptxas -v).
struct NoField {};

//! Field is the kind the deck's field is (field_of): the backend launches the one that matches, so
//! that the kernel holds that field's code only, not the switch over every kind (which the finite
//! solenoid's elliptic integrals make the register demand of all). MagneticField: any kind; NoField:
//! a deck whose field type is none.
template <class Field = MagneticField>
struct Propagate {
    DetectorParamsView params;
    TrackView t;
    std::uint64_t* counters;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        if (t.status[i] != 1 || !t.in_step[i] || t.step_done[i]) return;
        Navigator const nav(params.geometry);
        if constexpr (!std::is_same_v<Field, NoField>) {
            ParticleType const& pt = params.particles[t.particle[i]];
            if (params.field.type != FieldType::none && pt.charge != 0) {
                propagate_in_field(i, nav, pt);
                return;
            }
        }
        NextStep const ns = nav.find_next_step(t.volume[i], t.pos[i], t.dir[i], t.remaining[i]);
        t.pos[i] = axpy(ns.distance, t.dir[i], t.pos[i]);
        t.step_length[i] += ns.distance;
        t.remaining[i] -= ns.distance;
        t.step_done[i] = 1;
        t.on_boundary[i] = ns.boundary;
        atomic_add(counters + k_substeps, 1);
    }

  private:
    GT_HOST_DEVICE void propagate_in_field(size_type i, Navigator const& nav, ParticleType const& pt) const
    {
        double const T = t.energy[i];
        double const p = pmath::sqrt(T * (T + 2.0 * pt.mass));
        PropState st{t.remaining[i], t.h_next[i], t.h_limit[i]};
        Vec3 pos = t.pos[i], dir = t.dir[i];
        FieldPropagator<Field> const prop(field_of<Field>(params.field), params.propagation, nav);
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
    }
};

//! Continuous energy loss with straggling, the energy cut, and multiple scattering, over the
//! whole step once it is complete. e+- with shower physics lose the restricted loss of the range
//! table; the interaction lengths of shower particles are used up here.
struct AlongStep {
    DetectorParamsView params;
    TrackView t;
    EventTrackLengthView lengths;  //!< per-event true path lengths in sensitive volumes (null: not recorded)

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        if (t.status[i] != 1 || !t.step_done[i] || t.held[i]) return;
        PhysicsParams const& ph = params.physics;
        ParticleType const& pt = params.particles[t.particle[i]];
        std::int32_t const material = params.geometry.volumes[t.volume[i]].material;
        MaterialParams const& mat = params.materials[material];
        int const species = em_species(params, t.particle[i]);
        double T = t.energy[i];
        double const s_geom = t.step_length[i];
        // a shower e+-'s step is a geometric advance; its true path length is longer
        bool const msc_path = species >= 0 && pt.charge != 0 && ph.multiple_scattering &&
                              ph.msc_path_correction && !mat.vacuum() && mat.radiation_length < HUGE_VAL;
        double const s =
            msc_path ? msc_true_length(s_geom, msc_lambda1(ph, mat, pt, T)) : s_geom;
        t.time[i] = t.pre_time[i] + s / (beta_of(t.pre_energy[i], pt.mass) * constants::c_light);
        if (lengths.data && species >= 0 && params.geometry.volumes[t.volume[i]].sensitive)
            lengths.add(t.event[i], pt.charge != 0 ? k_length_charged : k_length_neutral, s);
        if (species >= 0 && !mat.vacuum() && t.mfp_left[i] >= 0) {
            double const left = t.mfp_left[i] - s * t.xs_used[i];
            t.mfp_left[i] = left > 0 ? left : 0.0;
        }
        if (pt.charge == 0 || mat.vacuum()) return;
        RandomStream rng(params.seed, t.track_id[i], t.step_count[i]);
        double edep = 0, edep_cut = 0;
        if (ph.energy_loss && s > 0) {
            double loss = 0, variance = 0;
            bool urban = false;
            if (species >= 0) {
                loss = em_mean_loss(params.em, material, species, T, s);
                double const t_max = species == k_em_electron ? 0.5 * T : T;
                EmMaterial const& em_mat = params.em.materials[material];
                double const cut = em_mat.cut_electron;
                if (ph.urban_fluctuations) {
                    if (ph.fluctuations && loss < T) {
                        // Urban's model, the largest continuous transfer the delta-ray threshold
                        double const tau = T / constants::electron_mass_mev;
                        double const bg2 = tau * (tau + 2.0);
                        double const beta2 = bg2 / ((1.0 + tau) * (1.0 + tau));
                        loss =
                            sample_urban_loss(em_mat.urban, loss, bg2, beta2, cut < t_max ? cut : t_max, rng);
                    }
                    urban = true;
                } else {
                    // Bohr's variance with the largest transfer cut to the delta-ray threshold
                    variance = bohr_variance(mat, pt, T, s) * (cut < t_max ? cut / t_max : 1.0);
                }
            } else {
                // mean loss with dE/dx taken at the step's mid energy
                double const half = 0.5 * s * mean_dedx(mat, pt, T);
                double const t_mid = T - half > 0 ? T - half : 0.5 * T;
                loss = s * mean_dedx(mat, pt, t_mid);
                variance = bohr_variance(mat, pt, T, s);
            }
            if (ph.fluctuations && !urban && loss < T) loss = sample_energy_loss(loss, variance, rng);
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
            if (species >= 0) edep_cut = T;
            T = 0;
            t.ending[i] = static_cast<std::int32_t>(TrackEnd::stopped);
            if (species == k_em_positron) t.interacts[i] = 2;  // annihilates at rest
        }
        t.energy[i] = T;
        t.edep[i] = edep;
        t.edep_cut[i] = edep_cut;
        if (ph.multiple_scattering && T > 0 && s > 0 && mat.radiation_length < HUGE_VAL) {
            ScatteringResult const sc =
                (ph.msc_model == k_msc_moliere && species < 0) || ph.msc_model == k_msc_moliere_all
                    ? moliere_scatter(t.dir[i], s, mat, t.msc_depth[i] * mat.radiation_length, pt,
                                      t.pre_energy[i], pt.mass < 1.0, rng, s_geom,
                                      species >= 0 ? msc_lambda1(ph, mat, pt, t.pre_energy[i]) : -1.0)
                    : multiple_scatter(t.dir[i], s, mat.radiation_length, t.msc_depth[i], pt, t.pre_energy[i],
                                       rng, s_geom, species >= 0 && ph.msc_exact_mean != 0);
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

    EventEnergyView energy;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        if (t.status[i] != 1 || !t.step_done[i] || t.held[i]) return;
        PlacedVolume const& pv = params.geometry.volumes[t.volume[i]];
        double const edep = t.edep[i];
        if (edep > 0) atomic_add(tallies + pv.logical, tally_units(edep));
        energy.add(t.event[i], k_energy_deposited, edep - t.edep_cut[i]);
        energy.add(t.event[i], k_energy_below_cut, t.edep_cut[i]);
        if (!pv.sensitive) return;
        // a shower's many photon crossings deposit nothing and are no hits; a charged particle's
        // crossing is one (a thin layer may take no deposit from it in the step), unless the deck
        // asks for deposits only (physics.charged_crossing_hits = false, docs/physics.md)
        if (params.physics.showers && edep <= 0 &&
            (!params.physics.charged_crossing_hits || params.particles[t.particle[i]].charge == 0))
            return;
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
        if (t.status[i] != 1 || !t.step_done[i] || !t.on_boundary[i] || t.ending[i] || t.held[i]) return;
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
    EventEnergyView energy;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        if (t.status[i] != 1 || !t.step_done[i] || t.held[i]) return;
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
        if (c != k_stopped)
            energy.add(t.event[i], c == k_escaped ? k_energy_escaped : k_energy_lost,
                       balance_energy(params, t.particle[i], t.energy[i]));
    }
};

}  // namespace gt
