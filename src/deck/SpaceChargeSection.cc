// [space_charge]: the grid, the kick schedule, the solver and the deposition.
#include "deck/DeckSections.hh"

#include <fmt/format.h>

#include "deck/DeckText.hh"

namespace gt::deck {

void read_space_charge(DeckContext& ctx, toml::table const& t, DeckConfig& cfg)
{
    SpaceChargeConfig& sc = cfg.space_charge;
    std::string const path = "space_charge";
    sc.where = ctx.where(t);
    ctx.check_keys(t, path,
                   {"enabled", "grid", "kicks_per_meter", "kicks_per_element", "solver", "deposition",
                    "shape", "sort_every", "margin", "truncate_sigma"});
    if (toml::node const* n = t.get("enabled")) {
        if (auto on = ctx.bool_of(*n, "space_charge.enabled")) sc.enabled = *on;
    }
    if (auto s = ctx.choice_at(t, path, "shape", {"cic", "tsc"}, false)) sc.shape = *s;
    // The stencils need a node on either side of every particle: CIC 3 nodes, TSC 4 at least;
    // fewer than 4 is never a useful grid, so both ask for 4.
    int const min_nodes = 4;
    if (toml::node const* n = t.get("grid")) {
        auto const* a = n->as_array();
        if (!a || a->size() != 3) {
            ctx.error(ctx.where(*n), "space_charge.grid",
                      fmt::format("expected [nx, ny, nz], three whole numbers >= {}, got {}", min_nodes,
                                  a ? fmt::format("{} entries", a->size()) : describe_node(*n)));
        } else {
            for (std::size_t i = 0; i < 3; ++i) {
                std::string const key = fmt::format("space_charge.grid[{}]", i);
                if (auto g = ctx.integer_of(*a->get(i), key, Bound::at_least_one)) {
                    if (*g > (1 << 20)) {
                        ctx.error(ctx.where(*a->get(i)), key,
                                  fmt::format("{} grid points is beyond any machine's memory", *g));
                    } else if (*g < min_nodes) {
                        ctx.error(ctx.where(*a->get(i)), key,
                                  fmt::format("expected at least {} nodes (the charge-sharing stencils need "
                                              "them), got {}",
                                              min_nodes, *g));
                    } else {
                        sc.grid[i] = static_cast<int>(*g);
                    }
                }
            }
        }
    }
    if (auto k = ctx.quantity_at(t, path, "kicks_per_meter", quantity::per_length, Bound::positive, false))
        sc.kicks_per_meter = *k;
    if (auto k = ctx.integer_at(t, path, "kicks_per_element", Bound::at_least_one, false)) {
        if (t.get("kicks_per_meter")) {
            ctx.error(ctx.where(*t.get("kicks_per_element")), "space_charge.kicks_per_element",
                      "give kicks_per_meter or kicks_per_element, not both");
        } else {
            sc.kicks_per_element = *k;
        }
    }
    if (auto c = ctx.choice_at(t, path, "solver", {"3d", "2.5d"}, false)) sc.solver = *c;
    if (auto s = ctx.choice_at(t, path, "deposition", {"deterministic", "atomic", "aggregated"}, false))
        sc.deposition = *s;
    if (auto k = ctx.integer_at(t, path, "sort_every", Bound::non_negative, false)) sc.sort_every = *k;
    if (auto m = ctx.quantity_at(t, path, "margin", quantity::dimensionless, Bound::non_negative, false)) {
        if (*m > 10.0) {
            ctx.error(ctx.where(*t.get("margin")), "space_charge.margin",
                      fmt::format("expected a fraction of the bunch extent between 0 and 10, got {}", *m));
        } else {
            sc.margin = *m;
        }
    }
    if (auto k =
            ctx.quantity_at(t, path, "truncate_sigma", quantity::dimensionless, Bound::non_negative, false)) {
        if (*k > 0.0 && *k < 2.0) {
            ctx.error(
                ctx.where(*t.get("truncate_sigma")), "space_charge.truncate_sigma",
                fmt::format("expected 0 (grid over the whole bunch) or at least 2 (rms sizes), got {}", *k));
        } else {
            sc.truncate_sigma = *k;
        }
    }
    if (sc.enabled && cfg.beam.bunch_charge == 0.0 && t.get("enabled")) {
        ctx.error(ctx.where(*t.get("enabled")), "space_charge.enabled",
                  "space charge needs a beam.bunch_charge > 0 (the bunch has no charge)");
    }
}

}  // namespace gt::deck
