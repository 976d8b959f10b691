// Elementary functions built from + - * / only, so that host and device round identically.
//
// libm (glibc) and CUDA's libdevice may differ in the last bit of sin, cos, log and exp. Every
// per-particle use of those functions goes through this header instead, which together with
// -ffp-contract=off on the host and --fmad=false on the device makes the CPU and GPU backends
// agree bit for bit. sqrt and division are correctly rounded (IEEE 754) on both sides already.
// Accuracy: within about 1 ulp; sin/cos reduce the argument with a three-part pi/2 (Cody & Waite),
// exact for |x| < 1e6, gradually less accurate beyond.
#pragma once

#include <cmath>

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
//! sin(r) for |r| <= pi/4 (Taylor series to r^19: truncation below 1e-21).
GT_HOST_DEVICE GT_FORCEINLINE double sin_kernel(double r)
{
    double const r2 = r * r;
    double p = -1.0 / 121645100408832000.0;  // -1/19!
    p = p * r2 + 1.0 / 355687428096000.0;
    p = p * r2 - 1.0 / 1307674368000.0;
    p = p * r2 + 1.0 / 6227020800.0;
    p = p * r2 - 1.0 / 39916800.0;
    p = p * r2 + 1.0 / 362880.0;
    p = p * r2 - 1.0 / 5040.0;
    p = p * r2 + 1.0 / 120.0;
    p = p * r2 - 1.0 / 6.0;
    return r + r * (r2 * p);
}

//! cos(r) for |r| <= pi/4 (Taylor series to r^20).
GT_HOST_DEVICE GT_FORCEINLINE double cos_kernel(double r)
{
    double const r2 = r * r;
    double p = 1.0 / 2432902008176640000.0;  // 1/20!
    p = p * r2 - 1.0 / 6402373705728000.0;
    p = p * r2 + 1.0 / 20922789888000.0;
    p = p * r2 - 1.0 / 87178291200.0;
    p = p * r2 + 1.0 / 479001600.0;
    p = p * r2 - 1.0 / 3628800.0;
    p = p * r2 + 1.0 / 40320.0;
    p = p * r2 - 1.0 / 720.0;
    p = p * r2 + 1.0 / 24.0;
    return 1.0 - 0.5 * r2 + (r2 * r2) * p;
}

//! x = k pi/2 + r with |r| <= pi/4; returns k mod 4 (fdlibm's three-part pi/2).
GT_HOST_DEVICE GT_FORCEINLINE int reduce_half_pi(double x, double& r)
{
    double const k = ::rint(x * 6.36619772367581382433e-01);
    double const pio2_1 = 1.57079632673412561417e+00;
    double const pio2_2 = 6.07710050630396597660e-11;
    double const pio2_3 = 2.02226624871116645580e-21;
    r = ((x - k * pio2_1) - k * pio2_2) - k * pio2_3;
    // k mod 4 through an integer cast where the cast is exact and defined (|k| < 2^53: every angle a
    // map meets), and by fmod beyond, where a cast of k past 2^63 (x ~ 1e301 from a fuzzed RF map)
    // would be undefined. Both give the same quadrant; the common branch is inline arithmetic, not a
    // libm call (fmod, or floor without SSE4.1: 5-6% of an exact FODO push on the CPU, callgrind).
    if (::fabs(k) < 9007199254740992.0) return static_cast<int>(static_cast<long long>(k) & 3);
    return static_cast<int>(::fmod(k, 4.0)) & 3;
}
}  // namespace detail

//! sin and cos of one angle together.
GT_HOST_DEVICE GT_HOST_FORCEINLINE void sincos(double x, double& s, double& c)
{
    if (!(x - x == 0.0)) {  // inf or nan
        s = c = NAN;
        return;
    }
    double r = 0.0;
    int const q = detail::reduce_half_pi(x, r);
    double const sr = detail::sin_kernel(r);
    double const cr = detail::cos_kernel(r);
    switch (q) {
        case 0: s = sr; c = cr; break;
        case 1: s = cr; c = -sr; break;
        case 2: s = -sr; c = -cr; break;
        default: s = -cr; c = sr; break;
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

//! sinh and cosh of one argument together. |x| < 1: Taylor series (sinh to x^21, cosh to x^20,
//! truncation below 1e-19 relative), so sinh(x)/x stays accurate as x -> 0 where (e^x - e^-x)/2
//! would cancel; |x| >= 1: from exp(|x|), where e^-|x| <= e^-2 e^|x| costs at most one bit.
GT_HOST_DEVICE GT_HOST_FORCEINLINE void sinhcosh(double x, double& sh, double& ch)
{
    double const ax = x < 0.0 ? -x : x;
    if (ax < 1.0) {
        double const x2 = x * x;
        double s = 1.0 / 51090942171709440000.0;  // 1/21!
        s = s * x2 + 1.0 / 121645100408832000.0;  // 1/19!
        s = s * x2 + 1.0 / 355687428096000.0;
        s = s * x2 + 1.0 / 1307674368000.0;
        s = s * x2 + 1.0 / 6227020800.0;
        s = s * x2 + 1.0 / 39916800.0;
        s = s * x2 + 1.0 / 362880.0;
        s = s * x2 + 1.0 / 5040.0;
        s = s * x2 + 1.0 / 120.0;
        s = s * x2 + 1.0 / 6.0;
        sh = x + x * (x2 * s);
        double c = 1.0 / 2432902008176640000.0;  // 1/20!
        c = c * x2 + 1.0 / 6402373705728000.0;
        c = c * x2 + 1.0 / 20922789888000.0;
        c = c * x2 + 1.0 / 87178291200.0;
        c = c * x2 + 1.0 / 479001600.0;
        c = c * x2 + 1.0 / 3628800.0;
        c = c * x2 + 1.0 / 40320.0;
        c = c * x2 + 1.0 / 720.0;
        c = c * x2 + 1.0 / 24.0;
        ch = 1.0 + 0.5 * x2 + (x2 * x2) * c;
        return;
    }
    double const e = exp(ax);  // nan stays nan, overflow gives inf for both
    double const inv_e = 1.0 / e;
    double const s = 0.5 * (e - inv_e);
    sh = x < 0.0 ? -s : s;
    ch = 0.5 * (e + inv_e);
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
