// [run]: the kind of deck, its name, seed and backend.
#include "deck/DeckSections.hh"

#include <fmt/format.h>

#include "deck/DeckText.hh"

namespace gt::deck {

void read_run(DeckContext& ctx, toml::table const& t, DeckConfig& cfg)
{
    std::string const path = "run";
    ctx.check_keys(t, path, {"kind", "name", "seed", "backend", "track_slots", "track_order", "cpu_loop", "tracking"});
    if (auto kind = ctx.choice_at(t, path, "kind", {"beamline", "detector"}, false)) cfg.run.kind = *kind;
    if (toml::node const* n = t.get("track_slots")) {
        if (cfg.run.kind != "detector") {
            ctx.error(ctx.where(*n), "run.track_slots",
                      "'track_slots' is only used by detector decks (kind = \"detector\")");
        } else if (auto slots = ctx.integer_of(*n, "run.track_slots", Bound::at_least_one)) {
            cfg.detector.track_slots = static_cast<std::uint64_t>(*slots);
        }
    }
    if (toml::node const* n = t.get("track_order")) {
        if (cfg.run.kind != "detector")
            ctx.error(ctx.where(*n), "run.track_order",
                      "'track_order' is only used by detector decks (kind = \"detector\")");
        else if (auto order = ctx.choice_at(t, path, "track_order", {"slots", "alive", "charge", "compact"}, false))
            cfg.detector.track_order = *order;
    }
    if (toml::node const* n = t.get("cpu_loop")) {
        if (cfg.run.kind != "detector")
            ctx.error(ctx.where(*n), "run.cpu_loop", "'cpu_loop' is only used by detector decks (kind = \"detector\")");
        else if (auto loop = ctx.choice_at(t, path, "cpu_loop", {"tracks", "slots"}, false))
            cfg.detector.cpu_loop = *loop;
    }
    if (toml::node const* n = t.get("name")) {
        if (auto name = ctx.string_of(*n, "run.name")) cfg.run.name = *name;
    }
    if (auto seed = ctx.integer_at(t, path, "seed", Bound::non_negative, false))
        cfg.run.seed = static_cast<std::uint64_t>(*seed);
    if (auto tracking = ctx.choice_at(t, path, "tracking", {"z", "t", "auto"}, false)) cfg.run.tracking = *tracking;
    if (auto backend = ctx.choice_at(t, path, "backend", {"auto", "cpu", "gpu"}, false)) {
        cfg.run.backend = *backend == "cpu"   ? BackendChoice::cpu
                          : *backend == "gpu" ? BackendChoice::gpu
                                              : BackendChoice::automatic;
    }
}

}  // namespace gt::deck
