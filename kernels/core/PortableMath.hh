// Elementary functions built from + - * / only, so that host and device round identically.
//
// libm (glibc) and CUDA's libdevice may differ in the last bit of sin, cos, log and exp. Every
// per-particle use of those functions goes through this header instead, which together with
// -ffp-contract=off on the host and --fmad=false on the device makes the CPU and GPU backends
// agree bit for bit. sqrt and division are correctly rounded (IEEE 754) on both sides already.
// sincos and sinhcosh come in two forms: as written (Fused = false, every product and sum rounded: what
// the detector physics uses) and with the Horner steps and the reduction as fused multiply-adds
// (Fused = true, gt::fma_rn: one rounding each, half the FP64 instructions; what the element maps use).
// Accuracy: within about 1 ulp; sin/cos reduce the argument with a three-part pi/2 (Cody & Waite),
// exact for |x| < 1e6, gradually less accurate beyond.
#pragma once

#include <cmath>
#include <type_traits>

#include "kernels/core/FusedMultiplyAdd.hh"
#include "kernels/core/Macros.hh"

namespace gt::pmath {

GT_HOST_DEVICE GT_FORCEINLINE double sqrt(double x) { return ::sqrt(x); }
//! Exact on both sides (IEEE 754 rounds nothing here).
GT_HOST_DEVICE GT_FORCEINLINE double floor(double x) { return ::floor(x); }

//! Natural logarithm, from log(m) = 2 atanh((m-1)/(m+1)) with m in [sqrt(1/2), sqrt(2)).
GT_HOST_DEVICE inline double log(double x)
{
    if (!(x > 0.0)) return x == 0.0 ? -HUGE_VAL : NAN;
    if (x == HUGE_VAL) return x;
    int e = 0;
    double m = ::frexp(x, &e);
    if (m < 0.70710678118654752440) {
        m *= 2.0;
        e -= 1;
    }
    double const f = (m - 1.0) / (m + 1.0);
    double const f2 = f * f;  // <= 0.0295: the series below is converged to 1e-20
    double s = 1.0 / 25.0;
    s = s * f2 + 1.0 / 23.0;
    s = s * f2 + 1.0 / 21.0;
    s = s * f2 + 1.0 / 19.0;
    s = s * f2 + 1.0 / 17.0;
    s = s * f2 + 1.0 / 15.0;
    s = s * f2 + 1.0 / 13.0;
    s = s * f2 + 1.0 / 11.0;
    s = s * f2 + 1.0 / 9.0;
    s = s * f2 + 1.0 / 7.0;
    s = s * f2 + 1.0 / 5.0;
    s = s * f2 + 1.0 / 3.0;
    double const log_m = 2.0 * f + 2.0 * f * (s * f2);
    // ln 2 split so that e * ln2_hi is exact (fdlibm's constants).
    double const ln2_hi = 6.93147180369123816490e-01;
    double const ln2_lo = 1.90821492927058770002e-10;
    double const de = static_cast<double>(e);
    return de * ln2_hi + (log_m + de * ln2_lo);
}

//! Exponential, from exp(r) 2^k with |r| <= ln(2)/2.
GT_HOST_DEVICE inline double exp(double x)
{
    if (x != x) return x;
    if (x > 709.782712893384) return HUGE_VAL;
    if (x < -745.1332191019412) return 0.0;
    double const ln2_hi = 6.93147180369123816490e-01;
    double const ln2_lo = 1.90821492927058770002e-10;
    double const k = ::rint(x * 1.44269504088896338700);
    double const r = (x - k * ln2_hi) - k * ln2_lo;
    double p = 1.0 / 355687428096000.0;  // 1/17!
    p = p * r + 1.0 / 20922789888000.0;
    p = p * r + 1.0 / 1307674368000.0;
    p = p * r + 1.0 / 87178291200.0;
    p = p * r + 1.0 / 6227020800.0;
    p = p * r + 1.0 / 479001600.0;
    p = p * r + 1.0 / 39916800.0;
    p = p * r + 1.0 / 3628800.0;
    p = p * r + 1.0 / 362880.0;
    p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    return ::ldexp(p, static_cast<int>(k));
}

namespace detail {
//! a * b + c: one rounding (Fused, gt::fma_rn) or two (as written).
template <bool Fused, class A, class B, class C>
GT_HOST_DEVICE GT_FORCEINLINE auto mul_add(A a, B b, C c)
{
    if constexpr (Fused)
        return fma_rn(a, b, c);
    else
        return a * b + c;
}

//! sin(r) for |r| <= pi/4 (Taylor series to r^19: truncation below 1e-21).
template <bool Fused = false, class T = double>
GT_HOST_DEVICE GT_FORCEINLINE T sin_kernel(T r)
{
    T const r2 = r * r;
    T p = -1.0 / 121645100408832000.0;  // -1/19!
    p = mul_add<Fused>(p, r2, 1.0 / 355687428096000.0);
    p = mul_add<Fused>(p, r2, -1.0 / 1307674368000.0);
    p = mul_add<Fused>(p, r2, 1.0 / 6227020800.0);
    p = mul_add<Fused>(p, r2, -1.0 / 39916800.0);
    p = mul_add<Fused>(p, r2, 1.0 / 362880.0);
    p = mul_add<Fused>(p, r2, -1.0 / 5040.0);
    p = mul_add<Fused>(p, r2, 1.0 / 120.0);
    p = mul_add<Fused>(p, r2, -1.0 / 6.0);
    return mul_add<Fused>(r, r2 * p, r);
}

//! cos(r) for |r| <= pi/4 (Taylor series to r^20).
template <bool Fused = false, class T = double>
GT_HOST_DEVICE GT_FORCEINLINE T cos_kernel(T r)
{
    T const r2 = r * r;
    T p = 1.0 / 2432902008176640000.0;  // 1/20!
    p = mul_add<Fused>(p, r2, -1.0 / 6402373705728000.0);
    p = mul_add<Fused>(p, r2, 1.0 / 20922789888000.0);
    p = mul_add<Fused>(p, r2, -1.0 / 87178291200.0);
    p = mul_add<Fused>(p, r2, 1.0 / 479001600.0);
    p = mul_add<Fused>(p, r2, -1.0 / 3628800.0);
    p = mul_add<Fused>(p, r2, 1.0 / 40320.0);
    p = mul_add<Fused>(p, r2, -1.0 / 720.0);
    p = mul_add<Fused>(p, r2, 1.0 / 24.0);
    return mul_add<Fused>(r2 * r2, p, 1.0 - 0.5 * r2);
}

//! x = k pi/2 + r with |r| <= pi/4; returns k mod 4 (fdlibm's three-part pi/2). k pio2_1 is exact
//! (pio2_1 has 33 significant bits), so the fused form changes only the last two roundings.
template <bool Fused = false>
GT_HOST_DEVICE GT_FORCEINLINE int reduce_half_pi(double x, double& r)
{
    double const k = ::rint(x * 6.36619772367581382433e-01);
    double const pio2_1 = 1.57079632673412561417e+00;
    double const pio2_2 = 6.07710050630396597660e-11;
    double const pio2_3 = 2.02226624871116645580e-21;
    r = mul_add<Fused>(-k, pio2_3, mul_add<Fused>(-k, pio2_2, mul_add<Fused>(-k, pio2_1, x)));
    // k mod 4 through an integer cast where the cast is exact and defined (|k| < 2^53: every angle a
    // map meets), and by fmod beyond, where a cast of k past 2^63 (x ~ 1e301 from a fuzzed RF map)
    // would be undefined. Both give the same quadrant; the common branch is inline arithmetic, not a
    // libm call (fmod, or floor without SSE4.1: 5-6% of an exact FODO push on the CPU, callgrind).
    if (::fabs(k) < 9007199254740992.0) return static_cast<int>(static_cast<long long>(k) & 3);
    return static_cast<int>(::fmod(k, 4.0)) & 3;
}
}  // namespace detail

//! sin and cos of one angle together. `T`: double, or a block of lanes (kernels/cpu/Lanes.hh), whose
//! quadrant is k - 4 floor(k/4) (exact: the same quadrant as the integer cast or fmod) and whose
//! quadrant switch and non-finite case are selects: the same operations on every lane.
template <bool Fused = false, class T>
GT_HOST_DEVICE GT_HOST_FORCEINLINE void sincos(T x, T& s, T& c)
{
    if constexpr (std::is_same_v<T, double>) {
        if (!(x - x == 0.0)) {  // inf or nan
            s = c = NAN;
            return;
        }
        double r = 0.0;
        int const q = detail::reduce_half_pi<Fused>(x, r);
        double const sr = detail::sin_kernel<Fused>(r);
        double const cr = detail::cos_kernel<Fused>(r);
        switch (q) {
            case 0:
                s = sr;
                c = cr;
                break;
            case 1:
                s = cr;
                c = -sr;
                break;
            case 2:
                s = -sr;
                c = -cr;
                break;
            default:
                s = -cr;
                c = sr;
                break;
        }
    } else {
        using detail::mul_add;
        T const k = lane_rint(x * 6.36619772367581382433e-01);
        double const pio2_1 = 1.57079632673412561417e+00;
        double const pio2_2 = 6.07710050630396597660e-11;
        double const pio2_3 = 2.02226624871116645580e-21;
        T const r = mul_add<Fused>(-k, pio2_3, mul_add<Fused>(-k, pio2_2, mul_add<Fused>(-k, pio2_1, x)));
        T const q = k - 4.0 * lane_floor(k * 0.25);
        T const sr = detail::sin_kernel<Fused>(r);
        T const cr = detail::cos_kernel<Fused>(r);
        auto const q0 = q == 0.0, q1 = q == 1.0, q2 = q == 2.0;
        auto const finite = x - x == 0.0;
        s = select(finite, select(q0, sr, select(q1, cr, select(q2, -sr, -cr))), T(NAN));
        c = select(finite, select(q0, cr, select(q1, -sr, select(q2, -cr, sr))), T(NAN));
    }
}

GT_HOST_DEVICE inline double sin(double x)
{
    double s = 0.0, c = 0.0;
    sincos(x, s, c);
    return s;
}

GT_HOST_DEVICE inline double cos(double x)
{
    double s = 0.0, c = 0.0;
    sincos(x, s, c);
    return c;
}

namespace detail {
//! The series of sinhcosh (|x| < 1).
template <bool Fused, class T>
GT_HOST_DEVICE GT_FORCEINLINE void sinhcosh_series(T x, T& sh, T& ch)
{
    T const x2 = x * x;
    T s = 1.0 / 51090942171709440000.0;                     // 1/21!
    s = mul_add<Fused>(s, x2, 1.0 / 121645100408832000.0);  // 1/19!
    s = mul_add<Fused>(s, x2, 1.0 / 355687428096000.0);
    s = mul_add<Fused>(s, x2, 1.0 / 1307674368000.0);
    s = mul_add<Fused>(s, x2, 1.0 / 6227020800.0);
    s = mul_add<Fused>(s, x2, 1.0 / 39916800.0);
    s = mul_add<Fused>(s, x2, 1.0 / 362880.0);
    s = mul_add<Fused>(s, x2, 1.0 / 5040.0);
    s = mul_add<Fused>(s, x2, 1.0 / 120.0);
    s = mul_add<Fused>(s, x2, 1.0 / 6.0);
    sh = mul_add<Fused>(x, x2 * s, x);
    T c = 1.0 / 2432902008176640000.0;  // 1/20!
    c = mul_add<Fused>(c, x2, 1.0 / 6402373705728000.0);
    c = mul_add<Fused>(c, x2, 1.0 / 20922789888000.0);
    c = mul_add<Fused>(c, x2, 1.0 / 87178291200.0);
    c = mul_add<Fused>(c, x2, 1.0 / 479001600.0);
    c = mul_add<Fused>(c, x2, 1.0 / 3628800.0);
    c = mul_add<Fused>(c, x2, 1.0 / 40320.0);
    c = mul_add<Fused>(c, x2, 1.0 / 720.0);
    c = mul_add<Fused>(c, x2, 1.0 / 24.0);
    ch = mul_add<Fused>(x2 * x2, c, 1.0 + 0.5 * x2);
}
}  // namespace detail

//! sinh and cosh of one argument together. |x| < 1: Taylor series (sinh to x^21, cosh to x^20,
//! truncation below 1e-19 relative), so sinh(x)/x stays accurate as x -> 0 where (e^x - e^-x)/2
//! would cancel; |x| >= 1: from exp(|x|), where e^-|x| <= e^-2 e^|x| costs at most one bit.
//! Fused: the two series' Horner steps as fused multiply-adds (the exp branch is the same in both forms).
//! `T`: double, or a block of lanes (kernels/cpu/Lanes.hh): the series on every lane, and the lanes at
//! |x| >= 1 (or NaN) one by one through the double form.
template <bool Fused = false, class T>
GT_HOST_DEVICE GT_HOST_FORCEINLINE void sinhcosh(T x, T& sh, T& ch)
{
    if constexpr (std::is_same_v<T, double>) {
        double const ax = x < 0.0 ? -x : x;
        if (ax < 1.0) {
            detail::sinhcosh_series<Fused>(x, sh, ch);
            return;
        }
        double const e = exp(ax);  // nan stays nan, overflow gives inf for both
        double const inv_e = 1.0 / e;
        double const s = 0.5 * (e - inv_e);
        sh = x < 0.0 ? -s : s;
        ch = 0.5 * (e + inv_e);
    } else {
        detail::sinhcosh_series<Fused>(x, sh, ch);
        auto const large = !(select(x < 0.0, -x, x) < 1.0);
        if (none_left(large)) return;
        for (int k = 0; k < T::lanes; ++k) {
            if (!large[k]) continue;
            double s = 0.0, c = 0.0;
            sinhcosh<Fused>(x.v[k], s, c);
            sh.v[k] = s;
            ch.v[k] = c;
        }
    }
}

GT_HOST_DEVICE inline double sinh(double x)
{
    double s = 0.0, c = 0.0;
    sinhcosh(x, s, c);
    return s;
}

GT_HOST_DEVICE inline double cosh(double x)
{
    double s = 0.0, c = 0.0;
    sinhcosh(x, s, c);
    return c;
}

}  // namespace gt::pmath
