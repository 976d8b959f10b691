// Geometry tables from a detector deck: placed volumes with global transforms (replicas expanded),
// bounding-volume hierarchies over each mother's daughters, and the overlap check of `gtrack check`.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "deck/DetectorConfig.hh"
#include "kernels/geometry/GeometryView.hh"
#include "kernels/geometry/RotationMatrix.hh"

namespace gt {

struct GeometryTables {
    std::vector<PlacedVolume> volumes;  //!< [0] is the world
    std::vector<BvhNode> nodes;
    std::vector<std::int32_t> items;
    std::vector<PolyconeSection> sections;   //!< the polycones' sections (GeometryView::sections)
    std::vector<std::string> logical_names;  //!< by logical id: "world", then the deck's volumes

    GeometryView view() const
    {
        return GeometryView{volumes.data(), static_cast<std::int32_t>(volumes.size()), nodes.data(),
                            items.data(), sections.data()};
    }
};

//! Builds the tables; material_index maps material names to indices in the material table.
//! Throws std::invalid_argument naming the volume when a parameter is impossible.
//! A volume's solid as the kernels navigate it (replica copy `copy` of a radial replica set). A
//! polycone's sections are appended to `sections` (required for a polycone), which the shape indexes.
Shape make_shape(VolumeConfig const& v, int copy = 0, std::vector<PolyconeSection>* sections = nullptr);

GeometryTables build_geometry(DetectorConfig const& cfg, std::map<std::string, int> const& material_index);

struct GeometryProblem {
    std::string message;
};

//! Samples points on every daughter's surface: reports a daughter sticking out of its mother and
//! siblings overlapping each other (at most one report per pair), up to max_reports.
std::vector<GeometryProblem> check_geometry(GeometryTables const& g, int samples_per_volume = 1000,
                                            std::size_t max_reports = 100);

}  // namespace gt
