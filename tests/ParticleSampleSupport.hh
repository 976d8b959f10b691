// A host particle state with distinct coordinates and a chosen loss pattern, shared by the CPU and
// GPU tests of the particle download (compaction of live and lost particles), and the bitwise
// comparison of two states that the segment-kernel tests use.
#pragma once

#include <cstdint>

#include "kernels/core/ParticleState.hh"

namespace gt::test {

//! n particles with distinct coordinates; particle i is lost when lost(i), at entry i % 4 and turn
//! i % lost_turns.
template <class LostPredicate>
ParticleState sample_state(size_type n, LostPredicate lost, std::int32_t lost_turns)
{
    ParticleState s(n, MemSpace::host);
    ParticleView v = s.view();
    for (size_type i = 0; i < n; ++i) {
        double const a = double(i);
        v.x[i] = 1e-3 * a + 0.1;
        v.px[i] = -2e-4 * a;
        v.y[i] = 3e-3 * a / 7.0;
        v.py[i] = 1e-8 * a * a;
        v.t[i] = 0.5 - 1e-3 * a;
        v.pt[i] = 1e-4 / (a + 1.0);
        v.id[i] = 1000 + 3 * i;
        bool const is_lost = lost(i);
        v.lost_element[i] = is_lost ? std::int32_t(i % 4) : -1;
        v.lost_turn[i] = is_lost ? std::int32_t(i % size_type(lost_turns)) : -1;
    }
    return s;
}

//! The number of particles whose coordinates or loss record differ in any bit between a and b.
inline int differing_particles(ParticleView const& u, ParticleView const& v)
{
    int n = 0;
    for (size_type i = 0; i < u.size; ++i)
        n += u.x[i] != v.x[i] || u.px[i] != v.px[i] || u.y[i] != v.y[i] || u.py[i] != v.py[i] ||
             u.t[i] != v.t[i] || u.pt[i] != v.pt[i] || u.lost_element[i] != v.lost_element[i] ||
             u.lost_turn[i] != v.lost_turn[i];
    return n;
}

}  // namespace gt::test
