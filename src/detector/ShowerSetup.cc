// Shower tables and particles of a detector run.
#include "detector/ShowerSetup.hh"

#include <algorithm>

#include "deck/Particles.hh"
#include "detector/EmTableBuilder.hh"

namespace gt {

void add_shower_tables(DeckConfig const& cfg, DetectorSetup& s)
{
    DetectorPhysicsConfig const& ph = cfg.detector.physics;
    if (!ph.showers) return;
    DetectorTables& t = s.tables;
    // the shower species at their fixed indices (k_em_electron, k_em_positron, k_em_gamma), the gun's
    // particle after them unless it is one of them
    ParticleType const gun = t.particles.at(0);
    t.particles = {*find_detector_particle("e-"), *find_detector_particle("e+"),
                   *find_detector_particle("gamma")};
    auto same = [&](ParticleType const& a) {
        return a.mass == gun.mass && a.charge == gun.charge && a.is_electron == gun.is_electron;
    };
    auto const it = std::find_if(t.particles.begin(), t.particles.end(), same);
    if (it != t.particles.end()) {
        t.gun.particle = static_cast<std::int32_t>(it - t.particles.begin());
    } else {
        t.gun.particle = static_cast<std::int32_t>(t.particles.size());
        t.particles.push_back(gun);
    }
    std::vector<EmMaterialInput> inputs;
    for (std::size_t m = 0; m < s.material_names.size(); ++m) {
        MaterialParams const& p = t.materials[m];
        std::string const& name = s.material_names[m];
        inputs.push_back({name, p, material_composition(name, p.density, cfg.detector.materials)});
    }
    EmTableSettings settings;
    settings.range_cut = ph.range_cut;
    t.em = build_em_tables(inputs, settings);
    t.physics.showers = 1;
    t.physics.photon_cut = std::max(ph.photon_cut, settings.e_min);
    t.physics.msc_range_factor = ph.msc_range_factor;
    t.physics.msc_path_correction = ph.msc_path_correction ? 1 : 0;
    t.physics.msc_exact_mean = ph.msc_exact_mean ? 1 : 0;
    t.physics.urban_fluctuations = ph.urban_fluctuations ? 1 : 0;
    t.physics.energy_cut = std::max(t.physics.energy_cut, settings.e_min);  // the tables start there
    t.secondary_buffer = ph.secondary_buffer;
}

}  // namespace gt
