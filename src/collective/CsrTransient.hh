// The 1D CSR wake of an ultrarelativistic bunch near a bend's edges: the entrance transient inside
// the bend and the wake that goes on in the straight after it (Saldin, Schneidmiller and Yurkov,
// NIM A 398 (1997) 373; Stupakov and Emma, EPAC 2002 / SLAC-PUB-9242). Both have the form
//
//   W(z) = edge [lambda(z - near) - lambda(z - far)] + int_0^reach k(u) lambda'(z - u) du,
//
// with dE/ds = -q W / (4 pi eps0) for a particle of charge q at z (z grows toward the head, lambda
// in C/m). docs/physics.md, "CSR entrance transient and drift wake", has the derivation's steps.
#pragma once

#include <functional>
#include <vector>

#include "collective/LineConvolver.hh"

namespace gt {

struct CsrTransientWake {
    double edge = 0;   //!< [1/m] weight of the two shifted line densities
    double near = 0;   //!< [m] shift of the positive term, also the reach of the integral
    double far = 0;    //!< [m] shift of the negative term (the source still in the straight before the bend)
    std::function<double(double)> kernel;  //!< k(u) [m^-2/3 or 1/m] for 0 < u < near
};

//! In a bend of radius R [m] at angle phi [rad] from its entrance (Saldin et al. 1997, eq. 22 in
//! the ultrarelativistic limit): edge 4/(R phi), near R phi^3/24, far R phi^3/6,
//! k(u) = 2 / (3 R^2)^1/3 u^-1/3. Far inside (R phi^3/24 beyond the bunch) it is the steady state.
CsrTransientWake csr_entrance_wake(double radius, double phi);

//! At distance x [m] after the exit of a bend of radius R and angle phi_m (Stupakov and Emma 2002):
//! with X = x/R, edge 4 / (R (phi_m + 2X)), near = (R phi_m^3 / 24)(phi_m + 4X)/(phi_m + X),
//! far = (R/6) phi_m^2 (phi_m + 3X), k(u) = (4/R) / (psi(u) + 2X). x = 0 is the entrance wake at phi_m.
CsrTransientWake csr_drift_wake(double radius, double phi_m, double x);

//! The emission angle psi > 0 of a source u [m] behind the test particle, seen at X = x/R after the
//! exit: the positive root of R psi^3 (psi + 4X) = 24 u (psi + X) (Stupakov and Emma 2002).
double csr_drift_angle(double u, double radius, double big_x);

//! W on the nodes of a grid in z spacing hs [m] whose node i + m lies m hs behind node i:
//! lambda [C/m] and its slope d lambda/dz [C/m^2] on those nodes; shifts by linear interpolation
//! (zero off the grid), the integral by `convolver` with the node-averaged kernel (line_kernel).
std::vector<double> csr_transient_field(CsrTransientWake const& wake, std::vector<double> const& lambda,
                                        std::vector<double> const& slope, double hs, LineConvolver& convolver);

}  // namespace gt
