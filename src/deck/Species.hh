// The particle species gtrack knows by name, and ions built from mass number and charge state.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "deck/Config.hh"

namespace gt {

//! electron, positron, proton, antiproton, mu-, mu+, pi-, pi+: rest energy (CODATA 2018 / PDG 2022,
//! kernels/core/Types.hh) and signed charge in units of e. nullopt for any other name.
std::optional<SpeciesConfig> find_species(std::string_view name);

//! The names find_species knows, in table order (for "did you mean" and the documentation).
std::vector<std::string> species_names();

//! An ion of mass number A and charge state q: m c^2 = A u c^2 - q m_e c^2, i.e. the neutral atom
//! approximated by A atomic mass units, less the q electrons it lost. The mass excess and electron
//! binding energies are neglected (about 0.1% for light ions); give the mass for precise work.
SpeciesConfig make_ion(int mass_number, int charge_state);

//! An ion (or any particle) of given rest energy [MeV] and charge [e].
SpeciesConfig make_ion(double mass_mev, double charge_e);

}  // namespace gt
