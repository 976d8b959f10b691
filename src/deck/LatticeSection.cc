// [lattice]: lines of elements and lines, the line to track, turns and the global aperture.
#include "deck/DeckSections.hh"

#include <algorithm>
#include <charconv>
#include <functional>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "deck/DeckText.hh"
#include "deck/Suggest.hh"

namespace gt::deck {

namespace {

//! "name", "name*N" or "N*name" (MAD-X order) -> (name, N); nullopt if malformed.
std::optional<std::pair<std::string, std::int64_t>> parse_line_entry(std::string_view text)
{
    std::string_view name = trim(text);
    std::int64_t count = 1;
    auto const whole = [](std::string_view s, std::int64_t& n) {
        auto const [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
        return !s.empty() && ec == std::errc() && end == s.data() + s.size();
    };
    if (auto const star = name.find('*'); star != std::string_view::npos) {
        std::string_view left = trim(name.substr(0, star)), right = trim(name.substr(star + 1));
        std::int64_t n = 0;
        if (whole(left, n) && !whole(right, n)) std::swap(left, right);
        if (!whole(right, count) || count < 1) return std::nullopt;
        name = left;
    }
    if (name.empty() || name.find('*') != std::string_view::npos) return std::nullopt;
    return std::pair(std::string(name), count);
}

}  // namespace

//! Reads [lattice]; returns the element names the tracked line reaches (for [output] checks).
std::set<std::string> read_lattice(DeckContext& ctx, toml::table const& t, DeckConfig& cfg)
{
    LatticeConfig& lat = cfg.lattice;
    std::string const path = "lattice";
    std::size_t const errors_before = ctx.error_count();
    static std::vector<std::string> const settings = {"use", "turns", "aperture", "radiation",
                                                      "merge_drifts", "turns_per_call"};
    struct Entry {
        std::string name;
        toml::node const* node;
        std::string key;
    };
    std::map<std::string, std::vector<Entry>> entries;
    std::map<std::string, toml::node const*> line_node;
    for (auto const& [k, v] : ctx.in_order(t)) {
        std::string const name(k->str());
        if (std::find(settings.begin(), settings.end(), name) != settings.end()) continue;
        std::string const line_key = join_key(path, name);
        auto const* a = v->as_array();
        if (!a) {
            ctx.error(ctx.where(*k, *v), line_key,
                      fmt::format("unknown key '{}'{}; a line is an array of element and line names", name,
                                  did_you_mean(name, settings)));
            continue;
        }
        if (ctx.element_names().count(name))
            ctx.error(ctx.where(*k, *v), line_key,
                      fmt::format("'{}' names both an element and a line", name));
        if (a->empty()) ctx.error(ctx.where(*k, *v), line_key, "a line needs at least one entry");
        std::vector<std::string> items;
        for (std::size_t i = 0; i < a->size(); ++i) {
            toml::node const& item = *a->get(i);
            std::string const item_key = fmt::format("{}[{}]", line_key, i);
            auto const* s = item.as_string();
            auto const parsed = s ? parse_line_entry(s->get()) : std::nullopt;
            if (!parsed) {
                ctx.error(ctx.where(item), item_key,
                          fmt::format("expected \"name\" or \"name*N\" (N a whole number >= 1), got {}",
                                      describe_node(item)));
                continue;
            }
            items.push_back(parsed->second == 1 ? parsed->first
                                                : fmt::format("{}*{}", parsed->first, parsed->second));
            entries[name].push_back(Entry{parsed->first, &item, item_key});
        }
        entries.try_emplace(name);
        line_node[name] = v;
        lat.lines.emplace_back(name, std::move(items));
        lat.line_where[name] = ctx.where(*k, *v);
    }

    // Every entry names an element or a line.
    std::vector<std::string> known;
    known.insert(known.end(), ctx.element_names().begin(), ctx.element_names().end());
    for (auto const& [name, items] : lat.lines) known.push_back(name);
    for (auto const& [line, items] : entries) {
        for (auto const& item : items) {
            if (ctx.element_names().count(item.name) || entries.count(item.name)) continue;
            ctx.error(ctx.where(*item.node), item.key,
                      fmt::format("'{}' is neither an element nor a line{}", item.name,
                                  did_you_mean(item.name, known)));
        }
    }

    // No line may contain itself: depth-first search, a back edge closes a cycle.
    std::map<std::string, int> state;  // 0 unseen, 1 on the stack, 2 done
    std::vector<std::string> stack;
    bool cyclic = false;
    std::function<void(std::string const&)> visit = [&](std::string const& line) {
        state[line] = 1;
        stack.push_back(line);
        for (auto const& item : entries[line]) {
            if (!entries.count(item.name)) continue;
            if (state[item.name] == 1) {
                auto const from = std::find(stack.begin(), stack.end(), item.name);
                std::vector<std::string> cycle(from, stack.end());
                cycle.push_back(item.name);
                ctx.error(ctx.where(*item.node), item.key,
                          fmt::format("line '{}' contains itself: {}", item.name, fmt::join(cycle, " -> ")));
                cyclic = true;
            } else if (state[item.name] == 0) {
                visit(item.name);
            }
        }
        stack.pop_back();
        state[line] = 2;
    };
    for (auto const& [name, items] : lat.lines)
        if (state[name] == 0) visit(name);

    if (toml::node const* n = t.get("turns")) {
        if (auto turns = ctx.integer_of(*n, "lattice.turns", Bound::at_least_one)) lat.turns = *turns;
    }
    if (auto radiation = ctx.choice_at(t, path, "radiation", {"off", "mean", "quantum"}, false))
        lat.radiation = *radiation;
    if (auto merge = ctx.bool_at(t, path, "merge_drifts")) {
        lat.merge_drifts = *merge;
        lat.merge_drifts_where = ctx.where(*t.get("merge_drifts"));
    }
    if (toml::node const* n = t.get("turns_per_call"); n && !n->is_string()) {
        if (auto k = ctx.integer_at(t, path, "turns_per_call", Bound::at_least_one, false)) lat.turns_per_call = *k;
    } else {
        ctx.choice_at(t, path, "turns_per_call", {"auto"}, false);  // "auto" or a misspelling named
    }
    if (auto const* ap = ctx.table_at(t, path, "aperture", false)) {
        std::string const ap_path = "lattice.aperture";
        ctx.check_keys(*ap, ap_path, {"shape", "half_x", "half_y"});
        if (auto shape = ctx.choice_at(*ap, ap_path, "shape", {"rectangle", "ellipse"}, true))
            lat.global_shape = *shape;
        if (auto hx = ctx.quantity_at(*ap, ap_path, "half_x", quantity::length, Bound::positive, true))
            lat.global_half_x = *hx;
        if (auto hy = ctx.quantity_at(*ap, ap_path, "half_y", quantity::length, Bound::positive, true))
            lat.global_half_y = *hy;
    }

    bool use_ok = false;
    if (toml::node const* n = t.get("use")) {
        if (auto use = ctx.string_of(*n, "lattice.use")) {
            lat.use = *use;
            if (entries.count(*use)) {
                use_ok = true;
            } else {
                std::vector<std::string> lines;
                for (auto const& [name, items] : lat.lines) lines.push_back(name);
                ctx.error(ctx.where(*n), "lattice.use",
                          ctx.element_names().count(*use)
                              ? fmt::format("'{}' is an element; use names a line of [lattice]", *use)
                              : fmt::format("no line named '{}'{}", *use, did_you_mean(*use, lines)));
            }
        }
    } else if (lat.lines.empty()) {
        ctx.error(ctx.where(t), "lattice",
                  "no line defined: add one, e.g. line = [\"D1\", \"QF\", \"D1\", \"QD\"]");
    } else {
        lat.use = entries.count("line") ? "line" : lat.lines.back().first;
        use_ok = true;
    }

    // Only a lattice without errors says reliably what is tracked ([output] checks against it).
    std::set<std::string> reached;
    if (use_ok && !cyclic && ctx.error_count() == errors_before) {
        std::function<void(std::string const&)> collect = [&](std::string const& line) {
            for (auto const& item : entries[line]) {
                if (entries.count(item.name))
                    collect(item.name);
                else
                    reached.insert(item.name);
            }
        };
        collect(lat.use);
    }
    return reached;
}

}  // namespace gt::deck
