// What the GDML reader collects before it writes the geometry description: elements, materials,
// solids and logical volumes under their GDML names (the file's references use these).
#pragma once

#include <array>
#include <map>
#include <optional>
#include <pugixml.hpp>
#include <string>
#include <vector>

#include "deck/DetectorConfig.hh"
#include "deck/gdml/GdmlSource.hh"

namespace gt::gdml {

struct GdmlElement {
    int z = 0;
    double molar_mass = 0;  //!< [g/mol]
};

struct GdmlMaterial {
    std::string builtin;                          //!< gtrack's built-in material it is, else empty
    double density = 0;                           //!< [kg/m^3]
    std::vector<std::pair<int, double>> by_mass;  //!< (Z, mass fraction), normalized
    std::optional<double> mean_excitation;        //!< [MeV]
    pugi::xml_node node;                          //!< where it is defined (none for a NIST name)
};

struct GdmlTransform {
    std::array<double, 3> position{};                           //!< [m]
    std::array<double, 9> rotation{1, 0, 0, 0, 1, 0, 0, 0, 1};  //!< active, row-major (local -> mother)
};

struct GdmlPhysvol {
    std::string volume;  //!< a logical volume or an assembly
    GdmlTransform transform;
    std::optional<int> copy;
    pugi::xml_node node;
};

struct GdmlLogical {
    std::string solid;
    std::string material;
    bool sensitive = false;
    bool assembly = false;
    std::vector<GdmlPhysvol> daughters;
    pugi::xml_node node;
};

struct GdmlModel {
    std::map<std::string, std::array<double, 3>> positions;  //!< [m]
    std::map<std::string, std::array<double, 3>> rotations;  //!< GDML angles [rad]
    std::map<std::string, GdmlElement> elements;
    std::map<std::string, GdmlMaterial> materials;
    std::map<std::string, VolumeConfig> solids;  //!< shape fields only
    std::map<std::string, pugi::xml_node> solid_nodes;
    std::map<std::string, GdmlLogical> volumes;
    std::vector<std::string> volume_order;  //!< file order
};

void read_defines(GdmlSource& src, pugi::xml_node define, std::map<std::string, double> const& overrides,
                  GdmlModel& model);
void read_materials(GdmlSource& src, pugi::xml_node materials, GdmlModel& model);
//! The material called name: the file's, else a Geant4 NIST name (added to the model); nullptr if neither.
GdmlMaterial const* find_material(GdmlModel& model, std::string const& name);
void read_solids(GdmlSource& src, pugi::xml_node solids, GdmlModel& model);
void read_structure(GdmlSource& src, pugi::xml_node structure, GdmlModel& model);
//! The placement a <physvol> (or the rotation and position children of any element) gives.
GdmlTransform read_transform(GdmlSource& src, pugi::xml_node n, GdmlModel const& model);

}  // namespace gt::gdml
