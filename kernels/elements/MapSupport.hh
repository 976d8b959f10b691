// Pieces shared by the element maps: the finiteness check, per-particle focusing functions and the
// fourth-order symplectic splitting used by the kick-integrated elements.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernels/core/LaneMask.hh"
#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/core/PortableMath.hh"

namespace gt {

//! The high 32 bits of a double (sign, 11 exponent bits, 20 of the mantissa): a register move on the
//! GPU (__double2hiint), a shift on the CPU.
GT_HOST_DEVICE GT_FORCEINLINE std::uint32_t high_word(double v)
{
#if defined(__CUDA_ARCH__)
    return static_cast<std::uint32_t>(__double2hiint(v));
#else
    std::uint64_t u = 0;
    std::memcpy(&u, &v, sizeof u);
    return static_cast<std::uint32_t>(u >> 32);
#endif
}

//! True when all six coordinates are finite, tested on the exponent bits with integer operations: a
//! double is NaN or infinite exactly when its 11 exponent bits are all ones, and then (and only then)
//! adding 1 to the exponent field carries into bit 31. The six carries are or-ed together.
GT_HOST_DEVICE GT_FORCEINLINE bool exponents_finite(Particle const& p)
{
    std::uint32_t const exponent = 0x7ff00000u, one = 0x00100000u;
    std::uint32_t const carry = ((high_word(p.x) & exponent) + one) | ((high_word(p.px) & exponent) + one) |
                                ((high_word(p.y) & exponent) + one) | ((high_word(p.py) & exponent) + one) |
                                ((high_word(p.t) & exponent) + one) | ((high_word(p.pt) & exponent) + one);
    return (carry & 0x80000000u) == 0;
}

//! True when v is finite: its 11 exponent bits are not all ones (a mask and a compare of the high word).
GT_HOST_DEVICE GT_FORCEINLINE bool finite_bits(double v)
{
    std::uint32_t const ones = 0x7ff00000u;
    return (high_word(v) & ones) != ones;
}

//! True when all six coordinates are finite: the same answer on both sides, computed as each side does
//! it cheaply. The GPU tests the exponent bits (exponents_finite's verdict: integer operations, off the FP64
//! pipe that bounds the linear-map kernel; the sum below was 7 FP64 instructions a push, about half of a
//! linear FODO push's). The CPU adds the six coordinates (one sum carries any NaN or infinity, inf - inf
//! being NaN too, so a finite sum means six finite coordinates) and tests the bits only where the sum is
//! not finite, which also catches finite coordinates whose sum overflows (within a factor 6 of DBL_MAX:
//! before issue 29 such a particle was marked lost there; now it is lost where a coordinate overflows).
GT_HOST_DEVICE GT_FORCEINLINE bool is_finite(Particle const& p)
{
#if defined(__CUDA_ARCH__)
    // Each exponent compared with all ones (finite_bits: a mask and a compare, the compares chained on one
    // predicate): exponents_finite's verdict in 12 integer instructions where its carries and shifts took 17.
    return finite_bits(p.x) & finite_bits(p.px) & finite_bits(p.y) & finite_bits(p.py) & finite_bits(p.t) &
           finite_bits(p.pt);
#else
    double const sum = ((p.x + p.px) + (p.y + p.py)) + (p.t + p.pt);
    return sum - sum == 0.0 || exponents_finite(p);
#endif
}

//! (p / p_ref)^2 = 1 - 2 pt / beta + pt^2 for the ImpactX energy coordinate pt.
template <class T>
GT_HOST_DEVICE GT_FORCEINLINE T momentum_squared(T pt, double inv_beta)
{
    return 1.0 - 2.0 * pt * inv_beta + pt * pt;
}

//! Principal trajectories of u'' = -K u over a length L (K of either sign): the cosine-like C,
//! sine-like S and C' = -K S. Per-particle (pmath, the fused series), for maps whose focusing depends
//! on the particle's momentum; K = 0 is the drift limit (C = 1, S = L).
//! Reference: Wiedemann, Particle Accelerator Physics, 4th ed., sec. 7.1 (eq. 7.7-7.10).
template <class T>
struct FocusingOf {
    T c;        //!< [1]
    T s;        //!< [m]
    T c_prime;  //!< [1/m]
};
using Focusing = FocusingOf<double>;

GT_HOST_DEVICE GT_HOST_FORCEINLINE Focusing focusing(double k, double length)
{
    Focusing f{1.0, length, 0.0};
    if (k > 0.0) {
        double const w = pmath::sqrt(k);
        double sn = 0.0, cs = 0.0;
        pmath::sincos<true>(w * length, sn, cs);
        f = Focusing{cs, sn / w, -w * sn};
    } else if (k < 0.0) {
        double const w = pmath::sqrt(-k);
        double sh = 0.0, ch = 0.0;
        pmath::sinhcosh<true>(w * length, sh, ch);  // series for small w L: sinh(wL)/w stays accurate
        f = Focusing{ch, sh / w, w * sh};
    }
    return f;
}

//! The two planes of a quadrupole-like map at once: K = w^2 (oscillating: C = cos wL, S = sin(wL)/w,
//! C' = -w sin wL) and K = -w^2 (hyperbolic: cosh, sinh/w, w sinh), from w > 0 and its inverse, which
//! the caller has (one square root and no division for both planes, where two focusing() calls take
//! two of each). The same sine and hyperbolic series as focusing() (pmath, fused).
//! `T`: double, or a block of lanes (LaneMask.hh).
template <class T>
GT_HOST_DEVICE GT_HOST_FORCEINLINE void focusing_pair(T w, T inv_w, double length, FocusingOf<T>& oscillating,
                                                      FocusingOf<T>& hyperbolic)
{
    T const phi = w * length;
    T sn = 0.0, cs = 0.0;
    pmath::sincos<true>(phi, sn, cs);
    oscillating = FocusingOf<T>{cs, sn * inv_w, -w * sn};
    T sh = 0.0, ch = 0.0;
    pmath::sinhcosh<true>(phi, sh, ch);
    hyperbolic = FocusingOf<T>{ch, sh * inv_w, w * sh};
}

//! The same functions on the host (std::), for maps whose coefficients depend only on the element:
//! computed once when the table is built.
inline Focusing focusing_host(double k, double length)
{
    if (k > 0.0) {
        double const w = std::sqrt(k);
        return Focusing{std::cos(w * length), std::sin(w * length) / w, -w * std::sin(w * length)};
    }
    if (k < 0.0) {
        double const w = std::sqrt(-k);
        return Focusing{std::cosh(w * length), std::sinh(w * length) / w, w * std::sinh(w * length)};
    }
    return Focusing{1.0, length, 0.0};
}

//! Fourth-order symplectic splitting of one step h into drift-kick-drift-kick-drift-kick-drift
//! (Forest & Ruth, Physica D 43 (1990) 105; Yoshida, Phys. Lett. A 150 (1990) 262):
//! drifts c1 h, c2 h, c2 h, c1 h and kicks w1 h, w0 h, w1 h with w1 = 1 / (2 - 2^(1/3)),
//! w0 = 1 - 2 w1, c1 = w1 / 2, c2 = (w0 + w1) / 2. Consecutive steps merge their outer drifts into
//! one of 2 c1 h = w1 h, the outer kick's length: kick_outer serves as both (the same product w1 h,
//! the same bits), one coefficient fewer held in registers by the loop (a GPU kernel with this loop
//! inlined into the element switch runs at 64 registers; BeamDriver.hh).
struct SplitSteps {
    double drift_outer;  //!< [m] c1 h: first and last drift
    double drift_inner;  //!< [m] c2 h (negative)
    double kick_outer;   //!< [m] w1 h: integration length of the outer kicks, and the drift between steps
    double kick_middle;  //!< [m] w0 h (negative)
    std::int32_t steps;  //!< number of steps h = L / steps

    //! Host: the coefficients for a length split into `steps` steps.
    static SplitSteps make(double length, std::int32_t steps)
    {
        // 2^(1/3) to full double precision; w1 = 1.3512071919596576..., w0 = -1.7024143839193153...
        double const cbrt2 = 1.2599210498948731647672106;
        double const w1 = 1.0 / (2.0 - cbrt2);
        double const w0 = 1.0 - 2.0 * w1;
        double const h = length / static_cast<double>(steps);
        SplitSteps s;
        s.drift_outer = 0.5 * w1 * h;
        s.drift_inner = 0.5 * (w0 + w1) * h;
        s.kick_outer = w1 * h;
        s.kick_middle = w0 * h;
        s.steps = steps;
        return s;
    }

    //! Integrates drift + kick for the particles of `live`: `drift(p, l, live)` is an exact drift
    //! (returns those not lost), `kick(p, l, live)` a thin kick integrated over length l. Returns the
    //! particles not lost; a lost one keeps its coordinates at the loss (LaneMask.hh).
    template <class P, class DriftFn, class KickFn, class M = bool>
    GT_HOST_DEVICE auto integrate(P& p, DriftFn const& drift, KickFn const& kick, M live = true) const
    {
        auto ok = drift(p, drift_outer, live);
        if (none_left(ok)) return ok;
        for (std::int32_t i = 0; i < steps; ++i) {
            kick(p, kick_outer, ok);
            ok = drift(p, drift_inner, ok);
            if (none_left(ok)) return ok;
            kick(p, kick_middle, ok);
            ok = drift(p, drift_inner, ok);
            if (none_left(ok)) return ok;
            kick(p, kick_outer, ok);
            ok = drift(p, i + 1 < steps ? kick_outer : drift_outer, ok);
            if (none_left(ok)) return ok;
        }
        return ok;
    }
};

}  // namespace gt
