// The sections of a beamline deck (kind = "beamline"), read in order: [beam] before [space_charge]
// (its bunch charge), [elements] before [lattice] and [output] (their names).
#include "deck/DeckSections.hh"

#include <algorithm>

#include <fmt/format.h>

#include "deck/Suggest.hh"

namespace gt::deck {

void read_beamline_sections(DeckContext& ctx, toml::table const& root, DeckConfig& cfg)
{
    static std::vector<std::string> const sections = {"run",          "beam",       "elements", "lattice",
                                                      "space_charge", "collective", "output",   "scan",
                                                      "errors",       "dynamic_aperture",
                                                      "momentum_aperture"};
    // A detector beside the lattice (BeamDetectorSection.cc): its sections, with [geometry].
    static std::vector<std::string> const beside = {"materials",   "geometry", "field",
                                                    "propagation", "physics",  "detector"};
    static std::vector<std::string> const detector_sections = {"gun", "strips"};
    bool const with_detector = root.contains("geometry");
    for (auto&& [k, v] : root) {
        if (std::find(sections.begin(), sections.end(), k.str()) != sections.end()) continue;
        if (std::find(beside.begin(), beside.end(), k.str()) != beside.end()) {
            if (!with_detector)
                ctx.error(
                    ctx.where(k, v), std::string(k.str()),
                    fmt::format("[{}] belongs to a detector: a beamline deck holds one beside its lattice "
                                "when it has a [geometry] (docs/decks.md, \"A detector along the beamline\")",
                                k.str()));
            continue;
        }
        if (k.str() == "gun") {
            ctx.error(
                ctx.where(k, v), "gun",
                "a beamline deck's detector takes its primaries from the beam (the lost particles, "
                "and with [detector] primaries = [\"lost\", \"extracted\"] the beam at the end): no [gun]");
            continue;
        }
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
    if (auto const* errors = ctx.table_at(root, "", "errors", false)) read_errors(ctx, *errors, cfg);
    if (auto const* sc = ctx.table_at(root, "", "space_charge", false)) read_space_charge(ctx, *sc, cfg);
    if (auto const* c = ctx.table_at(root, "", "collective", false)) read_collective(ctx, *c, cfg);
    if (auto const* da = ctx.table_at(root, "", "dynamic_aperture", false)) read_dynamic_aperture(ctx, *da, cfg);
    if (auto const* ma = ctx.table_at(root, "", "momentum_aperture", false)) read_momentum_aperture(ctx, *ma, cfg);
    read_output(ctx, ctx.table_at(root, "", "output", false), cfg, tracked);
    if (with_detector) read_beamline_detector(ctx, root, cfg);
}

}  // namespace gt::deck
