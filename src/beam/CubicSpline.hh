// Natural cubic spline coefficients of samples on a uniform grid (host side of CubicSplineProfile).
#pragma once

#include <vector>

namespace gt {

//! The interpolating cubic spline through f[0..n-1] at spacing dz with f'' = 0 at both ends (the
//! natural spline: second derivative continuous everywhere, no invented end slopes). Returns
//! 4 (n - 1) coefficients, interval i holding c0..c3 of f = c0 + c1 u + c2 u^2 + c3 u^3, u = z - z_i
//! (the layout CubicSplineProfile reads). Needs n >= 3 and dz > 0.
std::vector<double> natural_cubic_spline(std::vector<double> const& f, double dz);

}  // namespace gt
