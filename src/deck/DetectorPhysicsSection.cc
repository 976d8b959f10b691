// [physics] of a detector deck: the processes and the step limits.
#include "deck/DetectorSections.hh"

#include <fmt/format.h>

#include "deck/DeckText.hh"
#include "deck/ShowerKeys.hh"

namespace gt::deck {

void read_physics(DeckContext& ctx, toml::table const& t, DetectorConfig& d)
{
    std::string const path = "physics";
    ctx.check_keys(
        t, path,
        {"energy_loss", "fluctuations", "multiple_scattering", "energy_cut", "max_step", "range_fraction",
         "final_range", "msc_model", "charged_crossing_hits", k_shower_keys[0], k_shower_keys[1], k_shower_keys[2], k_shower_keys[3],
         k_shower_keys[4], k_shower_keys[5], k_shower_keys[6], k_shower_keys[7]});
    DetectorPhysicsConfig& ph = d.physics;
    if (auto b = ctx.bool_at(t, path, "energy_loss")) ph.energy_loss = *b;
    if (auto b = ctx.bool_at(t, path, "fluctuations")) ph.fluctuations = *b;
    if (auto b = ctx.bool_at(t, path, "multiple_scattering")) ph.multiple_scattering = *b;
    if (auto v = ctx.quantity_at(t, path, "energy_cut", quantity::energy, Bound::non_negative, false))
        ph.energy_cut = *v;
    if (auto v = ctx.quantity_at(t, path, "max_step", quantity::length, Bound::positive, false))
        ph.max_step = *v;
    if (auto v =
            ctx.quantity_at(t, path, "range_fraction", quantity::dimensionless, Bound::positive, false)) {
        if (*v > 1)
            ctx.error(ctx.where(*t.get("range_fraction")), "physics.range_fraction",
                      fmt::format("expected a fraction in (0, 1], got {}", *v));
        else
            ph.range_fraction = *v;
    }
    if (auto v = ctx.quantity_at(t, path, "final_range", quantity::length, Bound::positive, false))
        ph.final_range = *v;
    if (auto m = ctx.choice_at(t, path, "msc_model", {"moliere", "highland", "moliere_all"}, false)) ph.msc_model = *m;
    if (auto b = ctx.bool_at(t, path, "charged_crossing_hits")) ph.charged_crossing_hits = *b;
    read_shower_keys(ctx, t, path, d.physics);
}

}  // namespace gt::deck
