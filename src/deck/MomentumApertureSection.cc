// [momentum_aperture]: where along a ring the momentum acceptance is searched (element types, names or
// globs, every N metres, within an s range), how far (delta_max) and how finely (resolution), for how
// many turns and with the cavities on or off (docs/studies.md, "Momentum aperture").
#include <fnmatch.h>

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "deck/DeckSections.hh"
#include "deck/DeckText.hh"
#include "deck/Suggest.hh"

namespace gt::deck {

namespace {

//! The most candidates one location may take (2 delta_max / resolution): a search finer than this is
//! better done as a second study about the first one's result.
constexpr double k_max_candidates = 100000;

//! A string or an array of strings at t[key], each checked by `check` (which reports its own problems).
std::vector<std::string> strings_at(DeckContext& ctx, toml::table const& t, std::string const& path,
                                    char const* key)
{
    std::vector<std::string> out;
    toml::node const* n = t.get(key);
    if (!n) return out;
    std::vector<toml::node const*> items;
    if (auto const* a = n->as_array()) {
        for (std::size_t i = 0; i < a->size(); ++i) items.push_back(a->get(i));
        if (a->empty()) ctx.error(ctx.where(*n), join_key(path, key), "expected at least one name");
    } else {
        items.push_back(n);  // one name is a list of one
    }
    for (std::size_t i = 0; i < items.size(); ++i) {
        std::string const k =
            n->is_array() ? fmt::format("{}[{}]", join_key(path, key), i) : join_key(path, key);
        if (auto s = ctx.string_of(*items[i], k)) out.push_back(*s);
    }
    return out;
}

}  // namespace

void read_momentum_aperture(DeckContext& ctx, toml::table const& t, DeckConfig& cfg)
{
    MomentumApertureConfig& m = cfg.momentum_aperture;
    std::string const path = "momentum_aperture";
    m.enabled = true;
    m.where = ctx.where(t);
    ctx.check_keys(t, path,
                   {"types", "names", "every", "s_min", "s_max", "delta_max", "resolution", "turns", "rf"});
    // Locations: types and names must each select some element of the deck (a typo selects nothing).
    std::vector<std::string> deck_types;
    for (auto const& e : cfg.elements)
        if (std::find(deck_types.begin(), deck_types.end(), e.type) == deck_types.end())
            deck_types.push_back(e.type);
    m.types = strings_at(ctx, t, path, "types");
    for (auto const& type : m.types)
        if (std::find(deck_types.begin(), deck_types.end(), type) == deck_types.end())
            ctx.error(
                ctx.where(*t.get("types")), join_key(path, "types"),
                fmt::format("no element of type '{}' in [elements]{}", type, did_you_mean(type, deck_types)));
    m.names = strings_at(ctx, t, path, "names");
    std::vector<std::string> deck_names;
    for (auto const& e : cfg.elements) deck_names.push_back(e.name);
    for (auto const& name : m.names)
        if (std::none_of(cfg.elements.begin(), cfg.elements.end(), [&](ElementConfig const& e) {
                return fnmatch(name.c_str(), e.name.c_str(), 0) == 0;
            }))
            ctx.error(
                ctx.where(*t.get("names")), join_key(path, "names"),
                fmt::format("'{}' names no element of [elements]{}", name, did_you_mean(name, deck_names)));
    if (auto e = ctx.quantity_at(t, path, "every", quantity::length, Bound::positive, false)) m.every = *e;
    if (m.types.empty() && m.names.empty() && !(m.every > 0) && !t.contains("types") &&
        !t.contains("names") && !t.contains("every"))
        ctx.error(m.where, path,
                  "say where to search: `types` (element types), `names` (element names or globs) and/or "
                  "`every` (a location every so many metres)");
    if (auto s = ctx.quantity_at(t, path, "s_min", quantity::length, Bound::non_negative, false))
        m.s_min = *s;
    if (auto s = ctx.quantity_at(t, path, "s_max", quantity::length, Bound::non_negative, false)) {
        if (*s < m.s_min)
            ctx.error(ctx.where(*t.get("s_max")), join_key(path, "s_max"),
                      fmt::format("expected s_max >= s_min = {} m, got {} m", m.s_min, *s));
        m.s_max = *s;
    }
    // The search: candidates k * resolution, k = 1 ... delta_max / resolution, on either side.
    if (auto d = ctx.quantity_at(t, path, "delta_max", quantity::dimensionless, Bound::positive, true)) {
        if (*d >= 0.5)
            ctx.error(ctx.where(*t.get("delta_max")), join_key(path, "delta_max"),
                      fmt::format("expected a momentum offset dp/p below 0.5, got {}", *d));
        m.delta_max = *d;
    }
    if (auto r = ctx.quantity_at(t, path, "resolution", quantity::dimensionless, Bound::positive, true)) {
        toml::node const& n = *t.get("resolution");
        if (*r > m.delta_max)
            ctx.error(ctx.where(n), join_key(path, "resolution"),
                      fmt::format("expected a step no larger than delta_max = {}, got {}", m.delta_max, *r));
        else if (m.delta_max / *r > k_max_candidates)
            ctx.error(
                ctx.where(n), join_key(path, "resolution"),
                fmt::format("delta_max / resolution = {:.0f} candidates on each side, more than {:.0f}: "
                            "search coarsely first, then finely about the result",
                            m.delta_max / *r, k_max_candidates));
        m.resolution = *r;
    }
    if (auto n = ctx.integer_at(t, path, "turns", Bound::at_least_one, false)) {
        if (*n > 10000000)
            ctx.error(ctx.where(*t.get("turns")), join_key(path, "turns"),
                      fmt::format("expected at most 1e7 turns, got {}", *n));
        m.turns = *n;
    }
    if (auto rf = ctx.bool_at(t, path, "rf")) m.rf = *rf;
    if (!m.rf && cfg.lattice.radiation != "off")
        ctx.error(t.contains("rf") ? ctx.where(*t.get("rf")) : m.where, join_key(path, "rf"),
                  fmt::format("rf = false with [lattice] radiation = \"{}\": the particles would lose energy "
                              "every turn with nothing to restore it; switch radiation off for a 4D search",
                              cfg.lattice.radiation));
    if (!m.rf)
        for (auto const& e : cfg.elements)
            if ((e.type == "rfcavity" && e.strings.count("profile")) || e.type == "field_map")
                ctx.error(
                    t.contains("rf") ? ctx.where(*t.get("rf")) : m.where, join_key(path, "rf"),
                    fmt::format("rf = false switches off cavities given by `voltage`; '{}' is a {} whose "
                                "field cannot be switched off here",
                                e.name, e.type == "field_map" ? "field map" : "cavity given by its profile"));
    if (cfg.dynamic_aperture.enabled)
        ctx.error(m.where, path,
                  "a deck holds one study: [dynamic_aperture] and [momentum_aperture] go in two decks");
}

}  // namespace gt::deck
