// Tunes and damping of a one-turn matrix that is not symplectic: the 6D map of a ring with RF and the
// magnets' radiation loss (MAD-X's EMIT, Xsuite's radiation twiss read the same eigenvalues).
#pragma once

#include <array>
#include <vector>

#include "optics/ModeAnalysis.hh"

namespace gt::optics {

//! One eigenvalue pair lambda = exp(-damping) exp(+-i 2 pi tune) of a real 6x6 one-turn matrix.
struct DampedMode {
    double tune = 0;     //!< [1] arg(lambda) / 2 pi in (0, 0.5]
    double damping = 0;  //!< [1] -ln |lambda|: amplitude damping per turn (> 0 damped)
    int plane = 0;       //!< the plane (0 x, 1 y, 2 longitudinal) carrying most of the mode's action
};

//! The three modes of the 6x6 matrix `m`, ordered by plane. The eigenvalues are the roots of the
//! characteristic polynomial (Faddeev-LeVerrier coefficients, Aberth-Ehrlich iteration, Newton
//! polish); a symplectic matrix's palindromic shortcut (ModeAnalysis.hh) would put the damping
//! into the tune: 2 cos mu -> 2 |lambda| cos mu, 10% of Qs on a light source. Throws
//! std::runtime_error when a mode is not oscillating (a real eigenvalue) or two modes live in one plane.
std::vector<DampedMode> damped_modes(RMat const& m);

}  // namespace gt::optics
