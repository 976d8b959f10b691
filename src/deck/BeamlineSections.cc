// The sections of a beamline deck (kind = "beamline"), read in order: [beam] before [space_charge]
// (its bunch charge), [elements] before [lattice] and [output] (their names).
#include "deck/DeckSections.hh"

#include <algorithm>

#include <fmt/format.h>

#include "deck/Suggest.hh"

namespace gt::deck {

void read_beamline_sections(DeckContext& ctx, toml::table const& root, DeckConfig& cfg)
{
    static std::vector<std::string> const sections = {"run",          "beam",   "elements", "lattice",
                                                      "space_charge", "collective", "output", "scan"};
    static std::vector<std::string> const detector_sections = {"materials",   "geometry", "field",
                                                               "propagation", "gun",      "physics"};
    for (auto&& [k, v] : root) {
        if (std::find(sections.begin(), sections.end(), k.str()) != sections.end()) continue;
        if (std::find(detector_sections.begin(), detector_sections.end(), k.str()) !=
            detector_sections.end()) {
            ctx.error(
                ctx.where(k, v), std::string(k.str()),
                fmt::format("[{}] belongs to detector decks (kind = \"detector\"); this is a beamline deck",
                            k.str()));
        } else {
            ctx.error(ctx.where(k, v), std::string(k.str()),
                      fmt::format("unknown section '{}'{}", k.str(), did_you_mean(k.str(), sections)));
        }
    }
    if (auto const* beam = ctx.table_at(root, "", "beam", true)) read_beam(ctx, *beam, cfg.beam);
    if (auto const* elements = ctx.table_at(root, "", "elements", true)) read_elements(ctx, *elements, cfg);
    std::set<std::string> tracked;
    if (auto const* lattice = ctx.table_at(root, "", "lattice", true))
        tracked = read_lattice(ctx, *lattice, cfg);
    if (auto const* sc = ctx.table_at(root, "", "space_charge", false)) read_space_charge(ctx, *sc, cfg);
    if (auto const* c = ctx.table_at(root, "", "collective", false)) read_collective(ctx, *c, cfg);
    read_output(ctx, ctx.table_at(root, "", "output", false), cfg, tracked);
}

}  // namespace gt::deck
