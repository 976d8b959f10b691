// [propagation] of a detector deck: the accuracy and step limits of tracking in the field.
#include "deck/DetectorSections.hh"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

namespace gt::deck {

void read_propagation(DeckContext& ctx, toml::table const& t, DetectorConfig& d)
{
    std::string const path = "propagation";
    ctx.check_keys(t, path, {"max_substeps", "delta_chord", "delta_intersection", "epsilon", "max_steps"});
    PropagationConfig& pr = d.propagation;
    if (auto n = ctx.integer_at(t, path, "max_substeps", Bound::at_least_one, false))
        pr.max_substeps = static_cast<int>(std::min<std::int64_t>(*n, 1 << 30));
    if (auto v = ctx.quantity_at(t, path, "delta_chord", quantity::length, Bound::positive, false))
        pr.delta_chord = *v;
    if (auto v = ctx.quantity_at(t, path, "delta_intersection", quantity::length, Bound::positive, false))
        pr.delta_intersection = *v;
    if (auto v = ctx.quantity_at(t, path, "epsilon", quantity::dimensionless, Bound::positive, false)) {
        if (*v >= 0.1)
            ctx.error(ctx.where(*t.get("epsilon")), "propagation.epsilon",
                      fmt::format("expected a relative accuracy well below 1 (e.g. 1e-6), got {}", *v));
        else
            pr.epsilon = *v;
    }
    if (auto n = ctx.integer_at(t, path, "max_steps", Bound::at_least_one, false))
        pr.max_steps = static_cast<std::uint64_t>(std::min<std::int64_t>(*n, 4000000000LL));
}

}  // namespace gt::deck
