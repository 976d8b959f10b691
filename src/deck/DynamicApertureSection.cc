// [dynamic_aperture]: the grid of initial conditions of a ring study, its momentum offsets and whether
// the frequency map is read from the turns (docs/studies.md).
#include <fmt/format.h>

#include "deck/DeckSections.hh"
#include "kernels/study/StudyGrid.hh"

namespace gt::deck {

void read_dynamic_aperture(DeckContext& ctx, toml::table const& t, DeckConfig& cfg)
{
    DynamicApertureConfig& d = cfg.dynamic_aperture;
    std::string const path = "dynamic_aperture";
    d.enabled = true;
    d.where = ctx.where(t);
    ctx.check_keys(t, path,
                   {"grid", "in_sigmas", "angles", "angle_min", "angle_max", "radii", "radius_min",
                    "radius_max", "nx", "ny", "x_min", "x_max", "y_min", "y_max", "deltas", "frequency_map",
                    "naff_window", "resonance_order"});
    if (auto g = ctx.choice_at(t, path, "grid", {"polar", "cartesian"}, false)) d.grid = *g;
    if (auto s = ctx.bool_at(t, path, "in_sigmas")) d.in_sigmas = *s;
    QuantityKind const& size = d.in_sigmas ? quantity::dimensionless : quantity::length;
    auto count = [&](char const* key, std::int64_t& out) {
        if (auto n = ctx.integer_at(t, path, key, Bound::at_least_one, false)) {
            if (*n > 100000)
                ctx.error(ctx.where(*t.get(key)), path + "." + key,
                          fmt::format("expected at most 100000 grid points on one axis, got {}", *n));
            else
                out = *n;
        }
    };
    bool const polar = d.grid == "polar";
    auto misplaced = [&](std::vector<char const*> const& keys, char const* grid) {
        for (char const* k : keys)
            if (t.contains(k))
                ctx.error(ctx.where(*t.get(k)), path + "." + k,
                          fmt::format("'{}' belongs to grid = \"{}\"; this grid is \"{}\"", k, grid, d.grid));
    };
    if (polar) {
        misplaced({"nx", "ny", "x_min", "x_max", "y_min", "y_max"}, "cartesian");
        count("angles", d.angles);
        count("radii", d.radii);
        if (auto a = ctx.quantity_at(t, path, "angle_min", quantity::angle, Bound::any, false))
            d.angle_min = *a;
        if (auto a = ctx.quantity_at(t, path, "angle_max", quantity::angle, Bound::any, false))
            d.angle_max = *a;
        if (auto r = ctx.quantity_at(t, path, "radius_max", size, Bound::positive, true)) d.radius_max = *r;
        if (auto r = ctx.quantity_at(t, path, "radius_min", size, Bound::positive, false)) {
            if (d.radius_max > 0 && *r >= d.radius_max)
                ctx.error(ctx.where(*t.get("radius_min")), path + ".radius_min",
                          fmt::format("expected less than radius_max = {}, got {}", d.radius_max, *r));
            d.radius_min = *r;
        }
        if (d.angles > 1 && !(d.angle_max > d.angle_min))
            ctx.error(d.where, path + ".angle_max",
                      "expected angle_max > angle_min with more than one angle");
    } else {
        misplaced({"angles", "radii", "angle_min", "angle_max", "radius_min", "radius_max"}, "polar");
        count("nx", d.nx);
        count("ny", d.ny);
        if (auto v = ctx.quantity_at(t, path, "x_min", size, Bound::any, false)) d.x_min = *v;
        if (auto v = ctx.quantity_at(t, path, "x_max", size, Bound::any, true)) d.x_max = *v;
        if (auto v = ctx.quantity_at(t, path, "y_min", size, Bound::any, false)) d.y_min = *v;
        if (auto v = ctx.quantity_at(t, path, "y_max", size, Bound::any, true)) d.y_max = *v;
        if (d.nx > 1 && !(d.x_max > d.x_min))
            ctx.error(d.where, path + ".x_max", "expected x_max > x_min with nx > 1");
        if (d.ny > 1 && !(d.y_max > d.y_min))
            ctx.error(d.where, path + ".y_max", "expected y_max > y_min with ny > 1");
    }
    if (auto const* n = t.get("deltas")) {
        if (auto v = ctx.numbers_of(*n, path + ".deltas")) {
            if (v->empty() || v->size() > static_cast<std::size_t>(k_study_max_deltas))
                ctx.error(
                    ctx.where(*n), path + ".deltas",
                    fmt::format("expected 1 to {} momentum offsets, got {}", k_study_max_deltas, v->size()));
            else
                d.deltas = *v;
            for (double x : *v)
                if (!(x > -0.5 && x < 0.5))
                    ctx.error(ctx.where(*n), path + ".deltas",
                              fmt::format("expected momentum offsets dp/p in (-0.5, 0.5), got {}", x));
        }
    }
    if (auto f = ctx.bool_at(t, path, "frequency_map")) d.frequency_map = *f;
    if (auto p = ctx.integer_at(t, path, "naff_window", Bound::at_least_one, false)) {
        if (*p > 8)
            ctx.error(ctx.where(*t.get("naff_window")), path + ".naff_window",
                      fmt::format("expected a Hann window order of 1 to 8, got {}", *p));
        else
            d.naff_window = *p;
    }
    if (auto o = ctx.integer_at(t, path, "resonance_order", Bound::at_least_one, false)) {
        if (*o > 15)
            ctx.error(ctx.where(*t.get("resonance_order")), path + ".resonance_order",
                      fmt::format("expected resonance lines of order 1 to 15, got {}", *o));
        else
            d.resonance_order = *o;
    }
    if (d.frequency_map && cfg.lattice.turns < 64)
        ctx.error(
            d.where, path + ".frequency_map",
            fmt::format("a frequency map needs at least 64 turns (two halves of 32) in lattice.turns, got {}",
                        cfg.lattice.turns));
    if (d.in_sigmas && cfg.beam.distribution == "file")
        ctx.error(d.where, path + ".in_sigmas",
                  "radii in sigmas need [beam.twiss] emittances, not a beam file");
}

}  // namespace gt::deck
