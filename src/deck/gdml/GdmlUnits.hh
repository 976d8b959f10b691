// Geant4's unit names (CLHEP's SystemOfUnits as G4UnitDefinition lists them) in gtrack's units (SI, MeV),
// by category, so that a unit attribute is checked for its kind as Geant4's GDML reader does.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gt::gdml {

enum class UnitKind { length, angle, density, molar_mass, energy, temperature, pressure };

//! "length", "angle", ... for messages.
char const* unit_kind_name(UnitKind k);

//! Every name an expression may use, in CLHEP's internal units (mm, ns, MeV, rad = 1) as Geant4 evaluates
//! them.
std::vector<std::pair<char const*, double>> const& all_units();

//! The value of a unit of kind k in SI, or nullopt if the name is not a unit of that kind.
std::optional<double> unit_value(std::string const& name, UnitKind k);

//! The unit names of kind k, for messages.
std::vector<std::string> unit_names(UnitKind k);

}  // namespace gt::gdml
