// Building the shower physics tables (kernels/physics/EmTables.hh) of a detector run at set-up:
// production thresholds from the range cut, then per material and energy the macroscopic cross
// sections, restricted stopping powers and ranges, by numerical integration of the models in
// kernels/physics/.
#pragma once

#include <string>
#include <vector>

#include "detector/MaterialComposition.hh"
#include "kernels/detector/EmTableData.hh"
#include "kernels/physics/MaterialParams.hh"

namespace gt {

struct EmMaterialInput {
    std::string name;
    MaterialParams params;
    std::vector<ElementComponent> elements;  //!< empty for vacuum
};

struct EmTableSettings {
    double range_cut = 0.7e-3;  //!< production cut as a range [m] (Geant4's default 0.7 mm)
    double e_min = 1.0e-3;      //!< grid [MeV]
    double e_max = 1.0e6;       //!< [MeV]
    int per_decade = 20;
};

EmTableData build_em_tables(std::vector<EmMaterialInput> const& materials, EmTableSettings const& settings);

//! Radiative stopping power of e+- of kinetic energy T [MeV] from photons below k_max [MeV] [MeV/m].
double radiative_dedx(std::vector<ElementComponent> const& elements, double T, double k_max);
//! Bremsstrahlung cross section for photons above k_cut [1/m].
double brems_macroscopic(std::vector<ElementComponent> const& elements, double T, double k_cut);
//! CSDA range of e- (positron = false) or e+ of kinetic energy T [MeV] with the total (collision +
//! radiative) stopping power, integrated from 1 keV (the range below 1 keV taken as T/S there) [m].
double csda_range(EmMaterialInput const& material, bool positron, double T);
//! Production thresholds [MeV] for a range cut [m]: e- such that its CSDA range (collision only, as
//! in Geant4) equals the cut; photons such that 5 mean free paths equal it; at least 1 keV.
double electron_cut_energy(EmMaterialInput const& material, double range_cut);
double photon_cut_energy(EmMaterialInput const& material, double range_cut);

}  // namespace gt
