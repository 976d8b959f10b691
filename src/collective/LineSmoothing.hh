// Smoothing and differentiation of a histogram before it drives a kick (LSC and CSR use the
// derivative of the line density, which amplifies the shot noise of the macroparticles).
//
// Savitzky-Golay filters (Savitzky & Golay, Anal. Chem. 36 (1964) 1627; Press et al., Numerical
// Recipes 3rd ed., 14.9): the value, or the slope, at each node of the least-squares quadratic through
// the 2m + 1 nodes around it. For a quadratic fit the coefficients are closed-form:
//   value: c_j = (3 (3 m^2 + 3 m - 1) - 15 j^2) / ((2m - 1)(2m + 1)(2m + 3)),
//   slope: c_j = 3 j / (m (m + 1) (2 m + 1) h),   j = -m ... m.
// Nodes beyond the grid count as zero (the grid has empty margins around the bunch). Both filters
// preserve polynomials up to degree 2 (3 for the slope) and conserve the sum of the values.
#pragma once

#include <vector>

namespace gt {

//! The values smoothed with half-width m (m = 0: unchanged).
std::vector<double> savitzky_golay(std::vector<double> const& v, int m);

//! d v / d t at every node, spacing h, half-width m >= 1 (m = 1: the centred difference).
std::vector<double> savitzky_golay_slope(std::vector<double> const& v, double h, int m);

}  // namespace gt
