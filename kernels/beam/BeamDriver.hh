// The beam operations written once over an execution policy (cpu::Policy or cuda::Policy).
#pragma once

#include "kernels/beam/BeamSampler.hh"
#include "kernels/beam/Moments.hh"
#include "kernels/beam/TimeBunch.hh"
#include "kernels/beam/TrackSegment.hh"
#include "kernels/core/CrossRank.hh"
#include "kernels/core/Reduction.hh"

namespace gt::beam_driver {

template <class Policy>
void generate(ParticleView particles, BeamSampler const& sampler, std::uint64_t first_id)
{
    Policy::for_each(particles.size, GenerateBeam{particles, sampler, first_id});
}

//! A segment through the switch `Cases` at `MinBlocks` resident blocks per SM: the kernel with the entries'
//! misalignments, or, for a segment without a misaligned entry, the one compiled without them.
template <class Policy, int MinBlocks, ElementCases Cases>
void track_resident(ParticleView particles, Element const* elements, size_type begin, size_type end,
                    std::int32_t turn, bool misaligned, std::int32_t turns)
{
    if (misaligned)
        Policy::template for_each_resident<MinBlocks>(
            particles.size, TrackSegment<Cases>{particles, elements, begin, end, turn, turns});
    else
        Policy::template for_each_resident<MinBlocks>(
            particles.size, TrackSegment<Cases, false, false>{particles, elements, begin, end, turn, turns});
}

//! `photons`: the segment holds entries that emit photons (SegmentCaseTable::emits_photons): tracked by the
//! kernels with each particle's photon clock (TrackSegment), with the switch without integrators (or all).
//! `misaligned`: the segment holds a misaligned entry (SegmentCaseTable::misaligned); without one, the
//! linear-map and optics-map switches run their kernels compiled without the misalignment (TrackSegment's
//! `Misalignments`; the same operations on every aligned entry, so the same bits). `turns` > 1: the many-turn
//! executor (BeamKernels::track_turns): [begin, end) is the whole table, tracked for turns turn, turn + 1,
//! ... by the same kernels, each thread keeping its particle in registers through them.
template <class Policy>
void track(ParticleView particles, Element const* elements, size_type begin, size_type end, std::int32_t turn,
           ElementCases cases, bool photons = false, bool misaligned = true, std::int32_t turns = 1)
{
    if (photons) {
        // sm_90: the switch without integrators and the photons' Philox and Box-Muller (ptxas -v in
        // scripts/gpu-check.d/45-quantum.sh's log); two blocks per SM as without photons.
        if (cases == ElementCases::all)
            Policy::for_each(particles.size, TrackSegment<ElementCases::all, true>{particles, elements, begin,
                                                                                   end, turn, turns});
        else
            Policy::template for_each_resident<2>(particles.size,
                                                  TrackSegment<ElementCases::without_integrators, true>{
                                                      particles, elements, begin, end, turn, turns});
        return;
    }
    switch (cases) {
        // sm_90, ptxas -v: 46 registers and no spills unbounded, so five 256-thread blocks per SM (40 warps);
        // held to six blocks it takes 39 and spills 40 bytes, to eight 32 and spills 80 (stores) / 104
        // (loads). Without misalignments (CUDA 13.0, issue 29): 38 registers, no spills.
        case ElementCases::linear_maps:
            track_resident<Policy, 5, ElementCases::linear_maps>(particles, elements, begin, end, turn,
                                                                 misaligned, turns);
            break;
        // sm_90, ptxas -v (CUDA 13): 64 registers held to four 256-thread blocks per SM (32 warps), an 8-byte
        // stack (the element loop's count, one 4-byte store and load per element) where it was 520 bytes
        // (1052 / 1688 bytes of spill stores / loads) with the exact combined-function bend in the switch
        // (issue 29; docs/performance.md). The switch without integrators takes 128 and an 88-byte stack.
        // CUDA 13.0 at branch kern: a 104-byte stack (144 / 220 bytes of spill stores / loads, off the path
        // every entry takes but the loop count's) without misalignments, 112 with them (was 96).
        case ElementCases::optics_maps:
            track_resident<Policy, 4, ElementCases::optics_maps>(particles, elements, begin, end, turn,
                                                                 misaligned, turns);
            break;
        // two blocks per SM: 128 registers, not the 132 ptxas would take for one (sm_90)
        case ElementCases::without_integrators:
            Policy::template for_each_resident<2>(
                particles.size, TrackSegment<ElementCases::without_integrators>{particles, elements, begin,
                                                                                end, turn, turns});
            break;
        case ElementCases::all:
            Policy::for_each(particles.size,
                             TrackSegment<ElementCases::all>{particles, elements, begin, end, turn, turns});
            break;
    }
}

//! A reduction over the whole beam when this process holds a chunk-aligned share of it: the chunk
//! partials of every rank folded in global chunk order, as one process would (same bits). Only the
//! running R::size values pass between ranks, not the partials.
template <class Policy, class R, class F>
std::array<double, R::size> reduce_over_ranks(size_type n, F const& f, CrossRank const& ranks)
{
    std::vector<double> const partials = Policy::template reduce_chunks_of<R>(n, f);
    std::array<double, R::size> out{};
    R::identity(out.data());
    ranks.fold_in_rank_order(out, [&](std::span<double> running) {
        reduce::fold_chunks_of<R>(partials.data(), partials.size() / R::size, running.data());
    });
    return out;
}

//! One pass over the particles (moments::Merge).
template <class Policy>
BeamMoments moments(ParticleView particles, CrossRank const& ranks)
{
    using moments::Merge;
    BeamMoments m;
    auto const s = reduce_over_ranks<Policy, Merge>(particles.size, moments::Terms{particles}, ranks);
    m.alive = s[0];
    if (m.alive == 0.0) return m;
    for (int a = 0; a < 6; ++a) m.mean[a] = s[Merge::k_mean + a];
    int k = Merge::k_m2;
    for (int a = 0; a < 6; ++a)
        for (int b = a; b < 6; ++b, ++k) m.cov[a][b] = m.cov[b][a] = s[k] / m.alive;
    for (int j = 0; j < 4; ++j) m.max_abs[j] = s[Merge::k_max + j];
    return m;
}

//! A t-code entry pushed as a bunch (TimeBunch.hh): its first grid step over every rank (+inf: no
//! live particle).
template <class Policy>
double time_bunch_begin(ParticleView particles, TimeBunchView bunch, Element const& e, CrossRank const& ranks)
{
    Policy::for_each(particles.size, TimeBunchEnter{particles, bunch, e});
    using R = reduce::Each<1, reduce::Min>;
    return reduce_over_ranks<Policy, R>(particles.size, TimeBunchFirstStep{bunch}, ranks)[0];
}

//! One step from sigma_K; the counts after it over every rank (TimeBunchCounts).
template <class Policy>
std::array<double, 3> time_bunch_step(ParticleView particles, TimeBunchView bunch, Element const& e, double k,
                                      CrossRank const& ranks)
{
    Policy::for_each(particles.size, TimeBunchStep{particles, bunch, e.time_code, k});
    using R = reduce::Each<3, reduce::Sum>;
    return reduce_over_ranks<Policy, R>(particles.size, TimeBunchCounts{bunch}, ranks);
}

template <class Policy>
void time_bunch_positions(ParticleView particles, TimeBunchView bunch, Element const& e, double k,
                          double inv_beta_b, ParticleView out)
{
    Policy::for_each(particles.size, TimeBunchPositions{particles, bunch, e.time_code, k, inv_beta_b, out});
}

template <class Policy>
void time_bunch_kick(TimeBunchView bunch, ParticleView kicks, Element const& e, double inv_beta_b)
{
    Policy::for_each(kicks.size, TimeBunchKick{bunch, kicks, inv_beta_b, e.time_code.step, e.time_code.mu2});
}

template <class Policy>
void time_bunch_finish(ParticleView particles, TimeBunchView bunch, Element const& e, std::int32_t turn)
{
    Policy::for_each(particles.size, TimeBunchLeave{particles, bunch, e, turn});
}

}  // namespace gt::beam_driver
