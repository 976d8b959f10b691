// Gauss-Legendre quadrature nodes and weights on [0, 1], for the host-side integrals of the
// collective effects (wake kernels averaged over a node, the resistive-wall wake).
#pragma once

namespace gt {

struct GaussLegendre {
    static constexpr int points = 16;
    double x[points];  //!< nodes in (0, 1)
    double w[points];  //!< weights, summing to 1
};

//! The 16-point rule (exact for polynomials up to degree 31), computed once by Newton's method on P_16.
GaussLegendre const& gauss_legendre_16();

}  // namespace gt
