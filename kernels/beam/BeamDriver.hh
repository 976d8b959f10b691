// The beam operations written once over an execution policy (cpu::Policy or cuda::Policy).
#pragma once

#include "kernels/beam/BeamSampler.hh"
#include "kernels/beam/Moments.hh"
#include "kernels/beam/TrackSegment.hh"
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

template<class Policy>
BeamMoments moments(ParticleView particles)
{
    BeamMoments m;
    auto const first = Policy::template reduce<7, reduce::Sum>(particles.size, moments::CentroidTerms{particles});
    m.alive = first[0];
    if (m.alive == 0.0) return m;
    moments::SecondMomentTerms second{particles, {}};
    for (int a = 0; a < 6; ++a) {
        m.mean[a] = first[a + 1] / m.alive;
        second.mean[a] = m.mean[a];
    }
    auto const sums = Policy::template reduce<21, reduce::Sum>(particles.size, second);
    int k = 0;
    for (int a = 0; a < 6; ++a)
        for (int b = a; b < 6; ++b) {
            m.cov[a][b] = m.cov[b][a] = sums[k] / m.alive;
            ++k;
        }
    auto const amplitudes = Policy::template reduce<4, reduce::Max>(particles.size, moments::AmplitudeTerms{particles});
    for (int j = 0; j < 4; ++j) m.max_abs[j] = amplitudes[j];
    return m;
}

}  // namespace gt::beam_driver
