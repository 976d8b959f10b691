// The SpeciesType names gtrack's particles map to.
#include "io/BeamPhysicsSpecies.hh"

#include <array>
#include <cmath>

#include "kernels/core/Types.hh"

namespace gt {
namespace {
// openpmd-beamphysics (beamphysics/species.py) knows electron, positron, proton, muon, antimuon, H-
// and H2+; the pion and antiproton names follow the SpeciesType extension's particle list.
constexpr std::array<BeamPhysicsSpecies, 8> k_named = {{
    {"electron", constants::electron_mass_mev, -1.0},
    {"positron", constants::electron_mass_mev, +1.0},
    {"proton", constants::proton_mass_mev, +1.0},
    {"anti-proton", constants::proton_mass_mev, -1.0},
    {"muon", constants::muon_mass_mev, -1.0},
    {"antimuon", constants::muon_mass_mev, +1.0},
    {"pion-", constants::pion_mass_mev, -1.0},
    {"pion+", constants::pion_mass_mev, +1.0},
}};
}  // namespace

std::optional<BeamPhysicsSpecies> beamphysics_species(double mass_mev, double charge_e)
{
    // Masses come from the same constants or from a file written with them: 1e-9 relative is round-off
    // of a unit conversion (kg <-> MeV), far below any difference between two species.
    for (auto const& s : k_named)
        if (std::abs(mass_mev - s.mass_mev) <= 1e-9 * s.mass_mev && charge_e == s.charge_e) return s;
    return std::nullopt;
}

std::optional<BeamPhysicsSpecies> beamphysics_species(std::string_view name)
{
    for (auto const& s : k_named)
        if (s.name == name) return s;
    return std::nullopt;
}

}  // namespace gt
