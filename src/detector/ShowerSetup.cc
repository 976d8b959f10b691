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
    // particle (and an event file's other species) after them unless it is one of them
    std::vector<ParticleType> const before = t.particles;
    t.particles = {*find_detector_particle("e-"), *find_detector_particle("e+"),
                   *find_detector_particle("gamma")};
    auto index_of = [&](ParticleType const& b) {
        auto const it = std::find_if(t.particles.begin(), t.particles.end(), [&](ParticleType const& a) {
            return a.mass == b.mass && a.charge == b.charge && a.is_electron == b.is_electron;
        });
        if (it != t.particles.end()) return static_cast<std::int32_t>(it - t.particles.begin());
        t.particles.push_back(b);
        return static_cast<std::int32_t>(t.particles.size() - 1);
    };
    t.gun.particle = index_of(before.at(0));
    for (ParticleType const& p : before) index_of(p);
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
