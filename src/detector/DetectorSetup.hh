// Turning a checked detector deck into the tables the backends run on.
#pragma once

#include <string>
#include <vector>

#include "deck/Config.hh"
#include "detector/GeometryBuilder.hh"
#include "kernels/detector/DetectorTables.hh"

namespace gt {

struct DetectorSetup {
    DetectorTables tables;
    GeometryTables geometry;                  //!< the host copy, with names
    std::vector<std::string> material_names;  //!< by material index
};

//! Builds every table of the run. A field map file that cannot be read, or that is not laid out
//! as docs/decks.md says, throws IoError / std::invalid_argument naming the file and what is wrong.
DetectorSetup make_detector_setup(DeckConfig const& cfg);

//! The index in t.particles of the detector particle `name` (e-, mu+, gamma, ...; an alias such as electron
//! finds the same one), or -1 if the table has none.
std::int32_t find_particle_index(DetectorTables const& t, std::string const& name);

//! Reads a field map (layout in docs/decks.md) into `field` and `values`.
void read_field_map(FieldConfig const& cfg, MagneticField& field, std::vector<double>& values);

}  // namespace gt
