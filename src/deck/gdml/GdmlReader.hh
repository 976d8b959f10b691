// Reading a GDML geometry (Geant4's Geometry Description Markup Language) into the geometry
// description a detector deck's TOML sections build: materials, the world and the volumes, each a
// logical volume with every placement of it. The same table builder then makes the device tables.
//
// What is read: <define> (constants, variables, quantities, expressions, positions, rotations),
// <materials> (isotopes, elements, materials by mass fraction, atom count or mixture, Geant4's NIST
// G4_* names), <solids> (those gtrack navigates exactly; any other refused by name, type and line),
// <structure> (volumes, physvols, assemblies, SensDet auxiliaries) and <setup>. See docs/decks.md.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "deck/DetectorConfig.hh"

namespace gt::gdml {

struct GdmlOptions {
    //! <constant> values to use instead of the file's (the deck's [geometry.gdml_constants])
    std::map<std::string, double> constants;
    //! Drop Geant4's "0x..." pointer suffixes from the names of volumes and materials
    bool strip_pointers = false;
    //! Logical volumes to make sensitive besides those with a SensDet auxiliary (by output name)
    std::vector<std::string> sensitive;
};

struct GdmlGeometry {
    std::vector<MaterialConfig> materials;  //!< materials the volumes use that gtrack has no built-in for
    VolumeConfig world;
    std::vector<VolumeConfig> volumes;  //!< mothers before daughters, each with its placements
};

//! Reads path; throws GdmlError ("file:line: <element>: what") on anything malformed or unsupported.
GdmlGeometry read_gdml_file(std::string const& path, GdmlOptions const& options);
//! The same from text in memory, named path in diagnostics.
GdmlGeometry read_gdml_text(std::string const& path, std::string const& text, GdmlOptions const& options);

//! A name without Geant4's pointer suffix: "Layer0x7f3a5c" -> "Layer" (names without one unchanged).
std::string strip_pointer(std::string const& name);

}  // namespace gt::gdml
