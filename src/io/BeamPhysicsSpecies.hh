// Species names of the openPMD SpeciesType extension, as openpmd-beamphysics spells them, for a
// reference particle's mass and charge (and back), so BeamPhysics readers know what the beam is.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gt {

struct BeamPhysicsSpecies {
    std::string_view name;  //!< speciesType: "electron", "proton", "muon", ...
    double mass_mev;        //!< rest energy [MeV]
    double charge_e;        //!< signed charge [e]
};

//! The SpeciesType name of a particle of this rest energy and charge; nullopt when it is none of the
//! named ones (ions, for which gtrack writes "ion" and openpmd-beamphysics cannot derive energies).
std::optional<BeamPhysicsSpecies> beamphysics_species(double mass_mev, double charge_e);

//! The particle a speciesType names; nullopt when gtrack does not know the name.
std::optional<BeamPhysicsSpecies> beamphysics_species(std::string_view name);

}  // namespace gt
