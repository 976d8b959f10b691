// A beamline deck with a detector beside its lattice: [materials], [geometry], [field], [propagation] and
// [physics] as in detector decks, volumes placed along the orbit (`s`), and [detector] (which particles
// become primaries, the track slots). The joined run is run/BeamDetectorRun.cc.
#include <fmt/format.h>

#include "deck/DeckSections.hh"
#include "deck/DeckText.hh"
#include "deck/DetectorSections.hh"
#include "deck/Particles.hh"

namespace gt::deck {

namespace {

void read_detector_switches(DeckContext& ctx, toml::table const& t, DetectorConfig& d)
{
    std::string const path = "detector";
    ctx.check_keys(t, path, {"primaries", "track_slots"});
    if (toml::node const* n = t.get("primaries")) {
        auto const* a = n->as_array();
        bool lost = false;
        if (!a) {
            ctx.error(
                ctx.where(*n), "detector.primaries",
                fmt::format("expected a list of \"lost\" and \"extracted\", got {}", describe_node(*n)));
        } else {
            for (std::size_t i = 0; i < a->size(); ++i) {
                auto const c = ctx.choice_of(*a->get(i), fmt::format("detector.primaries[{}]", i),
                                             {"lost", "extracted"});
                if (c && *c == "lost") lost = true;
                if (c && *c == "extracted") d.extracted = true;
            }
            if (!lost)
                ctx.error(ctx.where(*n), "detector.primaries",
                          "the particles lost on apertures and collimators are always primaries: the list "
                          "must hold \"lost\" (and \"extracted\" for the beam at the end of the line)");
        }
    }
    if (auto slots = ctx.integer_at(t, path, "track_slots", Bound::at_least_one, false))
        d.track_slots = static_cast<std::uint64_t>(*slots);
}

}  // namespace

void read_beamline_detector(DeckContext& ctx, toml::table const& root, DeckConfig& cfg)
{
    DetectorConfig& d = cfg.detector;
    d.along_beamline = true;
    read_detector_world(ctx, root, d);
    if (auto const* ph = ctx.table_at(root, "", "physics", false)) read_physics(ctx, *ph, d);
    if (auto const* t = ctx.table_at(root, "", "detector", false)) read_detector_switches(ctx, *t, d);
    // The detector's particle is the beam's: one that the detector knows (electron, positron, proton, ...).
    d.gun.particle = cfg.beam.species.name;
    if (!cfg.beam.species.name.empty() && !find_detector_particle(cfg.beam.species.name))
        if (auto const* g = root.get("geometry"))
            ctx.error(
                ctx.where(*g), "geometry",
                fmt::format("the beam's particle ({}) has no detector counterpart: a detector beside the "
                            "lattice takes one of {}",
                            cfg.beam.species.name, quoted_list(detector_particle_names())));
}

}  // namespace gt::deck
