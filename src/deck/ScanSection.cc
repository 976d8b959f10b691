// [scan]: the parameters of a scan, each a list of values or a range, and the scan's mode.
#include "deck/DeckSections.hh"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "deck/DeckText.hh"
#include "deck/NamedEntries.hh"
#include "deck/Suggest.hh"

namespace gt::deck {

namespace {

//! A value as a user reads it: strings without quotes.
std::string label_of(toml::node const& n, std::string const& text)
{
    if (auto const* s = n.as_string()) return s->get();
    return text;
}

//! A number with an optional unit: "50 MeV" -> (50, "MeV"); 2.0 -> (2, "").
std::optional<std::pair<double, std::string>> range_end(DeckContext& ctx, toml::node const& n,
                                                        std::string const& key)
{
    if (auto const* i = n.as_integer()) return std::pair(double(i->get()), std::string());
    if (auto const* f = n.as_floating_point(); f && std::isfinite(f->get()))
        return std::pair(f->get(), std::string());
    if (auto const* s = n.as_string()) {
        std::string_view const text = trim(s->get());
        double v = 0;
        auto const [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec == std::errc() && std::isfinite(v))
            return std::pair(v, std::string(trim(text.substr(std::size_t(end - text.data())))));
    }
    ctx.error(ctx.where(n), key,
              fmt::format("expected a number, or a string with a number and a unit (\"50 MeV\"), got {}",
                          describe_node(n)));
    return std::nullopt;
}

//! { from, to, count, log }: count values from `from` to `to`, both included, evenly spaced
//! (log = true: evenly in the logarithm), rounded to 12 significant digits. Ends with a unit give
//! values with that unit.
void read_scan_range(DeckContext& ctx, toml::table const& t, std::string const& key, ScanParameter& p)
{
    ctx.check_keys(t, key, {"from", "to", "count", "log"});
    std::optional<std::pair<double, std::string>> from, to;
    if (toml::node const* n = t.get("from"))
        from = range_end(ctx, *n, key + ".from");
    else
        ctx.missing(t, key, "from", "the first value of the range");
    if (toml::node const* n = t.get("to"))
        to = range_end(ctx, *n, key + ".to");
    else
        ctx.missing(t, key, "to", "the last value of the range");
    auto const count = ctx.integer_at(t, key, "count", Bound::at_least_one, true);
    bool log = false;
    if (toml::node const* n = t.get("log")) {
        if (auto b = ctx.bool_of(*n, key + ".log")) log = *b;
    }
    if (!from || !to || !count) return;
    if (from->second != to->second) {
        ctx.error(ctx.where(t), key,
                  fmt::format("give both ends of a range in one unit: from is in '{}', to in '{}'",
                              from->second.empty() ? "the key's default unit" : from->second,
                              to->second.empty() ? "the key's default unit" : to->second));
        return;
    }
    if (log && (from->first <= 0 || to->first <= 0)) {
        ctx.error(
            ctx.where(t), key,
            fmt::format("a log range needs ends > 0, got from = {} and to = {}", from->first, to->first));
        return;
    }
    if (*count > 1000000) {
        ctx.error(ctx.where(*t.get("count")), key + ".count",
                  fmt::format("{} values is too many for a scan", *count));
        return;
    }
    std::string const& unit = from->second;
    auto const n = static_cast<std::size_t>(*count);
    double const a = from->first, b = to->first;
    // Whole-number ends a whole number of steps apart give whole numbers (macroparticles, turns).
    bool const integers = !log && unit.empty() && t.get("from")->is_integer() && t.get("to")->is_integer() &&
                          (n == 1 || std::fmod(b - a, double(n - 1)) == 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        double v = a;
        if (n > 1) {
            double const f = double(i) / double(n - 1);
            v = log ? a * std::pow(b / a, f) : (a * double(n - 1 - i) + b * double(i)) / double(n - 1);
            if (i == n - 1) v = b;
            // 12 significant digits: 1.3, not 1.2999999999999998 (a change far below any tolerance).
            v = std::strtod(fmt::format("{:.12g}", v).c_str(), nullptr);
        }
        std::string text =
            integers ? fmt::format("{}", static_cast<std::int64_t>(std::llround(v))) : float_text(v);
        if (unit.empty()) {
            p.labels.push_back(text);
            p.toml.push_back(text);
        } else {
            std::string const label = fmt::format("{} {}", integers ? text : fmt::format("{}", v), unit);
            p.labels.push_back(label);
            p.toml.push_back(fmt::format("\"{}\"", escape_basic_string(label)));
        }
    }
}

//! The path names a deck section and tables that exist (the last key may be one left at its default).
bool check_scan_path(DeckContext& ctx, std::string const& key, SourceLocation const& at,
                     std::string const& diag_key, toml::table const& root)
{
    static std::vector<std::string> const beamline = {"run",          "beam",       "elements", "lattice",
                                                      "space_charge", "collective", "output",   "errors"};
    static std::vector<std::string> const detector = {"run",         "materials", "geometry", "field",
                                                      "propagation", "gun",       "physics",  "output"};
    toml::node const* kind = root.at_path("run.kind").node();
    bool const is_detector = kind && kind->is_string() && kind->as_string()->get() == "detector";
    auto const& sections = is_detector ? detector : beamline;
    auto const segments = split_key(key);
    if (std::any_of(segments.begin(), segments.end(), [](auto const& s) { return s.empty(); })) {
        ctx.error(at, diag_key, fmt::format("'{}' is not a key path such as \"elements.QF.k1\"", key));
        return false;
    }
    if (segments.front() == "scan") {
        ctx.error(at, diag_key, "the [scan] table cannot scan itself");
        return false;
    }
    if (std::find(sections.begin(), sections.end(), segments.front()) == sections.end()) {
        ctx.error(at, diag_key,
                  fmt::format("unknown key path '{}': no section [{}]{}", key, segments.front(),
                              did_you_mean(segments.front(), sections)));
        return false;
    }
    if (segments.size() == 1) {
        ctx.error(at, diag_key,
                  fmt::format("'{}' is a whole section: scan keys inside it, e.g. \"{}.KEY\"", key, key));
        return false;
    }
    toml::table const* t = &root;
    std::string path;
    for (std::size_t i = 0; i + 1 < segments.size(); ++i) {
        toml::node const* n = t->get(segments[i]);
        std::string const parent = path;
        path = join_key(path, segments[i]);
        if (!n) {
            std::vector<std::string> known;
            for (auto&& [kk, vv] : *t) known.emplace_back(kk.str());
            ctx.error(at, diag_key,
                      fmt::format("unknown key path '{}': {} has no '{}'{}", key,
                                  parent.empty() ? std::string("the deck") : fmt::format("[{}]", parent),
                                  segments[i], did_you_mean(segments[i], known)));
            return false;
        }
        if (is_named_array(*n)) {  // [[geometry.volume]]: the next segment names an entry
            if (i + 2 >= segments.size()) {
                ctx.error(at, diag_key,
                          fmt::format("'{}' is a whole entry of [[{}]]: scan keys inside it, e.g. \"{}.KEY\"",
                                      key, path, key));
                return false;
            }
            std::string why;
            t = named_entry(*n->as_array(), path, segments[i + 1], why);
            if (!t) {
                ctx.error(at, diag_key, fmt::format("unknown key path '{}': {}", key, why));
                return false;
            }
            path = join_key(path, segments[++i]);
            continue;
        }
        if (!n->is_table()) {
            ctx.error(
                at, diag_key,
                fmt::format("unknown key path '{}': '{}' is {}, not a table", key, path, describe_node(*n)));
            return false;
        }
        t = n->as_table();
    }
    return true;
}

void read_scan_entries(DeckContext& ctx, toml::table const& t, std::string const& prefix,
                       toml::table const& root, ScanConfig& scan)
{
    static std::vector<std::string> const range_keys = {"from", "to", "count", "log"};
    for (auto const& [k, v] : ctx.in_order(t)) {
        if (prefix.empty() && k->str() == "mode") continue;
        std::string const key = join_key(prefix, k->str());
        auto const* sub = v->as_table();
        bool const is_range = sub && std::any_of(range_keys.begin(), range_keys.end(),
                                                 [&](auto const& r) { return sub->contains(r); });
        if (sub && !is_range) {  // a dotted key written unquoted: scan.elements.QF.k1 = [...]
            read_scan_entries(ctx, *sub, key, root, scan);
            continue;
        }
        ScanParameter p;
        p.key = key;
        p.where = ctx.where(*k, *v);
        std::string const diag_key = join_key("scan", fmt::format("\"{}\"", key));
        if (std::any_of(scan.parameters.begin(), scan.parameters.end(),
                        [&](auto const& q) { return q.key == key; })) {
            ctx.error(p.where, diag_key, fmt::format("'{}' is scanned twice", key));
            continue;
        }
        bool const path_ok = check_scan_path(ctx, key, p.where, diag_key, root);
        std::vector<SourceLocation> value_where;
        if (auto const* a = v->as_array()) {
            if (a->empty()) ctx.error(p.where, diag_key, "an empty list of values: give at least one");
            for (std::size_t i = 0; i < a->size(); ++i) {
                toml::node const& item = *a->get(i);
                auto text = toml_text(item);
                if (!text) {
                    ctx.error(
                        ctx.where(item), fmt::format("{}[{}]", diag_key, i),
                        fmt::format("a scan value must be a number, string, boolean, array or table, got {}",
                                    describe_node(item)));
                    continue;
                }
                p.toml.push_back(*text);
                p.labels.push_back(label_of(item, *text));
                value_where.push_back(ctx.where(item));
            }
        } else if (is_range) {
            read_scan_range(ctx, *sub, diag_key, p);
            value_where.assign(p.labels.size(), p.where);
        } else {
            ctx.error(
                p.where, diag_key,
                fmt::format("expected a list of values [a, b, ...] or a range {{ from = a, to = b, count = n "
                            "}}, got {}",
                            describe_node(*v)));
            continue;
        }
        if (!path_ok || p.labels.empty()) continue;
        for (std::size_t i = 0; i < p.labels.size(); ++i)
            ctx.note_scan_value(scan_origin(key, i), value_where[i]);
        scan.parameters.push_back(std::move(p));
    }
}

}  // namespace

std::string scan_origin(std::string const& key, std::size_t value)
{
    return fmt::format("{}{}#{}", k_scan_prefix, key, value);
}

//! Reads [scan]: the mode, and each parameter (a key path, quoted or dotted) with its list or range.
void read_scan(DeckContext& ctx, toml::node const& node, toml::table const& root, ScanConfig& scan)
{
    ctx.clear_scan_values();
    scan.where = ctx.where(node);
    auto const* t = node.as_table();
    if (!t) {
        ctx.error(ctx.where(node), "scan",
                  fmt::format("expected a table [scan], got {}", describe_node(node)));
        return;
    }
    std::size_t const errors_before = ctx.error_count();
    if (auto mode = ctx.choice_at(*t, "scan", "mode", {"cartesian", "zip"}, false))
        scan.mode = *mode == "zip" ? ScanMode::zip : ScanMode::cartesian;
    read_scan_entries(ctx, *t, "", root, scan);
    if (ctx.error_count() != errors_before) return;
    if (scan.parameters.empty()) {
        ctx.error(ctx.where(node), "scan",
                  "a [scan] table needs at least one parameter, e.g. \"elements.QF.k1\" = [1.0, 1.2, 1.4]");
        return;
    }
    if (scan.mode == ScanMode::zip) {
        ScanParameter const& first = scan.parameters.front();
        for (auto const& p : scan.parameters) {
            if (p.labels.size() == first.labels.size()) continue;
            ctx.error(p.where, join_key("scan", p.key),
                      fmt::format(
                          "mode = \"zip\" needs lists of one length: '{}' has {} value{}, '{}' has {}", p.key,
                          p.labels.size(), p.labels.size() == 1 ? "" : "s", first.key, first.labels.size()));
        }
    } else {
        double points = 1;
        for (auto const& p : scan.parameters) points *= double(p.labels.size());
        if (points > 9.0e15)
            ctx.error(ctx.where(node), "scan",
                      fmt::format("the scan has {:.3g} points: too many to number", points));
    }
}

}  // namespace gt::deck
