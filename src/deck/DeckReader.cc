// Reading and checking decks: toml++ parses, this file checks every key against the schema and
// collects every problem before throwing one DeckError.
#include "deck/DeckReader.hh"

#include <toml++/toml.h>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "beam/Species.hh"
#include "deck/DeckError.hh"
#include "deck/DetectorSections.hh"
#include "deck/ElementSchema.hh"
#include "deck/Scan.hh"
#include "deck/Suggest.hh"
#include "deck/Units.hh"

namespace gt {

namespace {

// Locations of values that came from the command line carry this file-name prefix.
constexpr std::string_view k_set_prefix = "--set ";
// Values applied from [scan] carry this prefix; DeckParser::where() maps them to their line in [scan].
constexpr std::string_view k_scan_prefix = "\x1e[scan] ";

std::string join_key(std::string_view prefix, std::string_view key)
{
    return prefix.empty() ? std::string(key) : fmt::format("{}.{}", prefix, key);
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

std::string describe_node(toml::node const& n)
{
    switch (n.type()) {
        case toml::node_type::string:
            return fmt::format("a string (\"{}\")", n.as_string()->get());
        case toml::node_type::integer:
            return fmt::format("an integer ({})", n.as_integer()->get());
        case toml::node_type::floating_point:
            return fmt::format("a number ({})", n.as_floating_point()->get());
        case toml::node_type::boolean:
            return fmt::format("a boolean ({})", n.as_boolean()->get());
        case toml::node_type::array:
            return "an array";
        case toml::node_type::table:
            return "a table";
        case toml::node_type::date:
        case toml::node_type::time:
        case toml::node_type::date_time:
            return "a date/time";
        case toml::node_type::none:
            break;
    }
    return "nothing";
}

//! The value as the user wrote it, for "got ..." in range errors.
std::string written(toml::node const& n)
{
    if (auto const* s = n.as_string()) return fmt::format("\"{}\"", s->get());
    if (auto const* i = n.as_integer()) return fmt::format("{}", i->get());
    if (auto const* f = n.as_floating_point()) return fmt::format("{}", f->get());
    return describe_node(n);
}

std::string quoted_list(std::vector<std::string> const& names)
{
    std::string text;
    for (auto const& n : names) text += (text.empty() ? "" : ", ") + fmt::format("\"{}\"", n);
    return text;
}

template <class Range>
std::vector<std::string> to_strings(Range const& r)
{
    return std::vector<std::string>(r.begin(), r.end());
}

std::string escape_basic_string(std::string_view s)
{
    std::string out;
    for (char c : s) {
        if (c == '\\' || c == '"') out += '\\';
        out += c;
    }
    return out;
}

//! The most common syntax error in a deck is a quantity without quotes (length = 50 cm): say so.
std::string unquoted_unit_hint(std::string_view text, std::size_t line)
{
    std::size_t start = 0;
    for (std::size_t i = 1; i < line && start != std::string_view::npos; ++i) {
        start = text.find('\n', start);
        if (start != std::string_view::npos) ++start;
    }
    if (start == std::string_view::npos) return {};
    std::string_view l = text.substr(start, text.find('\n', start) - start);
    auto const eq = l.find('=');
    if (eq == std::string_view::npos) return {};
    std::string_view v = trim(l.substr(eq + 1));
    std::size_t i = 0;
    while (i < v.size() && (std::isdigit(static_cast<unsigned char>(v[i])) || std::strchr("+-.eE_", v[i])))
        ++i;
    if (i == 0 || i == v.size() || v[i] != ' ') return {};
    std::string_view const rest = trim(v.substr(i));
    if (rest.empty() || !std::isalpha(static_cast<unsigned char>(rest[0]))) return {};
    return fmt::format(" (a value with a unit is a string: write \"{}\")", trim(v.substr(0, v.find('#'))));
}

class DeckParser {
  public:
    DeckParser(std::string file) : file_(std::move(file)) {}

    struct Read {
        DeckConfig cfg;
        std::vector<Diagnostic> diagnostics;
    };

    static std::set<std::string> formatted(std::vector<Diagnostic> const& ds)
    {
        std::set<std::string> texts;
        for (auto const& d : ds) texts.insert(d.format());
        return texts;
    }

    //! One reading of the deck: TOML, then --set, then ([scan] into scan_out, or) the values of one
    //! scan point, then every check. A TOML syntax error throws at once.
    Read read_once(std::string const& text, std::vector<std::string> const& overrides,
                   std::vector<std::size_t> const* point, ScanConfig* scan_out,
                   ScanConfig const* scan = nullptr)
    {
        diagnostics_.clear();
        created_.clear();
        element_names_.clear();
        Read r;
        toml::table root;
        try {
            root = toml::parse(text, file_);
        } catch (toml::parse_error const& e) {
            auto const& b = e.source().begin;
            error({file_, static_cast<int>(b.line), static_cast<int>(b.column)}, "",
                  fmt::format("TOML syntax error: {}{}", e.description(), unquoted_unit_hint(text, b.line)));
            throw DeckError(std::move(diagnostics_));
        }
        for (auto const& o : overrides) apply_override(root, o);
        if (scan_out) {
            std::size_t const before = diagnostics_.size();
            if (toml::node const* n = root.get("scan")) read_scan(*n, root, *scan_out);
            scan_errors_ = diagnostics_.size() != before;
        }
        if (point && scan) {
            for (std::size_t k = 0; k < scan->parameters.size(); ++k) {
                ScanParameter const& p = scan->parameters[k];
                std::size_t const v = (*point)[k];
                apply_value(root, split_key(p.key), p.toml[v], scan_origin(p.key, v));
            }
        }
        read_root(root, r.cfg);
        r.diagnostics = std::move(diagnostics_);
        diagnostics_.clear();
        return r;
    }

    DeckConfig parse(std::string const& text, std::vector<std::string> const& overrides,
                     std::optional<std::uint64_t> scan_index)
    {
        ScanConfig scan;
        // The deck as written (with --set): its own problems, and the [scan] table.
        Read base = read_once(text, overrides, nullptr, &scan);
        std::set<std::string> const base_problems = formatted(base.diagnostics);
        std::vector<Diagnostic> problems;
        std::set<std::string> seen;
        auto const add = [&](Diagnostic d) {
            if (seen.insert(d.format()).second) problems.push_back(std::move(d));
        };
        auto const add_new = [&](SourceLocation const& at, std::string message) {
            Diagnostic d;
            d.where = at;
            d.key = "scan";
            d.message = std::move(message);
            add(std::move(d));
        };
        DeckConfig cfg;
        if (scan.empty() || scan_errors_) {
            for (auto& d : base.diagnostics) add(std::move(d));
            if (scan.empty() && scan_index && !scan_errors_)
                add_new(SourceLocation{file_, 0, 0},
                        fmt::format("--scan-index {}: the deck has no [scan] table", *scan_index));
            cfg = std::move(base.cfg);
        } else {
            // The scan's values are applied like overrides and read with every check of the file.
            // Without an index, every value of every parameter is read once, in the context of
            // point 0 (a zipped scan: every point). Problems that only a scan value causes, and that
            // are not located at that value, say which point showed them.
            std::vector<std::uint64_t> points;
            std::uint64_t const n = scan.size();
            if (scan_index) {
                if (*scan_index >= n)
                    add_new(scan.where, fmt::format("--scan-index {}: the scan has {} point{} (0 to {})",
                                                    *scan_index, n, n == 1 ? "" : "s", n - 1));
                else
                    points.push_back(*scan_index);
            } else if (scan.mode == ScanMode::zip) {
                for (std::uint64_t p = 0; p < n; ++p) points.push_back(p);
            } else {
                points.push_back(0);
                for (std::size_t k = 0; k < scan.parameters.size(); ++k) {
                    for (std::size_t v = 1; v < scan.parameters[k].labels.size(); ++v) {
                        std::vector<std::size_t> idx(scan.parameters.size(), 0);
                        idx[k] = v;
                        points.push_back(scan.point_of(idx));
                    }
                }
            }
            for (std::size_t i = 0; i < points.size(); ++i) {
                auto const values = scan.value_indices(points[i]);
                Read r = read_once(text, overrides, &values, nullptr, &scan);
                for (auto& d : r.diagnostics) {
                    // The same problem at each value of one parameter (an unknown key): say it once.
                    if (is_scan_location(d.where) && !seen.insert(d.key + ": " + d.message).second) continue;
                    if (!is_scan_location(d.where) && !base_problems.count(d.format())) {
                        if (!seen.insert(d.format()).second) continue;
                        d.message +=
                            fmt::format(" (at scan point {}: {})", points[i], scan.describe_point(points[i]));
                    }
                    add(std::move(d));
                }
                if (i == 0) cfg = std::move(r.cfg);
            }
            if (points.empty()) cfg = std::move(base.cfg);
        }
        cfg.path = file_;
        cfg.text = text;
        cfg.overrides = overrides;
        cfg.scan = scan;
        if (problems.empty()) {
            cfg.scan_index = scan_index;
            expand_output_file(cfg, problems);
        }
        if (!problems.empty()) {
            // Deck lines in order, then the command line's overrides.
            std::stable_sort(problems.begin(), problems.end(), [](Diagnostic const& a, Diagnostic const& b) {
                bool const ao = a.where.file.starts_with(k_set_prefix),
                           bo = b.where.file.starts_with(k_set_prefix);
                if (ao != bo) return !ao;
                if (a.where.line != b.where.line) return a.where.line < b.where.line;
                return a.where.column < b.where.column;
            });
            throw DeckError(std::move(problems));
        }
        return cfg;
    }

    // The helpers below are public for the detector sections (deck/DetectorSections.hh).
    // ---- locations and diagnostics ---------------------------------------------------------------

    SourceLocation where(toml::source_region const& src) const
    {
        if (!src.path) return {file_, 0, 0};
        if (src.path->starts_with(k_set_prefix)) return {*src.path, 0, 0};
        if (src.path->starts_with(k_scan_prefix)) {
            auto const it = scan_where_.find(*src.path);
            return it != scan_where_.end() ? it->second : SourceLocation{file_, 0, 0};
        }
        return {file_, static_cast<int>(src.begin.line), static_cast<int>(src.begin.column)};
    }
    SourceLocation where(toml::node const& n) const
    {
        if (n.source().path) return where(n.source());
        auto const it = created_.find(&n);
        return it != created_.end() ? SourceLocation{it->second, 0, 0} : SourceLocation{file_, 0, 0};
    }
    //! A key's own position when known (an unknown key is pointed at), else its value's.
    SourceLocation where(toml::key const& k, toml::node const& v) const
    {
        return k.source().path ? where(k.source()) : where(v);
    }

    void error(SourceLocation at, std::string key, std::string message)
    {
        diagnostics_.push_back(Diagnostic{std::move(at), std::move(key), std::move(message)});
    }

    //! Entries of a table in the order the user wrote them (toml++ keeps tables sorted by key).
    std::vector<std::pair<toml::key const*, toml::node const*>> in_order(toml::table const& t) const
    {
        std::vector<std::pair<toml::key const*, toml::node const*>> entries;
        for (auto&& [k, v] : t) entries.emplace_back(&k, &v);
        std::stable_sort(entries.begin(), entries.end(), [this](auto const& a, auto const& b) {
            auto const la = where(*a.first, *a.second), lb = where(*b.first, *b.second);
            bool const ao = la.file.starts_with(k_set_prefix), bo = lb.file.starts_with(k_set_prefix);
            if (ao != bo) return !ao;
            return std::pair(la.line, la.column) < std::pair(lb.line, lb.column);
        });
        return entries;
    }

    void check_keys(toml::table const& t, std::string const& path, std::vector<std::string> const& known)
    {
        for (auto&& [k, v] : t) {
            if (std::find(known.begin(), known.end(), k.str()) != known.end()) continue;
            error(where(k, v), join_key(path, k.str()),
                  fmt::format("unknown key '{}'{}", k.str(), did_you_mean(k.str(), known)));
        }
    }

    // ---- --set overrides -------------------------------------------------------------------------

    //! The value as TOML, or as a plain string when it is not TOML ("300 MeV", "fodo2").
    toml::table parse_override_value(std::string_view value, std::string const& origin)
    {
        try {
            toml::table t = toml::parse(fmt::format("v = {}", value), origin);
            if (t.size() == 1 && t.contains("v")) return t;
        } catch (toml::parse_error const&) {
        }
        return toml::parse(fmt::format("v = \"{}\"", escape_basic_string(value)), origin);
    }

    void apply_override(toml::table& root, std::string const& text)
    {
        std::string const origin = fmt::format("{}{}", k_set_prefix, text);
        SourceLocation const at{origin, 0, 0};
        auto const eq = text.find('=');
        if (eq == std::string::npos) {
            error(at, "", "expected KEY=VALUE, e.g. --set beam.kinetic_energy=\"300 MeV\"");
            return;
        }
        std::string_view const key = trim(std::string_view(text).substr(0, eq));
        std::string_view const value = trim(std::string_view(text).substr(eq + 1));
        std::vector<std::string> const segments = split_key(key);
        if (std::any_of(segments.begin(), segments.end(), [](auto const& s) { return s.empty(); })) {
            error(at, std::string(key), "expected a key path such as elements.QF.k1 before '='");
            return;
        }
        if (value.empty()) {
            error(at, std::string(key), "no value after '='");
            return;
        }
        apply_value(root, segments, value, origin);
    }

    static std::vector<std::string> split_key(std::string_view key)
    {
        std::vector<std::string> segments;
        for (std::size_t start = 0;;) {
            auto const dot = key.find('.', start);
            segments.emplace_back(trim(key.substr(start, dot == std::string_view::npos ? dot : dot - start)));
            if (dot == std::string_view::npos) break;
            start = dot + 1;
        }
        return segments;
    }

    //! Sets root.<segments> to the TOML value `value` (a plain string when it is not TOML), creating
    //! missing tables; `origin` is the source path of every node made (for where()).
    void apply_value(toml::table& root, std::vector<std::string> const& segments, std::string_view value,
                     std::string const& origin)
    {
        SourceLocation const at =
            where(toml::source_region{{1, 1}, {1, 1}, std::make_shared<std::string const>(origin)});
        std::string key;
        for (auto const& s : segments) key = join_key(key, s);
        auto const region = toml::source_region{{1, 1}, {1, 1}, std::make_shared<std::string const>(origin)};
        toml::table* t = &root;
        std::string path;
        for (std::size_t i = 0; i + 1 < segments.size(); ++i) {
            path = join_key(path, segments[i]);
            toml::node* n = t->get(segments[i]);
            if (!n) {
                t->insert(toml::key(segments[i], region), toml::table{});
                n = t->get(segments[i]);
                created_[n] = origin;
            }
            if (!n->is_table()) {
                error(at, key,
                      fmt::format("cannot set '{}': '{}' is {}, not a table", key, path, describe_node(*n)));
                return;
            }
            t = n->as_table();
        }
        toml::table parsed = parse_override_value(value, origin);
        parsed.get("v")->visit(
            [&](auto& v) { t->insert_or_assign(toml::key(segments.back(), region), std::move(v)); });
    }

    // ---- [scan] ----------------------------------------------------------------------------------

    static std::string scan_origin(std::string const& key, std::size_t value)
    {
        return fmt::format("{}{}#{}", k_scan_prefix, key, value);
    }

    bool is_scan_location(SourceLocation const& at) const
    {
        return std::any_of(scan_where_.begin(), scan_where_.end(), [&](auto const& e) {
            return e.second.file == at.file && e.second.line == at.line && e.second.column == at.column;
        });
    }

    //! A number as TOML text that stays a float ("2.0", not "2").
    static std::string float_text(double v)
    {
        std::string t = fmt::format("{}", v);
        if (t.find_first_of(".eEn") == std::string::npos) t += ".0";  // "inf" and "nan" contain 'n'
        return t;
    }

    //! A value as inline TOML text, to be read again when it is applied; nullopt for dates.
    static std::optional<std::string> toml_text(toml::node const& n)
    {
        if (auto const* s = n.as_string()) return fmt::format("\"{}\"", escape_basic_string(s->get()));
        if (auto const* i = n.as_integer()) return fmt::format("{}", i->get());
        if (auto const* f = n.as_floating_point()) return float_text(f->get());
        if (auto const* b = n.as_boolean()) return b->get() ? "true" : "false";
        if (auto const* a = n.as_array()) {
            std::string text = "[";
            for (std::size_t i = 0; i < a->size(); ++i) {
                auto item = toml_text(*a->get(i));
                if (!item) return std::nullopt;
                text += (i ? ", " : "") + *item;
            }
            return text + "]";
        }
        if (auto const* t = n.as_table()) {
            std::string text = "{";
            bool first = true;
            for (auto&& [k, v] : *t) {
                auto item = toml_text(v);
                if (!item) return std::nullopt;
                text += fmt::format("{} \"{}\" = {}", first ? "" : ",", escape_basic_string(k.str()), *item);
                first = false;
            }
            return text + " }";
        }
        return std::nullopt;
    }

    //! A value as a user reads it: strings without quotes.
    static std::string label_of(toml::node const& n, std::string const& text)
    {
        if (auto const* s = n.as_string()) return s->get();
        return text;
    }

    //! Reads [scan]: the mode, and each parameter (a key path, quoted or dotted) with its list or range.
    void read_scan(toml::node const& node, toml::table const& root, ScanConfig& scan)
    {
        scan_where_.clear();
        scan.where = where(node);
        auto const* t = node.as_table();
        if (!t) {
            error(where(node), "scan", fmt::format("expected a table [scan], got {}", describe_node(node)));
            return;
        }
        std::size_t const errors_before = diagnostics_.size();
        if (auto mode = choice_at(*t, "scan", "mode", {"cartesian", "zip"}, false))
            scan.mode = *mode == "zip" ? ScanMode::zip : ScanMode::cartesian;
        read_scan_entries(*t, "", root, scan);
        if (diagnostics_.size() != errors_before) return;
        if (scan.parameters.empty()) {
            error(where(node), "scan",
                  "a [scan] table needs at least one parameter, e.g. \"elements.QF.k1\" = [1.0, 1.2, 1.4]");
            return;
        }
        if (scan.mode == ScanMode::zip) {
            ScanParameter const& first = scan.parameters.front();
            for (auto const& p : scan.parameters) {
                if (p.labels.size() == first.labels.size()) continue;
                error(p.where, join_key("scan", p.key),
                      fmt::format(
                          "mode = \"zip\" needs lists of one length: '{}' has {} value{}, '{}' has {}", p.key,
                          p.labels.size(), p.labels.size() == 1 ? "" : "s", first.key, first.labels.size()));
            }
        } else {
            double points = 1;
            for (auto const& p : scan.parameters) points *= double(p.labels.size());
            if (points > 9.0e15)
                error(where(node), "scan",
                      fmt::format("the scan has {:.3g} points: too many to number", points));
        }
    }

    void read_scan_entries(toml::table const& t, std::string const& prefix, toml::table const& root,
                           ScanConfig& scan)
    {
        static std::vector<std::string> const range_keys = {"from", "to", "count", "log"};
        for (auto const& [k, v] : in_order(t)) {
            if (prefix.empty() && k->str() == "mode") continue;
            std::string const key = join_key(prefix, k->str());
            auto const* sub = v->as_table();
            bool const is_range = sub && std::any_of(range_keys.begin(), range_keys.end(),
                                                     [&](auto const& r) { return sub->contains(r); });
            if (sub && !is_range) {  // a dotted key written unquoted: scan.elements.QF.k1 = [...]
                read_scan_entries(*sub, key, root, scan);
                continue;
            }
            ScanParameter p;
            p.key = key;
            p.where = where(*k, *v);
            std::string const diag_key = join_key("scan", fmt::format("\"{}\"", key));
            if (std::any_of(scan.parameters.begin(), scan.parameters.end(),
                            [&](auto const& q) { return q.key == key; })) {
                error(p.where, diag_key, fmt::format("'{}' is scanned twice", key));
                continue;
            }
            bool const path_ok = check_scan_path(key, p.where, diag_key, root);
            std::vector<SourceLocation> value_where;
            if (auto const* a = v->as_array()) {
                if (a->empty()) error(p.where, diag_key, "an empty list of values: give at least one");
                for (std::size_t i = 0; i < a->size(); ++i) {
                    toml::node const& item = *a->get(i);
                    auto text = toml_text(item);
                    if (!text) {
                        error(where(item), fmt::format("{}[{}]", diag_key, i),
                              fmt::format(
                                  "a scan value must be a number, string, boolean, array or table, got {}",
                                  describe_node(item)));
                        continue;
                    }
                    p.toml.push_back(*text);
                    p.labels.push_back(label_of(item, *text));
                    value_where.push_back(where(item));
                }
            } else if (is_range) {
                read_scan_range(*sub, diag_key, p);
                value_where.assign(p.labels.size(), p.where);
            } else {
                error(p.where, diag_key,
                      fmt::format(
                          "expected a list of values [a, b, ...] or a range {{ from = a, to = b, count = n "
                          "}}, got {}",
                          describe_node(*v)));
                continue;
            }
            if (!path_ok || p.labels.empty()) continue;
            for (std::size_t i = 0; i < p.labels.size(); ++i)
                scan_where_[scan_origin(key, i)] = value_where[i];
            scan.parameters.push_back(std::move(p));
        }
    }

    //! The path names a deck section and tables that exist (the last key may be one left at its default).
    bool check_scan_path(std::string const& key, SourceLocation const& at, std::string const& diag_key,
                         toml::table const& root)
    {
        static std::vector<std::string> const beamline = {"run",     "beam",         "elements",
                                                          "lattice", "space_charge", "output"};
        static std::vector<std::string> const detector = {"run",         "materials", "geometry", "field",
                                                          "propagation", "gun",       "physics",  "output"};
        toml::node const* kind = root.at_path("run.kind").node();
        bool const is_detector = kind && kind->is_string() && kind->as_string()->get() == "detector";
        auto const& sections = is_detector ? detector : beamline;
        auto const segments = split_key(key);
        if (std::any_of(segments.begin(), segments.end(), [](auto const& s) { return s.empty(); })) {
            error(at, diag_key, fmt::format("'{}' is not a key path such as \"elements.QF.k1\"", key));
            return false;
        }
        if (segments.front() == "scan") {
            error(at, diag_key, "the [scan] table cannot scan itself");
            return false;
        }
        if (std::find(sections.begin(), sections.end(), segments.front()) == sections.end()) {
            error(at, diag_key,
                  fmt::format("unknown key path '{}': no section [{}]{}", key, segments.front(),
                              did_you_mean(segments.front(), sections)));
            return false;
        }
        if (segments.size() == 1) {
            error(at, diag_key,
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
                error(at, diag_key,
                      fmt::format("unknown key path '{}': {} has no '{}'{}", key,
                                  parent.empty() ? std::string("the deck") : fmt::format("[{}]", parent),
                                  segments[i], did_you_mean(segments[i], known)));
                return false;
            }
            if (!n->is_table()) {
                error(at, diag_key,
                      fmt::format("unknown key path '{}': '{}' is {}, not a table", key, path,
                                  describe_node(*n)));
                return false;
            }
            t = n->as_table();
        }
        return true;
    }

    //! A number with an optional unit: "50 MeV" -> (50, "MeV"); 2.0 -> (2, "").
    std::optional<std::pair<double, std::string>> range_end(toml::node const& n, std::string const& key)
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
        error(where(n), key,
              fmt::format("expected a number, or a string with a number and a unit (\"50 MeV\"), got {}",
                          describe_node(n)));
        return std::nullopt;
    }

    //! { from, to, count, log }: count values from `from` to `to`, both included, evenly spaced
    //! (log = true: evenly in the logarithm), rounded to 12 significant digits. Ends with a unit give
    //! values with that unit.
    void read_scan_range(toml::table const& t, std::string const& key, ScanParameter& p)
    {
        check_keys(t, key, {"from", "to", "count", "log"});
        std::optional<std::pair<double, std::string>> from, to;
        if (toml::node const* n = t.get("from"))
            from = range_end(*n, key + ".from");
        else
            missing(t, key, "from", "the first value of the range");
        if (toml::node const* n = t.get("to"))
            to = range_end(*n, key + ".to");
        else
            missing(t, key, "to", "the last value of the range");
        auto const count = integer_at(t, key, "count", Bound::at_least_one, true);
        bool log = false;
        if (toml::node const* n = t.get("log")) {
            if (auto b = bool_of(*n, key + ".log")) log = *b;
        }
        if (!from || !to || !count) return;
        if (from->second != to->second) {
            error(where(t), key,
                  fmt::format("give both ends of a range in one unit: from is in '{}', to in '{}'",
                              from->second.empty() ? "the key's default unit" : from->second,
                              to->second.empty() ? "the key's default unit" : to->second));
            return;
        }
        if (log && (from->first <= 0 || to->first <= 0)) {
            error(
                where(t), key,
                fmt::format("a log range needs ends > 0, got from = {} and to = {}", from->first, to->first));
            return;
        }
        if (*count > 1000000) {
            error(where(*t.get("count")), key + ".count",
                  fmt::format("{} values is too many for a scan", *count));
            return;
        }
        std::string const& unit = from->second;
        auto const n = static_cast<std::size_t>(*count);
        double const a = from->first, b = to->first;
        // Whole-number ends a whole number of steps apart give whole numbers (macroparticles, turns).
        bool const integers = !log && unit.empty() && t.get("from")->is_integer() &&
                              t.get("to")->is_integer() && (n == 1 || std::fmod(b - a, double(n - 1)) == 0.0);
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

    //! Expands output.file ({index}, {name}, scanned keys); checks that scan points write distinct files.
    void expand_output_file(DeckConfig& cfg, std::vector<Diagnostic>& problems) const
    {
        OutputConfig& out = cfg.output;
        if (!cfg.scan.empty() && !output_file_given_) out.file = cfg.run.name + "_{index}.h5";
        out.file_template = out.file;
        std::string const key = "output.file";
        try {
            if (cfg.scan.empty()) {
                out.file = expand_output_name(out.file_template, cfg.run.name, cfg.scan, std::nullopt);
                return;
            }
            std::uint64_t const n = cfg.scan.size();
            out.file =
                expand_output_name(out.file_template, cfg.run.name, cfg.scan, cfg.scan_index.value_or(0));
            if (!cfg.scan_index) out.file = out.file_template;
            if (!output_name_uses_scan(out.file_template)) {
                problems.push_back(
                    {out.where, key,
                     fmt::format("every point of the scan would write '{}': put {{index}} (or the "
                                 "scanned keys) in output.file, e.g. \"{}_{{index}}.h5\"",
                                 out.file_template, cfg.run.name)});
                return;
            }
            if (n > 100000) return;  // too many to compare one by one: {index} is the usual case
            std::map<std::string, std::uint64_t> names;
            for (std::uint64_t p = 0; p < n; ++p) {
                std::string name = expand_output_name(out.file_template, cfg.run.name, cfg.scan, p);
                auto const [it, fresh] = names.emplace(std::move(name), p);
                if (!fresh) {
                    problems.push_back(
                        {out.where, key,
                         fmt::format("scan points {} and {} would both write '{}': add {{index}} "
                                     "to output.file",
                                     it->second, p, it->first)});
                    return;
                }
            }
        } catch (ScanError const& e) {
            problems.push_back({out.where, key, e.what()});
        }
    }

    // ---- typed values ----------------------------------------------------------------------------

    std::optional<double> quantity_of(toml::node const& n, std::string const& key, QuantityKind const& kind,
                                      Bound bound)
    {
        std::optional<double> v;
        if (auto const* i = n.as_integer()) {
            v = convert_bare(static_cast<double>(i->get()), kind);
        } else if (auto const* f = n.as_floating_point()) {
            if (!std::isfinite(f->get())) {
                error(where(n), key, fmt::format("expected {}, got {}", kind.what, f->get()));
                return std::nullopt;
            }
            v = convert_bare(f->get(), kind);
        } else if (auto const* s = n.as_string()) {
            try {
                v = convert_quantity(s->get(), kind);
            } catch (UnitError const& e) {
                error(where(n), key, e.what());
                return std::nullopt;
            }
        } else {
            error(where(n), key,
                  kind.dimension == Dimension{}
                      ? fmt::format("expected a number, got {}", describe_node(n))
                      : fmt::format("expected {} (a number in {}, or a string with a unit: {}), got {}",
                                    kind.what, kind.unit, kind.examples, describe_node(n)));
            return std::nullopt;
        }
        if (!within_bound(*v, bound)) {
            error(where(n), key,
                  fmt::format("expected {} {}, got {}", kind.what, bound_text(bound), written(n)));
            return std::nullopt;
        }
        return v;
    }

    std::optional<std::int64_t> integer_of(toml::node const& n, std::string const& key, Bound bound)
    {
        std::int64_t v = 0;
        if (auto const* i = n.as_integer()) {
            v = i->get();
        } else if (auto const* f = n.as_floating_point(); f && std::isfinite(f->get()) &&
                                                          f->get() == std::floor(f->get()) &&
                                                          std::abs(f->get()) < 9.0e15) {
            v = static_cast<std::int64_t>(f->get());  // 1e5 is a whole number, written as a float
        } else {
            error(where(n), key, fmt::format("expected a whole number, got {}", describe_node(n)));
            return std::nullopt;
        }
        if (!within_bound(static_cast<double>(v), bound)) {
            error(where(n), key, fmt::format("expected a whole number {}, got {}", bound_text(bound), v));
            return std::nullopt;
        }
        return v;
    }

    std::optional<std::string> string_of(toml::node const& n, std::string const& key)
    {
        if (auto const* s = n.as_string()) {
            if (!s->get().empty()) return s->get();
            error(where(n), key, "expected a non-empty string");
            return std::nullopt;
        }
        error(where(n), key, fmt::format("expected a string, got {}", describe_node(n)));
        return std::nullopt;
    }

    std::optional<std::string> choice_of(toml::node const& n, std::string const& key,
                                         std::vector<std::string> const& choices)
    {
        auto const* s = n.as_string();
        if (s && std::find(choices.begin(), choices.end(), s->get()) != choices.end()) return s->get();
        error(where(n), key,
              fmt::format("expected one of {}; got {}{}", quoted_list(choices), describe_node(n),
                          s ? did_you_mean(s->get(), choices) : std::string()));
        return std::nullopt;
    }

    std::optional<bool> bool_of(toml::node const& n, std::string const& key)
    {
        if (auto const* b = n.as_boolean()) return b->get();
        error(where(n), key, fmt::format("expected true or false, got {}", describe_node(n)));
        return std::nullopt;
    }

    //! An array of bare numbers (integers or floats).
    std::optional<std::vector<double>> numbers_of(toml::node const& n, std::string const& key)
    {
        auto const* a = n.as_array();
        if (!a) {
            error(where(n), key, fmt::format("expected an array of numbers, got {}", describe_node(n)));
            return std::nullopt;
        }
        std::vector<double> values;
        bool ok = true;
        for (std::size_t i = 0; i < a->size(); ++i) {
            toml::node const& e = *a->get(i);
            if (auto const* in = e.as_integer()) {
                values.push_back(static_cast<double>(in->get()));
            } else if (auto const* f = e.as_floating_point(); f && std::isfinite(f->get())) {
                values.push_back(f->get());
            } else {
                error(where(e), fmt::format("{}[{}]", key, i),
                      fmt::format("expected a number, got {}", describe_node(e)));
                ok = false;
            }
        }
        return ok ? std::optional(values) : std::nullopt;
    }

    //! A sub-table, or nullptr (with a diagnostic when it is there but not a table, or required).
    toml::table const* table_at(toml::table const& parent, std::string const& parent_path,
                                std::string_view key, bool required)
    {
        toml::node const* n = parent.get(key);
        std::string const path = join_key(parent_path, key);
        if (!n) {
            if (required) {
                SourceLocation at = parent_path.empty() ? SourceLocation{file_, 0, 0} : where(parent);
                error(at, path, fmt::format("missing section [{}]", path));
            }
            return nullptr;
        }
        if (!n->is_table()) {
            error(where(*n), path, fmt::format("expected a table [{}], got {}", path, describe_node(*n)));
            return nullptr;
        }
        return n->as_table();
    }

    void missing(toml::table const& t, std::string const& path, std::string_view key, std::string_view what)
    {
        error(where(t), join_key(path, key), fmt::format("missing required key '{}' ({})", key, what));
    }

    //! Optional-or-required quantity at t[key].
    std::optional<double> quantity_at(toml::table const& t, std::string const& path, std::string_view key,
                                      QuantityKind const& kind, Bound bound, bool required)
    {
        if (toml::node const* n = t.get(key)) return quantity_of(*n, join_key(path, key), kind, bound);
        if (required) missing(t, path, key, fmt::format("{}, in {}", kind.what, kind.unit));
        return std::nullopt;
    }

    std::optional<std::int64_t> integer_at(toml::table const& t, std::string const& path,
                                           std::string_view key, Bound bound, bool required)
    {
        if (toml::node const* n = t.get(key)) return integer_of(*n, join_key(path, key), bound);
        if (required) missing(t, path, key, fmt::format("a whole number {}", bound_text(bound)));
        return std::nullopt;
    }

    std::optional<std::string> choice_at(toml::table const& t, std::string const& path, std::string_view key,
                                         std::vector<std::string> const& choices, bool required)
    {
        if (toml::node const* n = t.get(key)) return choice_of(*n, join_key(path, key), choices);
        if (required) missing(t, path, key, fmt::format("one of {}", quoted_list(choices)));
        return std::nullopt;
    }

  private:
    // ---- sections --------------------------------------------------------------------------------

    void read_root(toml::table const& root, DeckConfig& cfg)
    {
        if (auto const* run = table_at(root, "", "run", false)) read_run(*run, cfg);
        if (cfg.run.name.empty()) cfg.run.name = std::filesystem::path(file_).stem().string();
        if (cfg.run.kind == "detector") {
            detector_deck::read_detector_sections(*this, root, cfg);
            return;
        }

        static std::vector<std::string> const sections = {"run",          "beam",   "elements", "lattice",
                                                          "space_charge", "output", "scan"};
        static std::vector<std::string> const detector_sections = {"materials",   "geometry", "field",
                                                                   "propagation", "gun",      "physics"};
        for (auto&& [k, v] : root) {
            if (std::find(sections.begin(), sections.end(), k.str()) != sections.end()) continue;
            if (std::find(detector_sections.begin(), detector_sections.end(), k.str()) !=
                detector_sections.end()) {
                error(where(k, v), std::string(k.str()),
                      fmt::format(
                          "[{}] belongs to detector decks (kind = \"detector\"); this is a beamline deck",
                          k.str()));
            } else {
                error(where(k, v), std::string(k.str()),
                      fmt::format("unknown section '{}'{}", k.str(), did_you_mean(k.str(), sections)));
            }
        }
        if (auto const* beam = table_at(root, "", "beam", true)) read_beam(*beam, cfg.beam);
        if (auto const* elements = table_at(root, "", "elements", true)) read_elements(*elements, cfg);
        std::set<std::string> tracked;
        if (auto const* lattice = table_at(root, "", "lattice", true)) tracked = read_lattice(*lattice, cfg);
        if (auto const* sc = table_at(root, "", "space_charge", false)) read_space_charge(*sc, cfg);
        read_output(table_at(root, "", "output", false), cfg, tracked);
    }

    void read_run(toml::table const& t, DeckConfig& cfg)
    {
        std::string const path = "run";
        check_keys(t, path, {"kind", "name", "seed", "backend", "track_slots"});
        if (auto kind = choice_at(t, path, "kind", {"beamline", "detector"}, false)) cfg.run.kind = *kind;
        if (toml::node const* n = t.get("track_slots")) {
            if (cfg.run.kind != "detector") {
                error(where(*n), "run.track_slots",
                      "'track_slots' is only used by detector decks (kind = \"detector\")");
            } else if (auto slots = integer_of(*n, "run.track_slots", Bound::at_least_one)) {
                cfg.detector.track_slots = static_cast<std::uint64_t>(*slots);
            }
        }
        if (toml::node const* n = t.get("name")) {
            if (auto name = string_of(*n, "run.name")) cfg.run.name = *name;
        }
        if (auto seed = integer_at(t, path, "seed", Bound::non_negative, false))
            cfg.run.seed = static_cast<std::uint64_t>(*seed);
        if (auto backend = choice_at(t, path, "backend", {"auto", "cpu", "gpu"}, false)) {
            cfg.run.backend = *backend == "cpu"   ? BackendChoice::cpu
                              : *backend == "gpu" ? BackendChoice::gpu
                                                  : BackendChoice::automatic;
        }
    }

    void read_species(toml::table const& t, BeamConfig& beam, bool& species_ok)
    {
        std::string const path = "beam";
        species_ok = false;
        std::vector<std::string> names = species_names();
        names.emplace_back("ion");
        auto particle = choice_at(t, path, "particle", names, true);
        if (!particle) return;
        static constexpr std::array<std::string_view, 4> ion_keys = {"mass_number", "charge_state", "mass",
                                                                     "charge"};
        if (*particle != "ion") {
            for (auto key : ion_keys) {
                if (toml::node const* n = t.get(key))
                    error(where(*n), join_key(path, key),
                          fmt::format("'{}' is only used with particle = \"ion\" (particle is \"{}\")", key,
                                      *particle));
            }
            beam.species = *find_species(*particle);
            species_ok = true;
            return;
        }
        bool const by_number = t.contains("mass_number") || t.contains("charge_state");
        bool const by_mass = t.contains("mass") || t.contains("charge");
        if (by_number && by_mass) {
            error(where(t), "beam.mass",
                  "give either mass_number and charge_state, or mass and charge, for an ion (not both)");
            return;
        }
        if (!by_number && !by_mass) {
            error(where(*t.get("particle")), "beam.particle",
                  "particle = \"ion\" needs mass_number and charge_state, or mass and charge");
            return;
        }
        if (by_number) {
            auto a = integer_at(t, path, "mass_number", Bound::at_least_one, true);
            auto q = integer_at(t, path, "charge_state", Bound::any, true);
            if (q && *q == 0)
                error(where(*t.get("charge_state")), "beam.charge_state", "an ion needs a charge state != 0");
            if (a && q && *q != 0) {
                if (*q > *a) {
                    error(where(*t.get("charge_state")), "beam.charge_state",
                          fmt::format("charge state {} exceeds the mass number {}", *q, *a));
                    return;
                }
                beam.species = make_ion(static_cast<int>(*a), static_cast<int>(*q));
                species_ok = true;
            }
            return;
        }
        auto m = quantity_at(t, path, "mass", quantity::rest_energy, Bound::positive, true);
        auto q = quantity_at(t, path, "charge", quantity::dimensionless, Bound::any, true);
        if (q && *q == 0)
            error(where(*t.get("charge")), "beam.charge", "an ion needs a charge != 0 (in units of e)");
        if (m && q && *q != 0) {
            beam.species = make_ion(*m, *q);
            species_ok = true;
        }
    }

    void read_energy(toml::table const& t, BeamConfig& beam, bool species_ok)
    {
        static std::vector<std::string> const keys = {"kinetic_energy", "total_energy", "momentum"};
        std::vector<std::string> given;
        for (auto const& k : keys)
            if (t.contains(k)) given.push_back(k);
        if (given.empty()) {
            error(where(t), "beam.kinetic_energy",
                  "missing the reference energy: give one of kinetic_energy, total_energy or momentum");
            return;
        }
        if (given.size() > 1) {
            for (std::size_t i = 1; i < given.size(); ++i)
                error(where(*t.get(given[i])), join_key("beam", given[i]),
                      fmt::format("give only one of kinetic_energy, total_energy, momentum (also given: {})",
                                  given[0]));
            return;
        }
        std::string const& key = given[0];
        QuantityKind const& kind = key == "momentum" ? quantity::momentum : quantity::energy;
        auto v = quantity_at(t, "beam", key, kind, Bound::positive, true);
        if (!v || !species_ok) return;
        double const m = beam.species.mass_mev;
        if (key == "kinetic_energy") {
            beam.kinetic_energy_mev = *v;
        } else if (key == "total_energy") {
            if (*v <= m) {
                error(where(*t.get(key)), "beam.total_energy",
                      fmt::format("the total energy {} MeV must exceed the rest energy {} MeV", *v, m));
                return;
            }
            beam.kinetic_energy_mev = *v - m;
        } else {
            // T = sqrt(p^2 + m^2) - m, written without the cancellation at low momentum.
            beam.kinetic_energy_mev = *v * *v / (std::sqrt(*v * *v + m * m) + m);
        }
    }

    void read_beam(toml::table const& t, BeamConfig& beam)
    {
        std::string const path = "beam";
        beam.where = where(t);
        check_keys(t, path,
                   {"particle", "mass_number", "charge_state", "mass", "charge", "kinetic_energy",
                    "total_energy", "momentum", "bunch_charge", "macroparticles", "distribution", "truncate",
                    "file", "twiss", "sigma"});
        bool species_ok = false;
        read_species(t, beam, species_ok);
        read_energy(t, beam, species_ok);
        if (auto q = quantity_at(t, path, "bunch_charge", quantity::charge, Bound::non_negative, false))
            beam.bunch_charge = *q;
        if (auto n = integer_at(t, path, "macroparticles", Bound::at_least_one, true))
            beam.macroparticles = static_cast<std::uint64_t>(*n);
        if (auto d = choice_at(t, path, "distribution",
                               {"gaussian", "kv", "waterbag", "semigaussian", "kurth", "file"}, false))
            beam.distribution = *d;
        if (auto c = quantity_at(t, path, "truncate", quantity::dimensionless, Bound::non_negative, false))
            beam.truncate = *c;

        bool const from_file = beam.distribution == "file";
        if (toml::node const* f = t.get("file")) {
            if (!from_file) {
                error(where(*f), "beam.file", "'file' is only used with distribution = \"file\"");
            } else if (auto name = string_of(*f, "beam.file")) {
                beam.file = *name;
            }
        } else if (from_file) {
            missing(t, path, "file",
                    "the openPMD HDF5 file to read particles from, for distribution = \"file\"");
        }

        toml::table const* twiss = table_at(t, path, "twiss", false);
        toml::table const* sigma = table_at(t, path, "sigma", false);
        if (from_file) {
            for (auto const* sub : {twiss, sigma})
                if (sub)
                    error(where(*sub), sub == twiss ? "beam.twiss" : "beam.sigma",
                          "not used with distribution = \"file\" (the particles come from the file)");
            return;
        }
        if (twiss && sigma) {
            error(where(*sigma), "beam.sigma", "give either [beam.twiss] or [beam.sigma], not both");
            return;
        }
        if (twiss)
            read_twiss(*twiss, beam);
        else if (sigma)
            read_sigma(*sigma, beam);
        else if (!t.contains("twiss") && !t.contains("sigma"))
            error(where(t), "beam.twiss", "missing the beam's shape: add [beam.twiss] (or [beam.sigma])");
    }

    void read_twiss(toml::table const& t, BeamConfig& beam)
    {
        std::string const path = "beam.twiss";
        check_keys(t, path,
                   {"beta_x", "alpha_x", "emittance_x", "beta_y", "alpha_y", "emittance_y", "sigma_t",
                    "sigma_pt", "chirp"});
        auto plane = [&](TwissPlane& p, std::string_view axis) {
            if (auto b = quantity_at(t, path, fmt::format("beta_{}", axis), quantity::length, Bound::positive,
                                     true))
                p.beta = *b;
            if (auto a = quantity_at(t, path, fmt::format("alpha_{}", axis), quantity::dimensionless,
                                     Bound::any, false))
                p.alpha = *a;
            if (auto e = quantity_at(t, path, fmt::format("emittance_{}", axis), quantity::emittance,
                                     Bound::non_negative, true))
                p.emittance = *e;
        };
        plane(beam.x, "x");
        plane(beam.y, "y");
        if (auto v = quantity_at(t, path, "sigma_t", quantity::path_length, Bound::non_negative, false))
            beam.sigma_t = *v;
        if (auto v = quantity_at(t, path, "sigma_pt", quantity::dimensionless, Bound::non_negative, false))
            beam.sigma_pt = *v;
        if (auto v = quantity_at(t, path, "chirp", quantity::per_length, Bound::any, false)) beam.chirp = *v;
    }

    void read_sigma(toml::table const& t, BeamConfig& beam)
    {
        std::string const path = "beam.sigma";
        check_keys(t, path, {"matrix"});
        toml::node const* n = t.get("matrix");
        if (!n) {
            missing(t, path, "matrix", "a 6x6 array of numbers: the second moments of (x, px, y, py, t, pt)");
            return;
        }
        std::string const key = "beam.sigma.matrix";
        auto const* rows = n->as_array();
        if (!rows || rows->size() != 6) {
            error(where(*n), key,
                  fmt::format("expected 6 rows of 6 numbers, got {}",
                              rows ? fmt::format("{} rows", rows->size()) : describe_node(*n)));
            return;
        }
        std::array<double, 36> m{};
        bool ok = true;
        for (std::size_t i = 0; i < 6; ++i) {
            toml::node const& row = *rows->get(i);
            std::string const row_key = fmt::format("{}[{}]", key, i);
            auto const* r = row.as_array();
            if (!r || r->size() != 6) {
                error(where(row), row_key,
                      fmt::format("expected a row of 6 numbers, got {}",
                                  r ? fmt::format("{} entries", r->size()) : describe_node(row)));
                ok = false;
                continue;
            }
            if (auto values = numbers_of(row, row_key)) {
                for (std::size_t j = 0; j < 6; ++j) m[6 * i + j] = (*values)[j];
            } else {
                ok = false;
            }
        }
        if (!ok) return;
        // Symmetry, to rounding: a 6x6 covariance written by hand or by a script.
        int asymmetric = 0;
        std::string first;
        for (std::size_t i = 0; i < 6; ++i) {
            for (std::size_t j = i + 1; j < 6; ++j) {
                double const a = m[6 * i + j], b = m[6 * j + i];
                if (std::abs(a - b) > 1e-12 * std::max(std::abs(a), std::abs(b))) {
                    if (asymmetric++ == 0)
                        first = fmt::format("matrix[{}][{}] = {} but matrix[{}][{}] = {}", i, j, a, j, i, b);
                }
            }
        }
        if (asymmetric > 0) {
            error(where(*n), key,
                  fmt::format("the second-moment matrix must be symmetric: {}{}", first,
                              asymmetric > 1 ? fmt::format(" ({} more pairs differ)", asymmetric - 1) : ""));
            return;
        }
        if (auto why = not_positive_semidefinite(m)) {
            error(where(*n), key,
                  fmt::format("the second-moment matrix is not positive semi-definite: {}", *why));
            return;
        }
        beam.sigma_matrix = m;
    }

    //! Why a symmetric matrix is not a covariance, or nullopt. Works on the correlation matrix, so
    //! that entries of different units (m^2, rad^2) do not upset the tolerance.
    static std::optional<std::string> not_positive_semidefinite(std::array<double, 36> const& m)
    {
        std::array<double, 6> scale{};
        for (std::size_t i = 0; i < 6; ++i) {
            double const d = m[7 * i];
            if (d < 0) return fmt::format("the variance matrix[{}][{}] = {} is negative", i, i, d);
            scale[i] = d > 0 ? 1.0 / std::sqrt(d) : 0.0;
            for (std::size_t j = 0; j < 6; ++j)
                if (d == 0 && m[6 * i + j] != 0)
                    return fmt::format(
                        "matrix[{}][{}] = {} is non-zero although the variance matrix[{}][{}] is 0", i, j,
                        m[6 * i + j], i, i);
        }
        double const tolerance = 1e-10;
        std::array<double, 36> l{};
        for (std::size_t j = 0; j < 6; ++j) {
            double d = m[7 * j] * scale[j] * scale[j];
            for (std::size_t k = 0; k < j; ++k) d -= l[6 * j + k] * l[6 * j + k];
            if (d < -tolerance) return fmt::format("Cholesky pivot {} is {:.3g} < 0", j, d);
            l[7 * j] = d > tolerance ? std::sqrt(d) : 0.0;
            for (std::size_t i = j + 1; i < 6; ++i) {
                double v = m[6 * i + j] * scale[i] * scale[j];
                for (std::size_t k = 0; k < j; ++k) v -= l[6 * i + k] * l[6 * j + k];
                if (l[7 * j] == 0.0) {
                    if (std::abs(v) > 1e-8)
                        return fmt::format("rows {} and {} are inconsistent (correlation > 1)", j, i);
                } else {
                    l[6 * i + j] = v / l[7 * j];
                }
            }
        }
        return std::nullopt;
    }

    void read_elements(toml::table const& t, DeckConfig& cfg)
    {
        for (auto const& [k, v] : in_order(t)) {
            std::string const name(k->str());
            std::string const path = join_key("elements", name);
            auto const* et = v->as_table();
            if (!et) {
                element_names_.insert(name);
                error(where(*k, *v), path,
                      fmt::format(
                          "expected an element table such as {{ type = \"drift\", length = 1.0 }}, got {}",
                          describe_node(*v)));
                continue;
            }
            element_names_.insert(name);
            ElementConfig e;
            e.name = name;
            e.where = where(*k, *v);
            if (read_element(*et, path, e)) cfg.elements.push_back(std::move(e));
        }
    }

    bool read_element(toml::table const& t, std::string const& path, ElementConfig& e)
    {
        auto const type = choice_at(t, path, "type", element_type_names(), true);
        if (!type) return false;
        e.type = *type;
        ElementSpec const& spec = *find_element_spec(*type);
        std::vector<std::string> known;
        for (auto const& p : common_element_params()) known.emplace_back(p.key);
        for (auto const& p : spec.params) known.emplace_back(p.key);
        check_keys(t, path, known);
        bool ok = true;
        for (auto const& p : common_element_params())
            if (p.key != "type") ok = read_param(t, path, p, spec, e) && ok;
        for (auto const& p : spec.params) ok = read_param(t, path, p, spec, e) && ok;
        return ok;
    }

    bool read_param(toml::table const& t, std::string const& path, ParamSpec const& p,
                    ElementSpec const& spec, ElementConfig& e)
    {
        std::string const key(p.key);
        toml::node const* n = t.get(p.key);
        if (!n) {
            if (p.required) {
                std::string const what = p.type == ParamType::choice
                                             ? fmt::format("one of {}", quoted_list(to_strings(p.choices)))
                                             : fmt::format("{}, in {}", p.kind->what, p.kind->unit);
                error(where(t), join_key(path, key),
                      fmt::format("a {} needs '{}' ({})", spec.type, key, what));
                return false;
            }
            return true;
        }
        std::string const full = join_key(path, key);
        switch (p.type) {
            case ParamType::number: {
                auto const v = quantity_of(*n, full, *p.kind, p.bound);
                if (v) e.values[key] = *v;
                return v.has_value();
            }
            case ParamType::integer: {
                auto const v = integer_of(*n, full, p.bound);
                if (v) e.values[key] = static_cast<double>(*v);
                return v.has_value();
            }
            case ParamType::choice: {
                auto const v = choice_of(*n, full, to_strings(p.choices));
                if (v) e.strings[key] = *v;
                return v.has_value();
            }
            case ParamType::number_array: {
                auto const v = numbers_of(*n, full);
                if (v) e.arrays[key] = *v;
                return v.has_value();
            }
        }
        return false;
    }

    //! "name", "name*N" or "N*name" (MAD-X order) -> (name, N); nullopt if malformed.
    static std::optional<std::pair<std::string, std::int64_t>> parse_line_entry(std::string_view text)
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

    //! Reads [lattice]; returns the element names the tracked line reaches (for [output] checks).
    std::set<std::string> read_lattice(toml::table const& t, DeckConfig& cfg)
    {
        LatticeConfig& lat = cfg.lattice;
        std::string const path = "lattice";
        std::size_t const errors_before = diagnostics_.size();
        static std::vector<std::string> const settings = {"use", "turns", "aperture"};
        struct Entry {
            std::string name;
            toml::node const* node;
            std::string key;
        };
        std::map<std::string, std::vector<Entry>> entries;
        std::map<std::string, toml::node const*> line_node;
        for (auto const& [k, v] : in_order(t)) {
            std::string const name(k->str());
            if (std::find(settings.begin(), settings.end(), name) != settings.end()) continue;
            std::string const line_key = join_key(path, name);
            auto const* a = v->as_array();
            if (!a) {
                error(where(*k, *v), line_key,
                      fmt::format("unknown key '{}'{}; a line is an array of element and line names", name,
                                  did_you_mean(name, settings)));
                continue;
            }
            if (element_names_.count(name))
                error(where(*k, *v), line_key, fmt::format("'{}' names both an element and a line", name));
            if (a->empty()) error(where(*k, *v), line_key, "a line needs at least one entry");
            std::vector<std::string> items;
            for (std::size_t i = 0; i < a->size(); ++i) {
                toml::node const& item = *a->get(i);
                std::string const item_key = fmt::format("{}[{}]", line_key, i);
                auto const* s = item.as_string();
                auto const parsed = s ? parse_line_entry(s->get()) : std::nullopt;
                if (!parsed) {
                    error(where(item), item_key,
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
            lat.line_where[name] = where(*k, *v);
        }

        // Every entry names an element or a line.
        std::vector<std::string> known;
        known.insert(known.end(), element_names_.begin(), element_names_.end());
        for (auto const& [name, items] : lat.lines) known.push_back(name);
        for (auto const& [line, items] : entries) {
            for (auto const& item : items) {
                if (element_names_.count(item.name) || entries.count(item.name)) continue;
                error(where(*item.node), item.key,
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
                    error(where(*item.node), item.key,
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
            if (auto turns = integer_of(*n, "lattice.turns", Bound::at_least_one)) lat.turns = *turns;
        }
        if (auto const* ap = table_at(t, path, "aperture", false)) {
            std::string const ap_path = "lattice.aperture";
            check_keys(*ap, ap_path, {"shape", "half_x", "half_y"});
            if (auto shape = choice_at(*ap, ap_path, "shape", {"rectangle", "ellipse"}, true))
                lat.global_shape = *shape;
            if (auto hx = quantity_at(*ap, ap_path, "half_x", quantity::length, Bound::positive, true))
                lat.global_half_x = *hx;
            if (auto hy = quantity_at(*ap, ap_path, "half_y", quantity::length, Bound::positive, true))
                lat.global_half_y = *hy;
        }

        bool use_ok = false;
        if (toml::node const* n = t.get("use")) {
            if (auto use = string_of(*n, "lattice.use")) {
                lat.use = *use;
                if (entries.count(*use)) {
                    use_ok = true;
                } else {
                    std::vector<std::string> lines;
                    for (auto const& [name, items] : lat.lines) lines.push_back(name);
                    error(where(*n), "lattice.use",
                          element_names_.count(*use)
                              ? fmt::format("'{}' is an element; use names a line of [lattice]", *use)
                              : fmt::format("no line named '{}'{}", *use, did_you_mean(*use, lines)));
                }
            }
        } else if (lat.lines.empty()) {
            error(where(t), "lattice",
                  "no line defined: add one, e.g. line = [\"D1\", \"QF\", \"D1\", \"QD\"]");
        } else {
            lat.use = entries.count("line") ? "line" : lat.lines.back().first;
            use_ok = true;
        }

        // Only a lattice without errors says reliably what is tracked ([output] checks against it).
        std::set<std::string> reached;
        if (use_ok && !cyclic && diagnostics_.size() == errors_before) {
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

    void read_space_charge(toml::table const& t, DeckConfig& cfg)
    {
        SpaceChargeConfig& sc = cfg.space_charge;
        std::string const path = "space_charge";
        sc.where = where(t);
        check_keys(t, path,
                   {"enabled", "grid", "kicks_per_meter", "kicks_per_element", "solver", "deposition", "shape",
                    "sort_every", "margin", "truncate_sigma"});
        if (toml::node const* n = t.get("enabled")) {
            if (auto on = bool_of(*n, "space_charge.enabled")) sc.enabled = *on;
        }
        if (auto s = choice_at(t, path, "shape", {"cic", "tsc"}, false)) sc.shape = *s;
        // The stencils need a node on either side of every particle: CIC 3 nodes, TSC 4 at least;
        // fewer than 4 is never a useful grid, so both ask for 4.
        int const min_nodes = 4;
        if (toml::node const* n = t.get("grid")) {
            auto const* a = n->as_array();
            if (!a || a->size() != 3) {
                error(where(*n), "space_charge.grid",
                      fmt::format("expected [nx, ny, nz], three whole numbers >= {}, got {}", min_nodes,
                                  a ? fmt::format("{} entries", a->size()) : describe_node(*n)));
            } else {
                for (std::size_t i = 0; i < 3; ++i) {
                    std::string const key = fmt::format("space_charge.grid[{}]", i);
                    if (auto g = integer_of(*a->get(i), key, Bound::at_least_one)) {
                        if (*g > (1 << 20)) {
                            error(where(*a->get(i)), key,
                                  fmt::format("{} grid points is beyond any machine's memory", *g));
                        } else if (*g < min_nodes) {
                            error(where(*a->get(i)), key,
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
        if (auto k = quantity_at(t, path, "kicks_per_meter", quantity::per_length, Bound::positive, false))
            sc.kicks_per_meter = *k;
        if (auto k = integer_at(t, path, "kicks_per_element", Bound::at_least_one, false)) {
            if (t.get("kicks_per_meter")) {
                error(where(*t.get("kicks_per_element")), "space_charge.kicks_per_element",
                      "give kicks_per_meter or kicks_per_element, not both");
            } else {
                sc.kicks_per_element = *k;
            }
        }
        if (auto c = choice_at(t, path, "solver", {"3d", "2.5d"}, false)) sc.solver = *c;
        if (auto s = choice_at(t, path, "deposition", {"deterministic", "atomic", "aggregated"}, false))
            sc.deposition = *s;
        if (auto k = integer_at(t, path, "sort_every", Bound::non_negative, false)) sc.sort_every = *k;
        if (auto m = quantity_at(t, path, "margin", quantity::dimensionless, Bound::non_negative, false)) {
            if (*m > 10.0) {
                error(where(*t.get("margin")), "space_charge.margin",
                      fmt::format("expected a fraction of the bunch extent between 0 and 10, got {}", *m));
            } else {
                sc.margin = *m;
            }
        }
        if (auto k = quantity_at(t, path, "truncate_sigma", quantity::dimensionless, Bound::non_negative, false)) {
            if (*k > 0.0 && *k < 2.0) {
                error(where(*t.get("truncate_sigma")), "space_charge.truncate_sigma",
                      fmt::format("expected 0 (grid over the whole bunch) or at least 2 (rms sizes), got {}", *k));
            } else {
                sc.truncate_sigma = *k;
            }
        }
        if (sc.enabled && cfg.beam.bunch_charge == 0.0 && t.get("enabled")) {
            error(where(*t.get("enabled")), "space_charge.enabled",
                  "space charge needs a beam.bunch_charge > 0 (the bunch has no charge)");
        }
    }

    void read_output(toml::table const* t, DeckConfig& cfg, std::set<std::string> const& tracked)
    {
        OutputConfig& out = cfg.output;
        std::string const path = "output";
        out.file = cfg.run.name + ".h5";
        out.phase_space = {"end"};
        out.where = t ? where(*t) : SourceLocation{file_, 0, 0};
        output_file_given_ = false;
        if (!t) return;
        check_keys(*t, path, {"file", "phase_space", "stats", "checkpoint_every"});
        if (toml::node const* n = t->get("checkpoint_every")) {
            try {
                if (auto const* i = n->as_integer())
                    out.checkpoint_every = checkpoint_every_steps(i->get());
                else if (auto const* text = n->as_string())
                    out.checkpoint_every = checkpoint_every_wall_time(text->get());
                else
                    throw std::invalid_argument(k_checkpoint_every_expected);
            } catch (std::invalid_argument const& e) {
                error(where(*n), "output.checkpoint_every", e.what());
            }
        }
        if (toml::node const* n = t->get("file")) {
            out.where = where(*n);
            if (auto f = string_of(*n, "output.file")) {
                out.file = *f;
                output_file_given_ = true;
            }
        }
        if (toml::node const* n = t->get("phase_space")) {
            out.phase_space.clear();
            std::vector<toml::node const*> items;
            if (auto const* a = n->as_array()) {
                for (std::size_t i = 0; i < a->size(); ++i) items.push_back(a->get(i));
            } else {
                items.push_back(n);  // a single name is a list of one
            }
            std::vector<std::string> known = {"end"};
            known.insert(known.end(), element_names_.begin(), element_names_.end());
            for (std::size_t i = 0; i < items.size(); ++i) {
                std::string const key =
                    n->is_array() ? fmt::format("output.phase_space[{}]", i) : "output.phase_space";
                auto name = string_of(*items[i], key);
                if (!name) continue;
                bool const is_line = std::any_of(cfg.lattice.lines.begin(), cfg.lattice.lines.end(),
                                                 [&](auto const& l) { return l.first == *name; });
                if (*name != "end" && !element_names_.count(*name)) {
                    error(where(*items[i]), key,
                          is_line
                              ? fmt::format("'{}' is a line; phase space is written at elements (or \"end\")",
                                            *name)
                              : fmt::format("no element named '{}'{}", *name, did_you_mean(*name, known)));
                    continue;
                }
                if (*name != "end" && !tracked.empty() && !tracked.count(*name)) {
                    error(
                        where(*items[i]), key,
                        fmt::format("element '{}' is not in the tracked line '{}'", *name, cfg.lattice.use));
                    continue;
                }
                out.phase_space.push_back(*name);
            }
        }
        if (auto s = choice_at(*t, path, "stats", {"every_element", "every_slice", "end", "turn"}, false)) {
            out.stats = *s == "every_slice" ? StatsWhere::every_slice
                        : *s == "end"       ? StatsWhere::end
                        : *s == "turn"      ? StatsWhere::turn
                                            : StatsWhere::every_element;
        }
    }

    std::string file_;
    std::vector<Diagnostic> diagnostics_;
    //! Where each [scan] value is in the deck, by the source path its applied nodes carry.
    std::map<std::string, SourceLocation> scan_where_;
    bool scan_errors_ = false;        //!< reading [scan] found problems
    bool output_file_given_ = false;  //!< the deck (or --set) gave output.file
    //! Tables made to hold a --set value ("--set elements.NEW.type=..." makes elements.NEW).
    std::map<toml::node const*, std::string> created_;
    //! Every name defined in [elements], valid or not, so that a broken element is reported once
    //! and not again at each line that uses it.
    std::set<std::string> element_names_;
};

}  // namespace

DeckConfig read_deck_text(std::string const& text, std::string const& name,
                          std::vector<std::string> const& overrides, std::optional<std::uint64_t> scan_index)
{
    return DeckParser(name).parse(text, overrides, scan_index);
}

DeckConfig read_deck(std::string const& path, std::vector<std::string> const& overrides,
                     std::optional<std::uint64_t> scan_index)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw DeckError(SourceLocation{path, 0, 0}, "",
                        fmt::format("cannot read the deck: {}", std::strerror(errno)));
    std::ostringstream text;
    text << in.rdbuf();
    return read_deck_text(text.str(), path, overrides, scan_index);
}

}  // namespace gt
