// Wake functions of a beamline element: the energy loss (longitudinal) or transverse kick
// (dipole) a unit charge leaves for a unit test charge a distance s behind it.
//
// Conventions (SI, the ELEGANT WAKE/TRWAKE and Chao conventions up to the sign of W_perp):
//  - longitudinal W_par(s) [V/C]: a test charge q at s behind a source Q changes its energy by
//    -q Q W_par(s) (W_par > 0: energy loss); W_par(0) is the value just behind the source, and a
//    particle feels half of its own wake (the fundamental theorem of beam loading), which the
//    kernel's triangle average over the first node gives (LineConvolver.hh).
//  - transverse dipole W_perp(s) [V/(C m)]: a source Q offset by x gives the test charge the
//    momentum q Q x W_perp(s) / c (W_perp > 0: towards the source's offset).
// The formulas and their sources: docs/physics.md, section "Wakefields".
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace gt {

enum class WakePlane { longitudinal, transverse };

struct WakeFunction {
    WakePlane plane = WakePlane::longitudinal;
    std::function<double(double)> w;  //!< [V/C] or [V/(C m)] of s >= 0 [m]
    std::string description;          //!< e.g. "resonator 1 MOhm, Q 2, 1.3 GHz"
};

//! A resonator: shunt impedance r_shunt [Ohm] (transverse: [Ohm/m]), quality factor q > 1/2,
//! resonant frequency f_r [Hz].
WakeFunction resonator_wake(WakePlane plane, double r_shunt, double q, double f_r);

//! The resistive wall of a round pipe of radius b [m], conductivity sigma [S/m], length [m].
//! Longitudinal: Bane & Sands' short-range wake (valid for all s); transverse: the classical
//! long-range wake, valid for s >> s0 = (2 b^2 / (Z0 sigma))^(1/3).
WakeFunction resistive_wall_wake(WakePlane plane, double radius, double conductivity, double length);

//! A tabulated wake: s [m] ascending from 0, linear interpolation, zero beyond the last point.
WakeFunction table_wake(WakePlane plane, std::vector<double> s, std::vector<double> w, std::string description);

//! Reads a two-column wake table. The header must state the units of its columns in a comment line
//! before the first number: "# s [m] W [V/C]" (longitudinal), "# s [m] W [V/C/m]" (transverse), or
//! with "t [s]" for the first column (converted with c). Throws std::runtime_error naming the file,
//! the line and what is wrong.
WakeFunction read_wake_table(std::string const& path, WakePlane plane);

}  // namespace gt
