// The elements of a material and their atom densities, which the shower physics needs (the
// energy-loss models need only the bulk parameters of MaterialParams).
#pragma once

#include <string>
#include <vector>

#include "deck/DetectorConfig.hh"
#include "kernels/physics/MaterialParams.hh"

namespace gt {

struct ElementComponent {
    int z = 0;
    double a = 0;             //!< [g/mol]
    double atoms_per_m3 = 0;  //!< [1/m^3]
    double electrons_per_m3 = 0;
};

//! The composition of a built-in material (by the mass fractions of the NIST/PDG material tables)
//! or of a user material; empty for vacuum. Throws std::invalid_argument for an unknown name.
std::vector<ElementComponent> material_composition(std::string const& name, double density,
                                                   std::vector<MaterialConfig> const& user_materials);

//! The composition from mass fractions (element symbol, fraction) at density [kg/m^3].
std::vector<ElementComponent> composition_by_mass(
    std::vector<std::pair<std::string, double>> const& fractions, double density);

//! Sets the element averages of Molière's theory of multiple scattering (MaterialParams' msc_*
//! fields) from the composition.
void set_moliere_constants(MaterialParams& m, std::vector<ElementComponent> const& elements);

}  // namespace gt
