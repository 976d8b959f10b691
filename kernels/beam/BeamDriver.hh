// The beam operations written once over an execution policy (cpu::Policy or cuda::Policy).
#pragma once

#include "kernels/beam/BeamSampler.hh"
#include "kernels/beam/Moments.hh"
#include "kernels/beam/TrackSegment.hh"
#include "kernels/core/CrossRank.hh"
#include "kernels/core/Reduction.hh"

namespace gt::beam_driver {

template<class Policy>
void generate(ParticleView particles, BeamSampler const& sampler, std::uint64_t first_id)
{
    Policy::for_each(particles.size, GenerateBeam{particles, sampler, first_id});
}

template<class Policy>
void track(ParticleView particles, Element const* elements, size_type begin, size_type end, std::int32_t turn,
           ElementCases cases)
{
    if (cases == ElementCases::all)
        Policy::for_each(particles.size, TrackSegment<ElementCases::all>{particles, elements, begin, end, turn});
    else  // two blocks per SM: 128 registers, not the 132 ptxas would take for one (sm_90)
        Policy::template for_each_resident<2>(
            particles.size, TrackSegment<ElementCases::without_integrators>{particles, elements, begin, end, turn});
}

//! A reduction over the whole beam when this process holds a chunk-aligned share of it: the chunk
//! partials of every rank, in global chunk order, combined as one process would (same bits).
template<class Policy, class R, class F>
std::array<double, R::size> reduce_over_ranks(size_type n, F const& f, CrossRank const& ranks)
{
    std::vector<double> const partials = ranks.concatenate(Policy::template reduce_chunks_of<R>(n, f));
    std::array<double, R::size> out{};
    reduce::combine_chunks_of<R>(partials.data(), partials.size() / R::size, out.data());
    return out;
}

//! One pass over the particles (moments::Merge).
template<class Policy>
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

}  // namespace gt::beam_driver
