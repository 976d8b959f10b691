// W particles' coordinates side by side (the CPU's structure-of-arrays form): one vector register of W
// doubles per coordinate (GCC/Clang vector extensions: AVX's 4 doubles, AVX-512's 8) and a mask of W
// lanes. Every operation is the IEEE operation of the scalar code lane by lane (+ - * / and comparisons
// on vectors, the correctly rounded square root, fma_rn's one rounding or, with GTRACK_FMA_UNFUSED, its
// two), so a map written with LaneMask.hh's forms gives each lane the bits it gives one particle.
#pragma once

#include <cmath>
#include <cstdint>

#if defined(__AVX__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "kernels/core/FusedMultiplyAdd.hh"
#include "kernels/core/LaneMask.hh"
#include "kernels/core/ParticleState.hh"

// Eight lanes in a build without AVX-512 (the tests run both widths) pass vectors that no register of
// the target holds; every such function is inlined in one translation unit, so clang's warning that
// their calling convention differs from an AVX-512 build's does not apply.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpsabi"
#endif

namespace gt {

//! Lanes of the build's vector width: 8 with AVX-512 (-march=native on such a host), else 4 (AVX with
//! the default -mfma; two SSE registers each without it).
#if defined(__AVX512F__)
inline constexpr int k_simd_lanes = 8;
#else
inline constexpr int k_simd_lanes = 4;
#endif

//! The vector types of W lanes (a vector_size that depends on a template parameter is not one).
template <int W>
struct LaneVectors;
template <>
struct LaneVectors<4> {
    typedef double Double __attribute__((vector_size(32)));
    typedef std::int64_t Int __attribute__((vector_size(32)));
};
template <>
struct LaneVectors<8> {
    typedef double Double __attribute__((vector_size(64)));
    typedef std::int64_t Int __attribute__((vector_size(64)));
};

template <int W>
struct LaneMaskOf {
    using V = typename LaneVectors<W>::Int;
    V m;  //!< -1 where set, 0 elsewhere

    friend LaneMaskOf operator&&(LaneMaskOf a, LaneMaskOf b) { return {a.m & b.m}; }
    friend LaneMaskOf operator&&(LaneMaskOf a, bool b) { return {b ? a.m : V{}}; }
    friend LaneMaskOf operator&&(bool a, LaneMaskOf b) { return {a ? b.m : V{}}; }
    friend LaneMaskOf operator||(LaneMaskOf a, LaneMaskOf b) { return {a.m | b.m}; }
    friend LaneMaskOf operator!(LaneMaskOf a) { return {~a.m}; }
    bool operator[](int k) const { return m[k] != 0; }
    void set(int k, bool on) { m[k] = on ? -1 : 0; }

    friend bool none_left(LaneMaskOf a)
    {
        std::int64_t any = 0;
        for (int k = 0; k < W; ++k) any |= a.m[k];
        return any == 0;
    }
};

template <int W>
struct LaneDouble {
    using V = typename LaneVectors<W>::Double;
    using Mask = LaneMaskOf<W>;
    static constexpr int lanes = W;
    V v;

    LaneDouble() = default;
    GT_FORCEINLINE LaneDouble(V x) : v(x) {}
    //! Every lane s: what a scalar constant of the map becomes.
    GT_FORCEINLINE LaneDouble(double s) : v(V{} + s) {}

    friend LaneDouble operator+(LaneDouble a, LaneDouble b) { return a.v + b.v; }
    friend LaneDouble operator-(LaneDouble a, LaneDouble b) { return a.v - b.v; }
    friend LaneDouble operator*(LaneDouble a, LaneDouble b) { return a.v * b.v; }
    friend LaneDouble operator/(LaneDouble a, LaneDouble b) { return a.v / b.v; }
    friend LaneDouble operator-(LaneDouble a) { return -a.v; }
    LaneDouble& operator+=(LaneDouble b) { return v += b.v, *this; }
    LaneDouble& operator-=(LaneDouble b) { return v -= b.v, *this; }
    friend Mask operator>(LaneDouble a, LaneDouble b) { return {a.v > b.v}; }
    friend Mask operator<(LaneDouble a, LaneDouble b) { return {a.v < b.v}; }
    friend Mask operator>=(LaneDouble a, LaneDouble b) { return {a.v >= b.v}; }
    friend Mask operator<=(LaneDouble a, LaneDouble b) { return {a.v <= b.v}; }
    friend Mask operator==(LaneDouble a, LaneDouble b) { return {a.v == b.v}; }

    friend LaneDouble select(Mask m, LaneDouble a, LaneDouble b) { return m.m ? a.v : b.v; }
    friend void where(Mask m, LaneDouble& dst, LaneDouble value) { dst.v = m.m ? value.v : dst.v; }

    //! rint (round to nearest even, the default rounding mode) and floor: exact, lane by lane.
    friend LaneDouble lane_rint(LaneDouble a)
    {
#if defined(__AVX512F__)
        if constexpr (W == 8)
            return LaneDouble(
                V(_mm512_roundscale_pd(__m512d(a.v), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)));
#endif
#if defined(__AVX__)
        if constexpr (W == 4)
            return LaneDouble(
                V(_mm256_round_pd(__m256d(a.v), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)));
#endif
        V r;
        for (int k = 0; k < W; ++k) r[k] = std::rint(a.v[k]);
        return r;
    }
    friend LaneDouble lane_floor(LaneDouble a)
    {
#if defined(__AVX512F__)
        if constexpr (W == 8)
            return LaneDouble(
                V(_mm512_roundscale_pd(__m512d(a.v), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)));
#endif
#if defined(__AVX__)
        if constexpr (W == 4)
            return LaneDouble(V(_mm256_round_pd(__m256d(a.v), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)));
#endif
        V r;
        for (int k = 0; k < W; ++k) r[k] = std::floor(a.v[k]);
        return r;
    }

    friend LaneDouble sqrt_rn(LaneDouble a)
    {
#if defined(__AVX512F__)
        if constexpr (W == 8) return LaneDouble(V(_mm512_sqrt_pd(__m512d(a.v))));
#endif
#if defined(__AVX__)
        if constexpr (W == 4) return LaneDouble(V(_mm256_sqrt_pd(__m256d(a.v))));
#endif
        V r;
        for (int k = 0; k < W; ++k) r[k] = pmath::sqrt(a.v[k]);
        return r;
    }

    friend LaneDouble fma_rn(LaneDouble a, LaneDouble b, LaneDouble c)
    {
#if defined(GTRACK_FMA_UNFUSED)
        return a.v * b.v + c.v;  // -ffp-contract=off: two roundings, as the scalar fma_rn of this build
#else
#if defined(__AVX512F__)
        if constexpr (W == 8) return LaneDouble(V(_mm512_fmadd_pd(__m512d(a.v), __m512d(b.v), __m512d(c.v))));
#endif
#if defined(__FMA__)
        if constexpr (W == 4) return LaneDouble(V(_mm256_fmadd_pd(__m256d(a.v), __m256d(b.v), __m256d(c.v))));
#endif
        V r;
        for (int k = 0; k < W; ++k) r[k] = fma_rn(a.v[k], b.v[k], c.v[k]);
        return r;
#endif
    }
};

//! W particles' coordinates, one lane each: the Particle of the lane forms of the maps.
template <int W>
struct ParticleLanes {
    using D = LaneDouble<W>;
    D x, px, y, py, t, pt;

    Particle lane(int k) const { return Particle{x.v[k], px.v[k], y.v[k], py.v[k], t.v[k], pt.v[k]}; }
    void set_lane(int k, Particle const& p)
    {
        x.v[k] = p.x;
        px.v[k] = p.px;
        y.v[k] = p.y;
        py.v[k] = p.py;
        t.v[k] = p.t;
        pt.v[k] = p.pt;
    }
};

}  // namespace gt

#if defined(__clang__)
#pragma clang diagnostic pop
#endif
