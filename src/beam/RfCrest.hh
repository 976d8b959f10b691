// The reference particle tracked slice by slice through a field-map element (the same kernel code
// as the beam), and the RF phase of its maximum energy gain.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "kernels/core/ParticleState.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "kernels/core/Types.hh"

namespace gt {

//! The phase in [0, 2 pi) (up to one scan step around it) where `gain(phase)` is largest: a coarse
//! scan of 36 phases, then golden-section search. `gain` returns nullopt where the reference does
//! not pass; the result is nullopt when it passes at no scanned phase.
std::optional<double> find_rf_crest(std::function<std::optional<double>(double)> const& gain);

//! How a field-map element is cut into slices.
struct SliceSpec {
    int slices = 1;
    double slice_length = 0.0;  //!< [m]
    int steps = 1;              //!< RK4 steps per slice
    double k_rf = 0.0;          //!< [1/m] omega / c
};

//! The slicing of an element of `length` [m] into `slices` with `steps_per_slice` RK4 steps each
//! (0: one per map interval `dz` [m]) at RF frequency `frequency` [Hz].
inline SliceSpec slice_spec(double length, int slices, int steps_per_slice, double dz, double frequency)
{
    SliceSpec s;
    s.slices = slices;
    s.slice_length = length / slices;
    s.steps = steps_per_slice > 0 ? steps_per_slice
                                  : std::max(1, static_cast<int>(std::ceil(s.slice_length / dz - 1e-6)));
    s.k_rf = constants::two_pi * frequency / constants::c_light;
    return s;
}

//! The slices of one occurrence and the reference after each.
template <class Slice>
struct ReferenceTrack {
    std::vector<Slice> slices;
    std::vector<ReferenceParticle> after;
};

//! Tracks the reference through every slice at RF phase `phase` (at the element's entry); nullopt
//! with `why` set when it is reflected or stopped. `make_slice(i)` gives slice i with the element's
//! own members set (its field, rf, z_begin); the members every slice type shares (length, steps,
//! k_rf, phase, kappa, inv_beta0, tau_begin and the reference at the exit) are set here.
template <class Slice, class MakeSlice>
std::optional<ReferenceTrack<Slice>> track_reference(SliceSpec const& spec, ReferenceParticle const& entry,
                                                     double phase, MakeSlice const& make_slice,
                                                     std::string& why)
{
    ReferenceTrack<Slice> out;
    ReferenceParticle ref = entry;
    double tau_elapsed = 0.0;
    for (int i = 0; i < spec.slices; ++i) {
        Slice m = make_slice(i);
        m.length = spec.slice_length;
        m.steps = spec.steps;
        m.k_rf = spec.k_rf;
        m.phase = phase;
        m.tau_begin = tau_elapsed;
        m.kappa = ref.charge_e / (ref.pc_mev * 1e6);
        m.inv_beta0 = 1.0 / ref.beta;
        Particle p{0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
        if (!m.integrate(p)) {
            why =
                fmt::format("the reference particle is reflected in slice {} of {} (z = {:.6g} to {:.6g} m)",
                            i + 1, spec.slices, m.z_begin, m.z_begin + spec.slice_length);
            return std::nullopt;
        }
        double const kinetic = ref.kinetic_mev - p.pt * ref.pc_mev;
        if (!(kinetic > 0.0)) {
            why = fmt::format("the reference particle is stopped in slice {} of {}", i + 1, spec.slices);
            return std::nullopt;
        }
        ReferenceParticle after = ref;
        if (p.pt != 0.0) after.set_kinetic(kinetic);
        after.s = ref.s + spec.slice_length;
        after.t = ref.t + p.t / constants::c_light;
        m.pt_ref_end = p.pt;
        m.tau_ref_end = p.t;
        m.momentum_ratio = ref.pc_mev / after.pc_mev;
        tau_elapsed += p.t;
        out.slices.push_back(m);
        out.after.push_back(after);
        ref = after;
    }
    return out;
}

//! The slices at `phase` [rad] from the crest (found by tracking when `rf`, else 0).
template <class Slice>
struct CrestedTrack {
    ReferenceTrack<Slice> track;
    double crest_phase = 0.0;  //!< [rad] phase at the reference's entry that is on crest
};

//! track_reference at `phase` from the crest; throws Error when the reference does not pass.
template <class Error, class Slice, class MakeSlice>
CrestedTrack<Slice> track_reference_from_crest(SliceSpec const& spec, bool rf, double phase,
                                               ReferenceParticle const& entry, MakeSlice const& make_slice)
{
    CrestedTrack<Slice> out;
    std::string why;
    if (rf) {
        auto const crest = find_rf_crest([&](double trial) -> std::optional<double> {
            auto const t = track_reference<Slice>(spec, entry, trial, make_slice, why);
            if (!t) return std::nullopt;
            return t->after.back().kinetic_mev;
        });
        if (!crest) throw Error("the reference particle passes at no RF phase: " + why);
        out.crest_phase = *crest;
    }
    auto track = track_reference<Slice>(spec, entry, out.crest_phase + phase, make_slice, why);
    if (!track) throw Error(why);
    out.track = std::move(*track);
    return out;
}

}  // namespace gt
