// The Geant4 NIST material names ("G4_Pb", "G4_WATER", ...) that a GDML file may use without defining
// them, as Geant4's G4NistManager resolves them.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace gt::gdml {

struct NistMaterial {
    char const* name;
    char const* builtin;  //!< gtrack's built-in material with the same density and I, or nullptr
    double density;       //!< [g/cm^3]
    double i_ev;          //!< mean excitation energy [eV]; 0: Bragg additivity (as Geant4 for these)
    bool by_atoms;        //!< components are atom counts (else mass fractions)
    std::vector<std::pair<int, double>> components;  //!< (Z, mass fraction or atom count)
};

//! The material of a G4_ name, or nullptr.
NistMaterial const* find_nist_material(std::string const& name);
std::vector<std::string> nist_material_names();

}  // namespace gt::gdml
