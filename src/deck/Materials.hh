// The material table of a detector run: built-in materials with published constants, and user
// materials made from a composition by mass.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "deck/DetectorConfig.hh"
#include "kernels/physics/MaterialParams.hh"

namespace gt {

struct ElementData {
    char const* symbol;
    int z;
    double a;                //!< standard atomic weight [g/mol]
    double mean_excitation;  //!< I [eV] (ICRU 37 / PDG atomic and nuclear properties)
};

//! Known chemical elements (those a user composition may use), by symbol.
ElementData const* find_element(std::string const& symbol);
std::vector<std::string> element_symbols();

//! Names of the built-in materials.
std::vector<std::string> builtin_material_names();
//! A built-in material's parameters, or nullopt.
std::optional<MaterialParams> builtin_material(std::string const& name);

//! A user material's parameters from its composition: Z/A and (unless given) I by Bragg
//! additivity, X0 from Dahl's per-element fit combined by mass, density-effect parameters from
//! the Sternheimer-Peierls general formula.
MaterialParams make_material(MaterialConfig const& m);

//! Radiation length of one element [g/cm^2], PDG 2022 eq. 34.26.
double element_radiation_length(int z, double a);

//! Sternheimer-Peierls parameters (Sternheimer & Peierls, Phys. Rev. B 3 (1971) 3681) for a
//! material of density [kg/m^3], Z/A and I [MeV]; condensed unless gas.
void sternheimer_peierls(MaterialParams& m, bool gas);

}  // namespace gt
