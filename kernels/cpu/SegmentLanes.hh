// The CPU's segment kernel over a structure of arrays: W neighbouring particles (one vector register per
// coordinate, Lanes.hh) pushed through the segment element by element. The maps written for lanes
// (LaneMask.hh: the exact and linear drift, quadrupoles of every model, thin and thick multipoles,
// the exact sector bend without gradient, dipole edges, apertures, markers, misalignments) run once for all W
// lanes, with masks for the particles lost instead of early returns; any other entry falls back to the
// per-particle switch (track_element) lane by lane. Each particle sees exactly the operations
// TrackSegment applies to it, so the bits are TrackSegment's (tests/SegmentLanesTest.cc).
#pragma once

#include <cstring>

#include "kernels/core/ParticleState.hh"
#include "kernels/cpu/Lanes.hh"
#include "kernels/elements/Element.hh"

namespace gt {

//! The particles of `of` whose six coordinates are all finite: per lane the answer of is_finite for one
//! particle on the CPU (MapSupport.hh), computed as it does: the sum of the six coordinates, and the
//! exponent-bit test (exponents_finite) one lane at a time only for the lanes of `of` whose sum is not
//! finite (a NaN or infinity, or finite coordinates whose sum overflows). A lane outside `of` is false.
template <int W>
GT_FORCEINLINE LaneMaskOf<W> is_finite(ParticleLanes<W> const& p, LaneMaskOf<W> const& of)
{
    LaneDouble<W> const sum = ((p.x + p.px) + (p.y + p.py)) + (p.t + p.pt);
    LaneMaskOf<W> ok = of && sum - sum == 0.0;
    LaneMaskOf<W> const check = of && !ok;
    if (none_left(check)) return ok;
    for (int k = 0; k < W; ++k)
        if (check[k]) ok.set(k, exponents_finite(p.lane(k)));
    return ok;
}

//! The photon clocks of a block of lanes (TrackSegment's `Photons`): the lanes' ids and the turn; empty
//! without photons.
template <int W, bool Photons>
struct PhotonClocks {
};
template <int W>
struct PhotonClocks<W, true> {
    std::uint64_t const* ids;  //!< of lane 0 ... W - 1
    std::int32_t turn;
};

//! Pushes the lanes of `live` through one entry with the switch `Cases`; returns those not lost there.
//! The same calls as track_element: misalignment in, the map, misalignment out, the finiteness check.
//! `Photons` (quantum excitation, TrackSegment's): an entry that emits photons goes per particle with the
//! lane's clock (`ids[k]`, `turn`), as TrackSegment's track_element with the clock.
template <ElementCases Cases, int W, bool Photons = false>
GT_FORCEINLINE LaneMaskOf<W> track_element_lanes(Element const& e, ParticleLanes<W>& p,
                                                 LaneMaskOf<W> const& live,
                                                 PhotonClocks<W, Photons> const& clocks)
{
    using Mask = LaneMaskOf<W>;
    auto const lanes = [&](auto const& map) {
        if (e.misaligned) e.misalignment.enter(p, live);
        Mask const ok = map();
        if (e.misaligned) e.misalignment.leave(p, live);
        return is_finite(p, ok);
    };
    constexpr bool linear_only = Cases == ElementCases::linear_maps;
    // An entry with classical radiation on goes per particle (the radiation is written for one particle).
    if (!radiates(e)) {
        switch (e.kind) {
            case ElementKind::marker:
            case ElementKind::monitor:
                return lanes([&] { return live; });
            case ElementKind::drift:
                if (!linear_only || e.drift.model == DriftModel::linear)
                    return lanes([&] { return e.drift(p, live); });
                break;
            case ElementKind::quadrupole:
                if (e.quadrupole.model == QuadrupoleModel::linear)
                    return lanes([&] { return e.quadrupole.track_linear(p, live); });
                if (!linear_only && e.quadrupole.model == QuadrupoleModel::kick)
                    return lanes([&] { return e.quadrupole.track_kicks(p, live); });
                if (!linear_only && e.quadrupole.model == QuadrupoleModel::exact)
                    return lanes([&] { return e.quadrupole.track_chromatic(p, live); });
                break;
            case ElementKind::multipole:
                if (!linear_only) return lanes([&] { return e.multipole(p, live); });
                break;
            case ElementKind::thick_multipole:
                if (!linear_only) return lanes([&] { return e.thick_multipole(p, live); });
                break;
            case ElementKind::aperture:
                if (!linear_only) return lanes([&] { return e.aperture(p, live); });
                break;
            case ElementKind::dipole_edge:
                if (!linear_only) return lanes([&] { return e.dipole_edge(p, live); });
                break;
            case ElementKind::exact_bend:
                if (!linear_only && !e.exact_bend.kicked)
                    return lanes([&] { return e.exact_bend.arc(p, e.exact_bend.whole, live); });
                break;
            default:
                break;
        }
    }
    // Per particle: the gradient bends and those with body multipoles (their focusing branches on the sign of
    // a per-particle K), linear bends, RF, solenoids, profile and time-code entries, entries with radiation
    // on, and any entry the switch lacks.
    Mask ok = live;
    for (int k = 0; k < W; ++k) {
        if (!live[k]) continue;
        Particle q = p.lane(k);
        if constexpr (Photons)
            ok.set(k, track_element<Cases>(e, q, PhotonClock{clocks.ids[k], clocks.turn}));
        else
            ok.set(k, track_element<Cases>(e, q));
        p.set_lane(k, q);
    }
    return ok;
}

//! The CPU's TrackSegment: item b pushes particles [b W, b W + W) through [begin, end). `Photons`: as
//! TrackSegment's (the segment holds entries that emit photons).
template <int W, ElementCases Cases, bool Photons = false>
struct TrackSegmentLanes {
    ParticleView particles;
    Element const* elements;
    size_type begin;
    size_type end;
    std::int32_t turn;
    std::int32_t turns = 1;  //!< the many-turn executor: [begin, end) `turns` times (TrackSegment's `turns`)

    static size_type blocks(size_type n) { return (n + W - 1) / W; }

    void operator()(size_type b) const
    {
        size_type const first = b * W;
        int const count = first + W <= particles.size ? W : int(particles.size - first);
        ParticleLanes<W> p;
        LaneMaskOf<W> live{};
        double* const coordinates[6] = {particles.x,  particles.px, particles.y,
                                        particles.py, particles.t,  particles.pt};
        LaneDouble<W>* const lanes[6] = {&p.x, &p.px, &p.y, &p.py, &p.t, &p.pt};
        for (int c = 0; c < 6; ++c) {
            if (count == W) {
                std::memcpy(&lanes[c]->v, coordinates[c] + first, sizeof(double) * W);
            } else {  // the block tail: the lanes past the end stay zero and dead
                lanes[c]->v = typename LaneDouble<W>::V{};
                for (int k = 0; k < count; ++k) lanes[c]->v[k] = coordinates[c][first + k];
            }
        }
        for (int k = 0; k < count; ++k) live.set(k, particles.alive(first + k));
        if (none_left(live)) return;
        // Turns inside the block's loop (the many-turn executor): the block stays in registers and the table
        // in cache from one turn to the next; each lane sees the entries in the order `turns` segments give.
        for (std::int32_t t = turn; t < turn + turns && !none_left(live); ++t) {
            PhotonClocks<W, Photons> clocks;
            if constexpr (Photons) clocks = PhotonClocks<W, true>{particles.id + first, t};
            for (size_type e = begin; e < end; ++e) {
                Element const& element = elements[e];
                LaneMaskOf<W> const ok = track_element_lanes<Cases, W, Photons>(element, p, live, clocks);
                LaneMaskOf<W> const lost = live && !ok;
                if (!none_left(lost)) {
                    for (int k = 0; k < W; ++k)
                        if (lost[k]) {
                            particles.lost_element[first + k] = element.index;
                            particles.lost_turn[first + k] = t;
                        }
                    live = ok;
                    if (none_left(live)) break;
                }
            }
        }
        // A lane lost earlier or dead on entry was written by no map: storing it gives back what was read.
        for (int c = 0; c < 6; ++c) {
            if (count == W)
                std::memcpy(coordinates[c] + first, &lanes[c]->v, sizeof(double) * W);
            else
                for (int k = 0; k < count; ++k) coordinates[c][first + k] = lanes[c]->v[k];
        }
    }
};

}  // namespace gt
