// The built-in species table and ion construction.
#include "deck/Species.hh"

#include <array>

#include "kernels/core/Types.hh"

namespace gt {

namespace {
struct NamedSpecies {
    std::string_view name;
    double mass_mev;
    double charge_e;
};

constexpr std::array<NamedSpecies, 8> k_species = {{
    {"electron", constants::electron_mass_mev, -1.0},
    {"positron", constants::electron_mass_mev, +1.0},
    {"proton", constants::proton_mass_mev, +1.0},
    {"antiproton", constants::proton_mass_mev, -1.0},
    {"mu-", constants::muon_mass_mev, -1.0},
    {"mu+", constants::muon_mass_mev, +1.0},
    {"pi-", constants::pion_mass_mev, -1.0},
    {"pi+", constants::pion_mass_mev, +1.0},
}};
}  // namespace

std::optional<SpeciesConfig> find_species(std::string_view name)
{
    for (auto const& s : k_species)
        if (s.name == name) return SpeciesConfig{std::string(s.name), s.mass_mev, s.charge_e};
    return std::nullopt;
}

std::vector<std::string> species_names()
{
    std::vector<std::string> names;
    for (auto const& s : k_species) names.emplace_back(s.name);
    return names;
}

SpeciesConfig make_ion(int mass_number, int charge_state)
{
    double const mass = mass_number * constants::amu_mev - charge_state * constants::electron_mass_mev;
    return SpeciesConfig{"ion", mass, static_cast<double>(charge_state)};
}

SpeciesConfig make_ion(double mass_mev, double charge_e) { return SpeciesConfig{"ion", mass_mev, charge_e}; }

}  // namespace gt
