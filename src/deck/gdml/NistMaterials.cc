// Geant4's NIST materials as gtrack knows them.
//
// Densities, mean excitation energies and compositions: NIST's "Composition of Materials" tables
// of ESTAR/PSTAR (https://physics.nist.gov/cgi-bin/Star/compos.pl) as Geant4's
// G4NistMaterialBuilder carries them (source/materials/src/G4NistMaterialBuilder.cc, methods
// NistSimpleMaterials, NistCompoundMaterials, HepAndNuclearMaterials). Every entry below was
// checked against that file (Geant4 10.x and later; 2026-12-07): density [g/cm3], I [eV] and
// composition agree, with two corrections made then:
// - G4_PLASTIC_SC_VINYLTOLUENE: Geant4 defines it by atom counts, C9 H10 (polyvinyltoluene), since
//   M. Trocme and S. Seltzer found NIST's older mass fractions (H 0.085, C 0.915, kept here before)
//   to be "an unknown mixture"; H is 0.0853 by mass from the counts.
// - G4_AIR: N 0.755267 by mass as in Geant4 (0.755268 before; the four fractions then sum to 1 -
//   1e-6 and are normalized, as Geant4 does).
// Compounds NIST tabulates by mass fraction keep NIST's fractions; Geant4 builds several of them
// (water, Kapton, Mylar, ...) from atom counts instead, which differs by < 1e-5 relative with
// today's atomic weights. G4_PbWO4 and G4_STAINLESS-STEEL are not NIST materials: Geant4 defines
// them by atom counts (PbWO4: 8.28 g/cm3; steel: Fe 74, Cr 18, Ni 8 atoms at 8.00 g/cm3) without an
// I, which it then takes from Bragg additivity, as gtrack does here. G4_Galactic is Geant4's
// universe_mean_density (1e-25 g/cm3) of hydrogen with I = 21.8 eV.
//
// Where gtrack has a built-in material with the same density and I (PDG's table with its
// Sternheimer density-effect parameters), the name maps to it. G4_Si maps to "silicon" (PDG 2.329
// g/cm3 against NIST's 2.33: 0.04%); G4_WATER does not map to "water" (PDG's I = 75 eV; NIST's and
// Geant4's 78 eV).
#include "deck/gdml/NistMaterials.hh"

namespace gt::gdml {

namespace {

std::vector<NistMaterial> const& table()
{
    static std::vector<NistMaterial> const t = {
        {"G4_Galactic", "vacuum", 1e-25, 21.8, false, {{1, 1.0}}},
        {"G4_AIR",
         "air",
         1.20479e-3,
         85.7,
         false,
         {{6, 0.000124}, {7, 0.755267}, {8, 0.231781}, {18, 0.012827}}},
        {"G4_Al", "aluminium", 2.699, 166.0, false, {{13, 1.0}}},
        {"G4_Si", "silicon", 2.33, 173.0, false, {{14, 1.0}}},
        {"G4_Fe", "iron", 7.874, 286.0, false, {{26, 1.0}}},
        {"G4_Cu", "copper", 8.96, 322.0, false, {{29, 1.0}}},
        {"G4_W", "tungsten", 19.3, 727.0, false, {{74, 1.0}}},
        {"G4_Pb", "lead", 11.35, 823.0, false, {{82, 1.0}}},
        {"G4_lAr", "liquid_argon", 1.396, 188.0, false, {{18, 1.0}}},
        {"G4_POLYSTYRENE", "polystyrene", 1.06, 68.7, false, {{1, 0.077418}, {6, 0.922582}}},
        {"G4_CESIUM_IODIDE", "csi", 4.51, 553.1, false, {{53, 0.488451}, {55, 0.511549}}},
        {"G4_H", nullptr, 8.3748e-5, 19.2, false, {{1, 1.0}}},
        {"G4_He", nullptr, 1.66322e-4, 41.8, false, {{2, 1.0}}},
        {"G4_Be", nullptr, 1.848, 63.7, false, {{4, 1.0}}},
        {"G4_C", nullptr, 2.0, 81.0, false, {{6, 1.0}}},
        {"G4_N", nullptr, 1.1652e-3, 82.0, false, {{7, 1.0}}},
        {"G4_O", nullptr, 1.33151e-3, 95.0, false, {{8, 1.0}}},
        {"G4_Ar", nullptr, 1.66201e-3, 188.0, false, {{18, 1.0}}},
        {"G4_Ti", nullptr, 4.54, 233.0, false, {{22, 1.0}}},
        {"G4_Ni", nullptr, 8.902, 311.0, false, {{28, 1.0}}},
        {"G4_Ge", nullptr, 5.323, 350.0, false, {{32, 1.0}}},
        {"G4_Ag", nullptr, 10.5, 470.0, false, {{47, 1.0}}},
        {"G4_Sn", nullptr, 7.31, 488.0, false, {{50, 1.0}}},
        {"G4_Ta", nullptr, 16.654, 718.0, false, {{73, 1.0}}},
        {"G4_Au", nullptr, 19.32, 790.0, false, {{79, 1.0}}},
        {"G4_U", nullptr, 18.95, 890.0, false, {{92, 1.0}}},
        {"G4_WATER", nullptr, 1.0, 78.0, false, {{1, 0.111894}, {8, 0.888106}}},
        {"G4_KAPTON",
         nullptr,
         1.42,
         79.6,
         false,
         {{1, 0.026362}, {6, 0.691133}, {7, 0.07327}, {8, 0.209235}}},
        {"G4_MYLAR", nullptr, 1.4, 78.7, false, {{1, 0.041959}, {6, 0.625017}, {8, 0.333025}}},
        {"G4_POLYETHYLENE", nullptr, 0.94, 57.4, false, {{1, 0.143711}, {6, 0.856289}}},
        {"G4_PLEXIGLASS", nullptr, 1.19, 74.0, false, {{1, 0.080538}, {6, 0.599848}, {8, 0.319614}}},
        {"G4_SILICON_DIOXIDE", nullptr, 2.32, 139.2, false, {{8, 0.532565}, {14, 0.467435}}},
        {"G4_SODIUM_IODIDE", nullptr, 3.667, 452.0, false, {{11, 0.153373}, {53, 0.846627}}},
        {"G4_BGO", nullptr, 7.13, 534.1, false, {{8, 0.154126}, {32, 0.17482}, {83, 0.671054}}},
        {"G4_PLASTIC_SC_VINYLTOLUENE", nullptr, 1.032, 64.7, true, {{6, 9}, {1, 10}}},
        {"G4_CONCRETE",
         nullptr,
         2.3,
         135.2,
         false,
         {{1, 0.01},
          {6, 0.001},
          {8, 0.529107},
          {11, 0.016},
          {12, 0.002},
          {13, 0.033872},
          {14, 0.337021},
          {19, 0.013},
          {20, 0.044},
          {26, 0.014}}},
        {"G4_PbWO4", nullptr, 8.28, 0.0, true, {{8, 4}, {74, 1}, {82, 1}}},
        {"G4_STAINLESS-STEEL", nullptr, 8.0, 0.0, true, {{24, 18}, {26, 74}, {28, 8}}},
    };
    return t;
}

}  // namespace

NistMaterial const* find_nist_material(std::string const& name)
{
    for (auto const& m : table())
        if (name == m.name) return &m;
    return nullptr;
}

std::vector<std::string> nist_material_names()
{
    std::vector<std::string> out;
    for (auto const& m : table()) out.emplace_back(m.name);
    return out;
}

}  // namespace gt::gdml
