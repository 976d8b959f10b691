// Rest energies and charges of the gun's particles (PDG 2022, via kernels/core/Types.hh).
#include "deck/Particles.hh"

#include "kernels/core/Types.hh"

namespace gt {

namespace {
struct Named {
    char const* name;
    ParticleType type;
};
using namespace constants;
Named const k_particles[] = {
    {"e-", {electron_mass_mev, -1, 1}},
    {"e+", {electron_mass_mev, 1, 1}},
    {"electron", {electron_mass_mev, -1, 1}},
    {"positron", {electron_mass_mev, 1, 1}},
    {"mu-", {muon_mass_mev, -1, 0}},
    {"mu+", {muon_mass_mev, 1, 0}},
    {"pi-", {pion_mass_mev, -1, 0}},
    {"pi+", {pion_mass_mev, 1, 0}},
    {"proton", {proton_mass_mev, 1, 0}},
    {"antiproton", {proton_mass_mev, -1, 0}},
    {"gamma", {0.0, 0, 0}},
};
}  // namespace

std::vector<std::string> detector_particle_names()
{
    std::vector<std::string> out;
    for (auto const& p : k_particles) out.emplace_back(p.name);
    return out;
}

std::optional<ParticleType> find_detector_particle(std::string const& name)
{
    for (auto const& p : k_particles)
        if (name == p.name) return p.type;
    return std::nullopt;
}

}  // namespace gt
