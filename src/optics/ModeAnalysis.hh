// Normal modes of a one-turn matrix: tunes and symplectically normalized eigenvectors, for the
// Twiss parameters of uncoupled and coupled lattices (Mais-Ripken betas) and the synchrotron tune.
#pragma once

#include <array>
#include <complex>
#include <string>
#include <vector>

namespace gt::optics {

using Complex = std::complex<double>;
using CVec6 = std::array<Complex, 6>;
using RMat = std::array<std::array<double, 6>, 6>;

//! One mode of an n x n (n = 2, 4 or 6) real symplectic matrix M: M v = exp(i mu) v, with v normalized
//! so that v^H J v = i (J the block-diagonal [[0, 1], [-1, 0]] of each plane). Then, for a plane of
//! the mode, beta = 2 |v_q|^2, alpha = -2 Re(conj(v_q) v_p), and the phase advance is arg(v_q)
//! (Wolski, Beam Dynamics, ch. 10; Mais-Ripken parametrization). For an uncoupled 2x2 block this
//! is the Courant-Snyder solution: v = (sqrt(beta), (i - alpha)/sqrt(beta)) / sqrt(2).
struct Mode {
    double mu = 0;  //!< [rad] in [0, 2 pi)
    CVec6 v{};      //!< eigenvector (only the first n entries used)
    int plane = 0;  //!< the plane (0 x, 1 y, 2 longitudinal) that carries most of its action
};

//! The n/2 modes of the leading n x n block of `m`, ordered by plane. Throws std::runtime_error naming
//! the plane when a mode is not stable (|eigenvalue| != 1), as "no periodic solution ...", and, with
//! `distinct`, when two modes live mostly in one plane (equal tunes with coupling).
std::vector<Mode> normal_modes(RMat const& m, int n, bool distinct = true);

//! The eigenvector of the leading n x n block of `m` for an eigenvalue close to `lambda` (inverse
//! iteration with a shift next to it), scaled to a largest entry of 1.
CVec6 eigenvector(RMat const& m, int n, Complex lambda);

//! Im(conj(v_q) v_p) of plane p: the mode's action in that plane, up to its normalization.
double plane_action(CVec6 const& v, int p);

//! The mode of one 2x2 block (plane p): the Courant-Snyder solution. Throws when |cos mu| >= 1.
Mode plane_mode(RMat const& m, int plane);

//! The eigenvector of Courant-Snyder parameters (beta, alpha) in `plane`.
CVec6 twiss_vector(double beta, double alpha, int plane);

//! Plane names for messages.
char const* plane_name(int plane);

}  // namespace gt::optics
