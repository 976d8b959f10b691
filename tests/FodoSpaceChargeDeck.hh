// The beam and quadrupoles of inputs/fodo_space_charge.toml (10 MeV protons through a FODO channel),
// made small for tests with space charge (the checkpoint tests, validate's round-off tolerance).
#pragma once

#include <string>

namespace gt::test {

//! [run], [beam] (Gaussian, truncated at 4 sigma, matched Twiss) and the start of [elements] (QF, QD,
//! D): the caller adds its own elements, then [lattice], [space_charge] and [output].
inline std::string fodo_space_charge_beam(std::string const& name, int seed, std::string const& bunch_charge,
                                          long macroparticles)
{
    return "[run]\nname = \"" + name + "\"\nseed = " + std::to_string(seed) + R"(
[beam]
particle = "proton"
kinetic_energy = "10 MeV"
bunch_charge = ")" +
           bunch_charge + "\"\nmacroparticles = " + std::to_string(macroparticles) + R"(
distribution = "gaussian"
truncate = 4
[beam.twiss]
beta_x = 1.5
alpha_x = -1.0
emittance_x = "1 um"
beta_y = 0.5
alpha_y = 0.4
emittance_y = "1 um"
sigma_t = "30 mm"
sigma_pt = 1.0e-4
[elements]
QF  = { type = "quadrupole", length = "10 cm", k1 = 20.0 }
QD  = { type = "quadrupole", length = "10 cm", k1 = -20.0 }
D   = { type = "drift", length = "30 cm" }
)";
}

}  // namespace gt::test
