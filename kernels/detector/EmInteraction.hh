// The discrete interaction that ends a shower particle's step (after the along-step action, before
// hits are scored): the process is chosen by its share of the total cross section, its final state
// sampled (kernels/physics/), and the secondaries written to the secondary stack.
//
// Secondaries below the tracking cut (physics.energy_cut for e+-, physics.photon_cut for photons)
// are not made: their energy is deposited on the spot (a positron's kinetic energy, and its two
// annihilation photons are made instead). When the stack has no room for this iteration's share,
// the interaction is held back: nothing of the track changes, and the next iterations retry it with
// the same random numbers (keyed by the track's step) until it fits, so holding back changes when
// an interaction happens in the loop, never what it does.
#pragma once

#include "kernels/detector/EmStep.hh"
#include "kernels/detector/EventEnergy.hh"
#include "kernels/detector/Secondary.hh"
#include "kernels/detector/StepActions.hh"
#include "kernels/physics/Annihilation.hh"
#include "kernels/physics/Bremsstrahlung.hh"
#include "kernels/physics/ComptonScattering.hh"
#include "kernels/physics/MollerBhabha.hh"
#include "kernels/physics/PairProduction.hh"
#include "kernels/physics/Photoelectric.hh"

namespace gt {

//! Where an iteration's secondaries go: entries [base, base + limit) of the stack.
struct SecondaryStackView {
    Secondary* data = nullptr;
    std::uint64_t base = 0;          //!< entries below wait from earlier iterations
    std::uint64_t limit = 0;         //!< most secondaries this iteration may add
    std::uint64_t* count = nullptr;  //!< added so far in this iteration
};

//! The outcome of one interaction before it is committed.
struct EmFinalState {
    static constexpr int k_max_secondaries = 3;
    int n = 0;
    Secondary made[k_max_secondaries];
    double local = 0;  //!< deposited on the spot [MeV]
    bool survives = true;
    double energy = 0;  //!< the particle's kinetic energy after [MeV]
    Vec3 dir;
};

struct EmInteract {
    DetectorParamsView params;
    TrackView t;
    SecondaryStackView stack;
    std::uint64_t* counters;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        if (t.status[i] != 1 || !t.step_done[i] || !t.interacts[i]) return;
        if (t.interacts[i] == 1 && (t.on_boundary[i] || t.energy[i] <= 0)) {
            t.interacts[i] = 0;  // the geometry or the energy cut ended the step first
            return;
        }
        int const species = em_species(params, t.particle[i]);
        std::int32_t const material = params.geometry.volumes[t.volume[i]].material;
        RandomStream rng(params.seed, t.track_id[i] ^ k_interaction_stream, t.step_count[i]);
        EmFinalState f;
        f.energy = t.energy[i];
        f.dir = t.dir[i];
        if (t.interacts[i] == 2) {
            f.survives = false;
            f.energy = 0;
            annihilate_at_rest(i, f, rng);
        } else {
            double const E = t.energy[i];
            double const xs = em_total_xs(params.em, material, species, E);
            // the step was limited with xs_used >= xs: accept with their ratio (integral method)
            if (rng.uniform() * t.xs_used[i] > xs) {
                t.interacts[i] = 0;
                t.mfp_left[i] = -1;
                return;
            }
            double const r = rng.uniform() * xs;
            if (species == k_em_gamma)
                photon(i, material, E, r, f, rng);
            else
                lepton(i, material, species, E, r, f, rng);
        }
        if (f.n > 0) {
            std::uint64_t const at =
                atomic_reserve(stack.count, static_cast<std::uint64_t>(f.n), stack.limit);
            if (at == k_reserve_failed) {
                t.held[i] = 1;
                atomic_add(counters + k_held, 1);
                return;
            }
            for (int k = 0; k < f.n; ++k) stack.data[stack.base + at + k] = f.made[k];
            atomic_add(counters + k_secondaries, static_cast<std::uint64_t>(f.n));
        }
        t.held[i] = 0;
        t.interacts[i] = 0;
        t.mfp_left[i] = -1;
        t.edep[i] += f.local;
        t.edep_cut[i] += f.local;
        t.energy[i] = f.survives ? f.energy : 0.0;
        t.dir[i] = f.dir;
        if (!f.survives) t.ending[i] = static_cast<std::int32_t>(TrackEnd::stopped);
    }

  private:
    //! Adds a secondary, or deposits it when it is below its tracking cut (a positron's two
    //! annihilation photons are made then).
    GT_HOST_DEVICE void emit(size_type i, EmFinalState& f, std::int32_t particle, double energy, Vec3 dir,
                             RandomStream& rng) const
    {
        double const cut = particle == k_em_gamma ? params.physics.photon_cut : params.physics.energy_cut;
        if (energy < cut) {
            f.local += energy;
            if (particle == k_em_positron) annihilate_at_rest(i, f, rng);
            return;
        }
        Secondary& s = f.made[f.n];
        s.event = t.event[i];
        s.track = secondary_track_id(t.track_id[i], t.step_count[i], static_cast<std::uint32_t>(f.n));
        s.particle = particle;
        s.volume = t.volume[i];
        s.pos = t.pos[i];
        s.dir = dir;
        s.energy = energy;
        s.time = t.time[i];
        ++f.n;
    }

    GT_HOST_DEVICE void annihilate_at_rest(size_type i, EmFinalState& f, RandomStream& rng) const
    {
        AnnihilationResult const a = sample_annihilation_at_rest(rng);
        emit(i, f, k_em_gamma, a.energy[0], a.dir[0], rng);
        emit(i, f, k_em_gamma, a.energy[1], a.dir[1], rng);
    }

    //! A lepton whose energy fell below the tracking cut in an interaction stops there.
    GT_HOST_DEVICE void settle(size_type i, EmFinalState& f, int species, RandomStream& rng) const
    {
        if (f.energy >= params.physics.energy_cut) return;
        f.local += f.energy;
        f.energy = 0;
        f.survives = false;
        if (species == k_em_positron) annihilate_at_rest(i, f, rng);
    }

    GT_HOST_DEVICE void photon(size_type i, std::int32_t material, double E, double r, EmFinalState& f,
                               RandomStream& rng) const
    {
        EmTablesView const& em = params.em;
        double const compton = em.value(material, q_gamma_compton, E);
        double const pair = em.value(material, q_gamma_pair, E);
        if (r < compton) {
            ComptonResult const c = sample_compton(E, t.dir[i], rng);
            emit(i, f, k_em_electron, c.electron_energy, c.electron_dir, rng);
            f.energy = c.photon_energy;
            f.dir = c.photon_dir;
            if (f.energy < params.physics.photon_cut) {
                f.local += f.energy;
                f.energy = 0;
                f.survives = false;
            }
        } else if (r < compton + pair && E > 2.0 * em::k_me) {
            PairResult const p = sample_pair(E, t.dir[i], em.materials[material].z_sampling, rng);
            f.survives = false;
            f.energy = 0;
            emit(i, f, k_em_electron, p.electron_energy, p.electron_dir, rng);
            emit(i, f, k_em_positron, p.positron_energy, p.positron_dir, rng);
        } else {
            double binding = em.photoelectric_interval(material, E).edge;
            binding = binding < E ? binding : E;
            double const T = E - binding;
            f.local += binding;
            f.survives = false;
            f.energy = 0;
            if (T > 0)
                emit(i, f, k_em_electron, T,
                     rotated(t.dir[i], sample_sauter_cos_theta(T, rng), em::k_two_pi * rng.uniform()), rng);
        }
    }

    GT_HOST_DEVICE void lepton(size_type i, std::int32_t material, int species, double T, double r,
                               EmFinalState& f, RandomStream& rng) const
    {
        EmTablesView const& em = params.em;
        EmMaterial const& m = em.materials[material];
        bool const positron = species == k_em_positron;
        double const ioni = em.value(material, positron ? q_positron_ioni : q_electron_ioni, T);
        double const brems = em.value(material, positron ? q_positron_brems : q_electron_brems, T);
        double const x_max = positron ? T : 0.5 * T;
        if (r < ioni && m.cut_electron < x_max) {
            DeltaRayResult const d = sample_delta_ray(positron, T, m.cut_electron, t.dir[i], rng);
            f.energy = d.primary_energy;
            f.dir = d.primary_dir;
            emit(i, f, k_em_electron, d.delta_energy, d.delta_dir, rng);
            settle(i, f, species, rng);
        } else if (r < ioni + brems && m.cut_gamma < T) {
            BremsResult const b = sample_bremsstrahlung(m.z_sampling, T, m.cut_gamma, t.dir[i], rng);
            f.energy = b.lepton_energy;
            emit(i, f, k_em_gamma, b.photon_energy, b.photon_dir, rng);
            settle(i, f, species, rng);
        } else if (positron) {
            AnnihilationResult const a = sample_annihilation_in_flight(T, t.dir[i], rng);
            f.survives = false;
            f.energy = 0;
            emit(i, f, k_em_gamma, a.energy[0], a.dir[0], rng);
            emit(i, f, k_em_gamma, a.energy[1], a.dir[1], rng);
        }
    }
};

}  // namespace gt
