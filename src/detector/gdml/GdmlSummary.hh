// What `gtrack check` prints of a geometry read from GDML: the volume tree (depth-limited, repeated
// placements of one volume on one line), the materials with density and radiation length, the
// solids by type, and each volume's mass (density x closed-form volume less its daughters').
#pragma once

#include <string>

#include "deck/DetectorConfig.hh"
#include "detector/GeometryBuilder.hh"

namespace gt::gdml {

std::string describe_gdml_geometry(DetectorConfig const& d, GeometryTables const& g, int max_depth = 4);

}  // namespace gt::gdml
