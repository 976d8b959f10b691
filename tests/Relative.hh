// Tolerances that mean what they say: test::relative(v, e) and test::absolute(v, tol).
//
// doctest's Approx(v).epsilon(e) passes when |x - v| < e * (scale + max(|x|, |v|)) with scale = 1 by
// default, so for |v| << 1 (lengths in metres, angles in radians, emittances, cross sections in m^2)
// it is an absolute tolerance of e: Approx(2e-9).epsilon(0.02) passes for any x below 0.02. Use
// relative() for a fraction of the expected value, absolute() where an absolute tolerance is meant
// (an expected value of exactly 0, a round-off floor in the units of the quantity).
#pragma once

#include <algorithm>
#include <cmath>

#include <doctest/doctest.h>

namespace gt::test {

//! An expected value and a tolerance as a fraction of it.
struct Relative {
    double value;
    double epsilon;
};

//! x == relative(v, e): x == v, or |x - v| < e * max(|x|, |v|) (doctest's Approx with scale 0, which
//! an exact 0 would fail). Near v == 0 only an exact 0 passes: where 0 is expected, use absolute().
inline Relative relative(double v, double e) { return {v, e}; }

inline bool operator==(double x, Relative const& r)
{
    return x == r.value || std::abs(x - r.value) < r.epsilon * std::max(std::abs(x), std::abs(r.value));
}
inline bool operator==(Relative const& r, double x) { return x == r; }
inline bool operator!=(double x, Relative const& r) { return !(x == r); }
inline bool operator!=(Relative const& r, double x) { return !(x == r); }

//! An expected value and an absolute tolerance in the units of the value.
struct Absolute {
    double value;
    double tolerance;
};

//! x == absolute(v, tol): |x - v| <= tol (a NaN fails).
inline Absolute absolute(double v, double tol) { return {v, tol}; }

inline bool operator==(double x, Absolute const& a) { return std::abs(x - a.value) <= a.tolerance; }
inline bool operator==(Absolute const& a, double x) { return x == a; }
inline bool operator!=(double x, Absolute const& a) { return !(x == a); }
inline bool operator!=(Absolute const& a, double x) { return !(x == a); }

}  // namespace gt::test

template <>
struct doctest::StringMaker<gt::test::Relative> {
    static doctest::String convert(gt::test::Relative const& r)
    {
        return doctest::toString(r.value) + " (to a fraction " + doctest::toString(r.epsilon) + ")";
    }
};

template <>
struct doctest::StringMaker<gt::test::Absolute> {
    static doctest::String convert(gt::test::Absolute const& a)
    {
        return doctest::toString(a.value) + " +- " + doctest::toString(a.tolerance);
    }
};
