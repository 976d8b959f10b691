// [physics] keys of electromagnetic showers.
#include "deck/ShowerKeys.hh"

#include <cstdint>

#include <fmt/format.h>

#include "deck/DeckText.hh"

namespace gt::deck {

void read_shower_keys(DeckContext& ctx, toml::table const& t, std::string const& path,
                      DetectorPhysicsConfig& ph)
{
    if (auto b = ctx.bool_at(t, path, "showers")) ph.showers = *b;
    if (auto v = ctx.quantity_at(t, path, "range_cut", quantity::length, Bound::positive, false))
        ph.range_cut = *v;
    if (auto v = ctx.quantity_at(t, path, "photon_cut", quantity::energy, Bound::positive, false)) {
        if (*v < 1.0e-3)
            ctx.error(
                ctx.where(*t.get("photon_cut")), path + ".photon_cut",
                fmt::format("expected at least 1 keV (the lowest energy of the shower tables), got {} MeV",
                            *v));
        else
            ph.photon_cut = *v;
    }
    if (auto n = ctx.integer_at(t, path, "secondary_buffer", Bound::at_least_one, false)) {
        if (*n < 3)  // one interaction makes up to three (EmFinalState::k_max_secondaries)
            ctx.error(
                ctx.where(*t.get("secondary_buffer")), path + ".secondary_buffer",
                fmt::format("expected at least 3 (the most secondaries one interaction makes), got {}", *n));
        else
            ph.secondary_buffer = static_cast<std::uint64_t>(*n);
    }
    if (auto v = ctx.quantity_at(t, path, "msc_range_factor", quantity::dimensionless, Bound::non_negative,
                                 false)) {
        if (*v > 1)
            ctx.error(ctx.where(*t.get("msc_range_factor")), path + ".msc_range_factor",
                      fmt::format("expected a number in [0, 1] (0: no step limit), got {}", *v));
        else
            ph.msc_range_factor = *v;
    }
    if (auto b = ctx.bool_at(t, path, "msc_path_correction")) ph.msc_path_correction = *b;
    if (auto b = ctx.bool_at(t, path, "msc_exact_mean")) ph.msc_exact_mean = *b;
    if (auto m = ctx.choice_at(t, path, "fluctuation_model", {"urban", "gaussian"}, false))
        ph.urban_fluctuations = *m == "urban";
    for (char const* key : {"range_cut", "photon_cut", "secondary_buffer", "msc_range_factor",
                            "msc_path_correction", "msc_exact_mean", "fluctuation_model"})
        if (!ph.showers && t.get(key))
            ctx.error(ctx.where(*t.get(key)), path + "." + key, "only used with showers = true");
}

}  // namespace gt::deck
