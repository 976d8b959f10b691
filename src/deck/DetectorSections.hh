// The readers of a detector deck's sections (kind = "detector"): [materials], [geometry], [field],
// [propagation], [gun], [physics], [output] into DeckConfig::detector (documented in docs/decks.md),
// one file each, over the same DeckContext as the beamline sections, so that detector keys get the
// very same diagnostics: file:line:column, the key path, what was expected, did-you-mean.
#pragma once

#include <toml++/toml.h>
#include <set>
#include <string>
#include <vector>

#include "deck/Config.hh"
#include "deck/DeckContext.hh"

namespace gt::deck {

//! Reads every detector section of `root` (not [run], read already, nor [scan]).
void read_detector_sections(DeckContext& ctx, toml::table const& root, DeckConfig& cfg);

//! [materials], [geometry] (required), [field] and [propagation]: what a detector deck and a beamline
//! deck with a detector beside its lattice both read, in this order.
void read_detector_world(DeckContext& ctx, toml::table const& root, DetectorConfig& d);

//! [materials] (DetectorMaterialsSection.cc): the valid ones go into d.materials; returns the names
//! of the broken ones, so that volumes using them are not reported again.
std::set<std::string> read_materials(DeckContext& ctx, toml::table const& t, DetectorConfig& d);

//! The material names a volume may use.
struct KnownMaterials {
    std::vector<std::string> names;  //!< built-in, then valid ones from [materials]
    std::set<std::string> broken;    //!< defined in [materials] with problems (reported there)
};

//! [geometry] (DetectorGeometrySection.cc): the world and the volumes.
void read_geometry(DeckContext& ctx, toml::table const& g, KnownMaterials const& materials,
                   DetectorConfig& d);

//! [field] (DetectorFieldSection.cc) and [propagation] (DetectorPropagationSection.cc).
void read_field(DeckContext& ctx, toml::table const& t, DetectorConfig& d);
void read_propagation(DeckContext& ctx, toml::table const& t, DetectorConfig& d);

//! [gun] (DetectorGunSection.cc).
void read_gun(DeckContext& ctx, toml::table const& t, DetectorConfig& d);

//! [physics] (DetectorPhysicsSection.cc) and [output] (DetectorOutputSection.cc, t may be null).
void read_physics(DeckContext& ctx, toml::table const& t, DetectorConfig& d);
void read_detector_output(DeckContext& ctx, toml::table const* t, DeckConfig& cfg);

//! [strips] (DetectorStripsSection.cc): strip sensors on sensitive volumes, read after [geometry].
void read_strips(DeckContext& ctx, toml::table const& t, DetectorConfig& d);

}  // namespace gt::deck
