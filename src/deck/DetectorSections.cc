// The sections of a detector deck (kind = "detector"), read in order: materials before the geometry
// that uses them.
#include "deck/DetectorSections.hh"

#include <algorithm>

#include <fmt/format.h>

#include "deck/DeckText.hh"
#include "deck/Materials.hh"
#include "deck/Suggest.hh"

namespace gt::deck {

void read_detector_sections(DeckContext& ctx, toml::table const& root, DeckConfig& cfg)
{
    DetectorConfig& d = cfg.detector;
    // [scan] is read by the deck parser for either kind of deck
    static std::vector<std::string> const sections = {"run", "materials", "geometry", "field", "propagation",
                                                      "gun", "physics",   "output",   "scan",  "strips"};
    static std::vector<std::string> const beamline = {"beam", "elements", "lattice", "space_charge",
                                                      "collective"};
    for (auto&& [k, v] : root) {
        std::string const key(k.str());
        if (std::find(sections.begin(), sections.end(), key) != sections.end()) continue;
        if (std::find(beamline.begin(), beamline.end(), key) != beamline.end()) {
            ctx.error(
                ctx.where(k, v), key,
                fmt::format("[{}] belongs to beamline decks (kind = \"beamline\"); this is a detector deck",
                            key));
        } else {
            ctx.error(ctx.where(k, v), key,
                      fmt::format("unknown section '{}'{}", key, did_you_mean(key, sections)));
        }
    }
    read_detector_world(ctx, root, d);
    if (auto const* g = ctx.table_at(root, "", "gun", true)) read_gun(ctx, *g, d);
    if (auto const* ph = ctx.table_at(root, "", "physics", false)) read_physics(ctx, *ph, d);
    read_detector_output(ctx, ctx.table_at(root, "", "output", false), cfg);
    if (auto const* st = ctx.table_at(root, "", "strips", false)) read_strips(ctx, *st, d);
}

void read_detector_world(DeckContext& ctx, toml::table const& root, DetectorConfig& d)
{
    KnownMaterials materials;
    if (auto const* m = ctx.table_at(root, "", "materials", false))
        materials.broken = read_materials(ctx, *m, d);
    materials.names = builtin_material_names();
    for (auto const& m : d.materials) materials.names.push_back(m.name);
    if (auto const* g = ctx.table_at(root, "", "geometry", true)) read_geometry(ctx, *g, materials, d);
    if (auto const* f = ctx.table_at(root, "", "field", false)) read_field(ctx, *f, d);
    if (auto const* pr = ctx.table_at(root, "", "propagation", false)) read_propagation(ctx, *pr, d);
}

}  // namespace gt::deck
