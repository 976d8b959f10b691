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
void track(ParticleView particles, Element const* elements, size_type begin, size_type end, std::int32_t turn)
{
    Policy::for_each(particles.size, TrackSegment{particles, elements, begin, end, turn});
}

//! A reduction over the whole beam when this process holds a chunk-aligned share of it: the chunk
//! partials of every rank, in global chunk order, combined as one process would (same bits).
template<class Policy, int N, class Op, class F>
std::array<double, N> reduce_over_ranks(size_type n, F const& f, CrossRank const& ranks)
{
    std::vector<double> const partials = ranks.concatenate(Policy::template reduce_chunks<N, Op>(n, f));
    std::array<double, N> out{};
    reduce::combine_chunks<N, Op>(partials.data(), partials.size() / N, out.data());
    return out;
}

template<class Policy>
BeamMoments moments(ParticleView particles, CrossRank const& ranks)
{
    BeamMoments m;
    auto const first = reduce_over_ranks<Policy, 7, reduce::Sum>(particles.size, moments::CentroidTerms{particles}, ranks);
    m.alive = first[0];
    if (m.alive == 0.0) return m;
    moments::SecondMomentTerms second{particles, {}};
    for (int a = 0; a < 6; ++a) {
        m.mean[a] = first[a + 1] / m.alive;
        second.mean[a] = m.mean[a];
    }
    auto const sums = reduce_over_ranks<Policy, 21, reduce::Sum>(particles.size, second, ranks);
    int k = 0;
    for (int a = 0; a < 6; ++a)
        for (int b = a; b < 6; ++b) {
            m.cov[a][b] = m.cov[b][a] = sums[k] / m.alive;
            ++k;
        }
    auto const amplitudes =
        reduce_over_ranks<Policy, 4, reduce::Max>(particles.size, moments::AmplitudeTerms{particles}, ranks);
    for (int j = 0; j < 4; ++j) m.max_abs[j] = amplitudes[j];
    return m;
}

}  // namespace gt::beam_driver
