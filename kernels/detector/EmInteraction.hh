// The discrete interaction that ends a shower particle's step (after the along-step action, before
// hits are scored): the process is chosen by its share of the total cross section, its final state
// sampled (kernels/physics/), and the secondaries written to the secondary stack.
//
// Secondaries below the tracking cut (physics.energy_cut for e+-, physics.photon_cut for photons)
// are not made: their energy is deposited on the spot (a positron's kinetic energy, and its two
// annihilation photons are made instead).
//
// Two passes, so that the stack's order and the held-back set follow slot order and never thread
// order (the same bits on CPU and GPU for any thread count): EmInteractOf samples every interaction,
// commits those without secondaries and leaves the rest's final states in a per-slot buffer with
// their secondary counts; the backend scans the counts in slot order (exclusive prefix sums); then
// EmCommit writes slot i's secondaries at its offset and commits it, or, when its offset + count
// exceeds the iteration's room, holds it back: nothing of the track changes, and the next
// iterations retry it with the same random numbers (keyed by the track's step) until it fits, so
// holding back changes when an interaction happens in the loop, never what it does.
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

//! Where an iteration's secondaries go: entries [*base, *base + limit) of the stack.
struct SecondaryStackView {
    Secondary* data = nullptr;
    std::uint64_t const* base = nullptr;  //!< entries below wait from earlier iterations (the plan's count)
    std::uint64_t limit = 0;              //!< most secondaries this iteration may add
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

//! Samples the interactions of one kind of particle: photons (Photons = true) or e+- and the
//! particles without shower physics (false), so that each kernel holds one kind's samplers and the
//! registers they need, not both (the backend runs the two over the same slots; each slot is one
//! kind's). t.secondaries[i] receives slot i's number of secondaries (0: committed already, or no
//! interaction) and finals[i] its final state when there are some.
template <bool Photons>
struct EmInteractOf {
    DetectorParamsView params;
    TrackView t;
    EmFinalState* finals;  //!< one per slot

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        bool const photon_slot = t.status[i] == 1 && em_species(params, t.particle[i]) == k_em_gamma;
        if (photon_slot != Photons) return;  // the other kind's kernel takes this slot
        t.secondaries[i] = 0;
        if (t.status[i] != 1 || !t.step_done[i] || !t.interacts[i]) return;
        if (t.interacts[i] == 1 && (t.on_boundary[i] || t.energy[i] <= 0)) {
            t.interacts[i] = 0;  // the geometry or the energy cut ended the step first
            return;
        }
        int const species = Photons ? k_em_gamma : em_species(params, t.particle[i]);
        std::int32_t const material = params.geometry.volumes[t.volume[i]].material;
        RandomStream rng(params.seed, t.track_id[i] ^ k_interaction_stream, t.step_count[i]);
        Sampled f;
        f.made = finals[i].made;
        f.energy = t.energy[i];
        f.dir = t.dir[i];
        if (!Photons && t.interacts[i] == 2) {
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
            if constexpr (Photons)
                photon(i, material, E, r, f, rng);
            else
                lepton(i, material, species, E, r, f, rng);
        }
        if (f.n > 0) {
            t.secondaries[i] = static_cast<std::uint32_t>(f.n);
            EmFinalState& out = finals[i];  // its secondaries are there already
            out.n = f.n;
            out.local = f.local;
            out.survives = f.survives;
            out.energy = f.energy;
            out.dir = f.dir;
            return;
        }
        commit(t, i, f);
    }

    //! The track after its interaction (also called by EmCommit): F is Sampled or EmFinalState.
    template <class F>
    GT_HOST_DEVICE static void commit(TrackView const& t, size_type i, F const& f)
    {
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
    //! An interaction's outcome as it is sampled: the track's part here, its secondaries written to
    //! the slot's EmFinalState at once (a whole EmFinalState here took 320 bytes of stack, ptxas -v).
    struct Sampled {
        int n = 0;
        Secondary* made = nullptr;
        double local = 0;  //!< deposited on the spot [MeV]
        bool survives = true;
        double energy = 0;  //!< the particle's kinetic energy after [MeV]
        Vec3 dir;
    };

    //! Adds a secondary, or deposits it when it is below its tracking cut (a positron's two
    //! annihilation photons are made then).
    GT_HOST_DEVICE void emit(size_type i, Sampled& f, std::int32_t particle, double energy, Vec3 dir,
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

    GT_HOST_DEVICE void annihilate_at_rest(size_type i, Sampled& f, RandomStream& rng) const
    {
        AnnihilationResult const a = sample_annihilation_at_rest(rng);
        emit(i, f, k_em_gamma, a.energy[0], a.dir[0], rng);
        emit(i, f, k_em_gamma, a.energy[1], a.dir[1], rng);
    }

    //! A lepton whose energy fell below the tracking cut in an interaction stops there.
    GT_HOST_DEVICE void settle(size_type i, Sampled& f, int species, RandomStream& rng) const
    {
        if (f.energy >= params.physics.energy_cut) return;
        f.local += f.energy;
        f.energy = 0;
        f.survives = false;
        if (species == k_em_positron) annihilate_at_rest(i, f, rng);
    }

    GT_HOST_DEVICE void photon(size_type i, std::int32_t material, double E, double r, Sampled& f,
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
            if (T > 0) {
                // one draw after the other: the order of a call's arguments is unspecified
                double const cos_theta = sample_sauter_cos_theta(T, rng);
                double const phi = em::k_two_pi * rng.uniform();
                emit(i, f, k_em_electron, T, rotated(t.dir[i], cos_theta, phi), rng);
            }
        }
    }

    GT_HOST_DEVICE void lepton(size_type i, std::int32_t material, int species, double T, double r,
                               Sampled& f, RandomStream& rng) const
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

using EmInteractPhotons = EmInteractOf<true>;
using EmInteractLeptons = EmInteractOf<false>;

//! Writes the secondaries of the slots that fit in slot order and commits their interactions; holds
//! the others back. t.secondary_offset holds the exclusive prefix sums of t.secondaries.
struct EmCommit {
    DetectorParamsView params;
    TrackView t;
    EmFinalState const* finals;
    SecondaryStackView stack;
    std::uint64_t* counters;

    GT_HOST_DEVICE void operator()(size_type i) const
    {
        std::uint64_t const n = t.secondaries[i];
        if (n == 0) return;
        // zero again, so that a slot no action visits (vacant under run.track_order) counts none
        t.secondaries[i] = 0;
        std::uint64_t const at = t.secondary_offset[i];
        if (at + n > stack.limit) {
            // held back, and so is every later slot: those before it add exactly `at`
            t.held[i] = 1;
            atomic_add(counters + k_held, 1);
            return;
        }
        EmFinalState const& f = finals[i];
        std::uint64_t const base = *stack.base;
        for (std::uint64_t k = 0; k < n; ++k) stack.data[base + at + k] = f.made[k];
        atomic_add(counters + k_secondaries, n);
        EmInteractLeptons::commit(t, i, f);
    }
};

}  // namespace gt
