// Helpers for the GDML tests: a GDML file written to a temporary directory, a deck around a GDML
// geometry, a GDML file's geometry tables, and a ray trace through the navigator (volumes crossed and
// distances) checked against hand values.
#pragma once

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "Relative.hh"
#include "deck/DeckReader.hh"
#include "deck/gdml/GdmlReader.hh"
#include "detector/DetectorSetup.hh"
#include "detector/GeometryBuilder.hh"
#include "kernels/geometry/Navigator.hh"

namespace gt::test {

//! Writes text to a fresh file in the temporary directory and returns its path.
inline std::string write_temp_file(std::string const& name, std::string const& text)
{
    auto const dir = std::filesystem::temp_directory_path() / fmt::format("gtrack-gdml-{}", ::getpid());
    std::filesystem::create_directories(dir);
    auto const path = dir / name;
    std::ofstream(path) << text;
    return path.string();
}

//! A detector deck whose [geometry] is the GDML file at path, with extra [geometry] lines.
inline std::string gdml_deck(std::string const& path, std::string const& geometry_lines = "")
{
    return fmt::format(R"([run]
kind = "detector"
[geometry]
gdml = "{}"
{}
[gun]
particle = "mu-"
energy = "1 GeV"
events = 1
)",
                       path, geometry_lines);
}

//! A minimal GDML document around the given sections' contents.
inline std::string gdml_text(std::string const& define, std::string const& materials,
                             std::string const& solids, std::string const& structure,
                             std::string const& world = "World")
{
    return fmt::format(R"(<?xml version="1.0" encoding="UTF-8"?>
<gdml>
<define>
{}
</define>
<materials>
{}
</materials>
<solids>
{}
</solids>
<structure>
{}
</structure>
<setup name="Default" version="1.0"><world ref="{}"/></setup>
</gdml>
)",
                       define, materials, solids, structure, world);
}

struct Trace {
    std::vector<std::string> volumes;
    std::vector<double> distances;         //!< [m]
    std::vector<double> halfway_safeties;  //!< [m]
};

//! Follows the ray p + t d from volume to volume until it leaves the world. After each crossing the
//! point leaves the surface by the navigator's push, as the transport does (StepActions.hh,
//! CrossBoundary); the push is added back to the distance, so that each distance is the whole
//! segment's.
inline Trace trace(GeometryTables const& g, Vec3 p, Vec3 d)
{
    Navigator const nav(g.view());
    Trace t;
    std::int32_t v = nav.locate(p);
    double pushed = 0;
    for (int i = 0; v >= 0 && i < 10000; ++i) {
        NextStep const s = nav.find_next_step(v, p, d, 1e6);
        double const segment = s.distance + pushed;
        t.volumes.push_back(g.logical_names[g.volumes[v].logical]);
        t.distances.push_back(segment);
        t.halfway_safeties.push_back(nav.safety(v, axpy(0.5 * segment - pushed, d, p), 1e6));
        p = axpy(s.distance, d, p);
        v = nav.cross_boundary(v, p, d);
        p = axpy(nav::k_push, d, p);
        pushed = nav::k_push;
    }
    return t;
}

//! The geometry tables of a GDML file's volumes, each material numbered in order of first use.
inline GeometryTables tables_of(gdml::GdmlGeometry const& gg)
{
    DetectorConfig d;
    d.world = gg.world;
    d.volumes = gg.volumes;
    std::map<std::string, int> materials = {{d.world.material, 0}};
    for (VolumeConfig const& v : d.volumes) materials.emplace(v.material, static_cast<int>(materials.size()));
    return build_geometry(d, materials);
}

//! The ray p + t d crosses exactly `volumes`, each over the hand-computed distance [m] to 1e-9 (the
//! crossings carry a few ulps of round-off and the trace's push of 1e-9 m added back), and the safety
//! halfway along each segment is never larger than the true distance to its ends.
inline void check_trace(GeometryTables const& g, Vec3 p, Vec3 d, std::vector<std::string> const& volumes,
                        std::vector<double> const& distances)
{
    Trace const t = trace(g, p, d);
    REQUIRE(t.volumes == volumes);
    REQUIRE(t.distances.size() == distances.size());
    for (std::size_t i = 0; i < distances.size(); ++i) {
        CAPTURE(i);
        CHECK(t.distances[i] == relative(distances[i], 1e-9));
        CHECK(t.halfway_safeties[i] <= 0.5 * t.distances[i] + 1e-12);
    }
}

}  // namespace gt::test
