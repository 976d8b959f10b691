// [errors]: the seed and default truncation of the random lattice errors, and their groups, one
// sub-table each: which elements (type, name glob) and which errors (misalignments, relative gradient,
// multipole components at a reference radius). The draws themselves: src/beam/LatticeErrors.cc.
#include "deck/DeckSections.hh"

#include <algorithm>

#include <fmt/format.h>

#include "deck/DeckText.hh"
#include "deck/Suggest.hh"

namespace gt::deck {

namespace {

//! Highest multipole order an error may have: the thin multipole's (kernels/elements/Multipole.hh, n =
//! 0..20).
constexpr std::size_t k_error_orders = 21;

//! `truncation` in sigmas: >= 0.5, where rejection sampling keeps at least 38% of its draws
//! (LatticeErrors.cc).
std::optional<double> truncation_at(DeckContext& ctx, toml::table const& t, std::string const& path)
{
    auto c = ctx.quantity_at(t, path, "truncation", quantity::dimensionless, Bound::positive, false);
    if (c && *c < 0.5) {
        ctx.error(ctx.where(*t.get("truncation")), join_key(path, "truncation"),
                  fmt::format("expected a cut of at least 0.5 sigma (got {})", *c));
        return std::nullopt;
    }
    return c;
}

void read_group(DeckContext& ctx, toml::table const& t, std::string const& path, ErrorGroupConfig& g)
{
    ctx.check_keys(t, path,
                   {"type", "match", "dx", "dy", "roll", "gradient", "reference_radius", "b", "a", "b_random",
                    "a_random", "truncation"});
    g.where = ctx.where(t);
    if (auto type = ctx.choice_at(t, path, "type", element_type_names(), false)) g.type = *type;
    if (auto match = ctx.string_at(t, path, "match", false, "")) g.match = *match;
    if (g.type.empty() && g.match.empty() && !t.contains("type") && !t.contains("match"))
        ctx.error(g.where, path,
                  "a group needs `type` (an element type), `match` (a glob on element names) or both, to say "
                  "which elements it draws errors for");
    auto const rms = [&](std::string_view key, QuantityKind const& kind, double& out) {
        if (auto v = ctx.quantity_at(t, path, key, kind, Bound::non_negative, false)) out = *v;
    };
    rms("dx", quantity::length, g.dx);
    rms("dy", quantity::length, g.dy);
    rms("roll", quantity::angle, g.roll);
    rms("gradient", quantity::dimensionless, g.gradient);
    if (auto r = ctx.quantity_at(t, path, "reference_radius", quantity::length, Bound::positive, false))
        g.reference_radius = *r;
    if (auto c = truncation_at(ctx, t, path)) g.truncation = *c;
    bool multipoles = false;
    for (auto [key, out] : {std::pair<char const*, std::vector<double>*>{"b", &g.b},
                            {"a", &g.a},
                            {"b_random", &g.b_random},
                            {"a_random", &g.a_random}}) {
        toml::node const* n = t.get(key);
        if (!n) continue;
        std::string const full = join_key(path, key);
        auto values = ctx.numbers_of(*n, full);
        if (!values) continue;
        if (values->size() > k_error_orders) {
            ctx.error(ctx.where(*n), full,
                      fmt::format("at most {} components (orders 0 to {}); got {}", k_error_orders,
                                  k_error_orders - 1, values->size()));
            continue;
        }
        if (std::string_view(key).ends_with("_random") &&
            std::any_of(values->begin(), values->end(), [](double v) { return v < 0.0; }))
            ctx.error(ctx.where(*n), full, "rms values must be >= 0");
        multipoles =
            multipoles || std::any_of(values->begin(), values->end(), [](double v) { return v != 0.0; });
        *out = std::move(*values);
    }
    if (multipoles && g.reference_radius == 0.0 && !t.contains("reference_radius"))
        ctx.error(g.where, join_key(path, "reference_radius"),
                  "missing: multipole components b, a are relative to the main field at a reference radius "
                  "(e.g. reference_radius = \"17 mm\")");
}

}  // namespace

void read_errors(DeckContext& ctx, toml::table const& t, DeckConfig& cfg)
{
    ErrorsConfig& errors = cfg.errors;
    std::string const path = "errors";
    errors.where = ctx.where(t);
    static std::vector<std::string> const settings = {"seed", "truncation"};
    for (auto const& [k, v] : ctx.in_order(t)) {
        std::string const name(k->str());
        if (std::find(settings.begin(), settings.end(), name) != settings.end()) continue;
        std::string const group_path = join_key(path, name);
        auto const* g = v->as_table();
        if (!g) {
            ctx.error(ctx.where(*k, *v), group_path,
                      fmt::format("unknown key '{}'{}; a group of errors is a table, [errors.{}]", name,
                                  did_you_mean(name, settings), name));
            continue;
        }
        ErrorGroupConfig group;
        group.name = name;
        read_group(ctx, *g, group_path, group);
        errors.groups.push_back(std::move(group));
    }
    if (auto seed = ctx.integer_at(t, path, "seed", Bound::non_negative, !errors.groups.empty()))
        errors.seed = static_cast<std::uint64_t>(*seed);
    if (auto c = truncation_at(ctx, t, path)) errors.truncation = *c;
}

}  // namespace gt::deck
