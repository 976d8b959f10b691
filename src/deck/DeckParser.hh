// The shared machinery of deck parsing: locations, diagnostics, --set overrides, typed values.
//
// DeckParserBase holds what every section reader needs (src/deck/DeckReader.cc for beamline decks,
// src/deck/DetectorDeckReader.cc for detector decks): every problem becomes a Diagnostic naming
// file:line:column and the key path, and all of them are thrown together at the end.
#pragma once

#include <toml++/toml.h>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "deck/DeckError.hh"
#include "deck/ElementSchema.hh"
#include "deck/Suggest.hh"
#include "deck/Units.hh"

namespace gt::deck_detail {


// Locations of values that came from the command line carry this file-name prefix.
inline constexpr std::string_view k_set_prefix = "--set ";

inline std::string join_key(std::string_view prefix, std::string_view key)
{
    return prefix.empty() ? std::string(key) : fmt::format("{}.{}", prefix, key);
}

inline std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

inline std::string describe_node(toml::node const& n)
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
inline std::string written(toml::node const& n)
{
    if (auto const* s = n.as_string()) return fmt::format("\"{}\"", s->get());
    if (auto const* i = n.as_integer()) return fmt::format("{}", i->get());
    if (auto const* f = n.as_floating_point()) return fmt::format("{}", f->get());
    return describe_node(n);
}

inline std::string quoted_list(std::vector<std::string> const& names)
{
    std::string text;
    for (auto const& n : names) text += (text.empty() ? "" : ", ") + fmt::format("\"{}\"", n);
    return text;
}

template <class Range>
inline std::vector<std::string> to_strings(Range const& r)
{
    return std::vector<std::string>(r.begin(), r.end());
}

inline std::string escape_basic_string(std::string_view s)
{
    std::string out;
    for (char c : s) {
        if (c == '\\' || c == '"') out += '\\';
        out += c;
    }
    return out;
}

//! The most common syntax error in a deck is a quantity without quotes (length = 50 cm): say so.
inline std::string unquoted_unit_hint(std::string_view text, std::size_t line)
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


class DeckParserBase {
  public:
    explicit DeckParserBase(std::string file) : file_(std::move(file)) {}

    // ---- locations and diagnostics ---------------------------------------------------------------

    SourceLocation where(toml::source_region const& src) const
    {
        if (!src.path) return {file_, 0, 0};
        if (src.path->starts_with(k_set_prefix)) return {*src.path, 0, 0};
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
        std::vector<std::string> segments;
        for (std::size_t start = 0;;) {
            auto const dot = key.find('.', start);
            segments.emplace_back(trim(key.substr(start, dot == std::string_view::npos ? dot : dot - start)));
            if (dot == std::string_view::npos) break;
            start = dot + 1;
        }
        if (std::any_of(segments.begin(), segments.end(), [](auto const& s) { return s.empty(); })) {
            error(at, std::string(key), "expected a key path such as elements.QF.k1 before '='");
            return;
        }
        if (value.empty()) {
            error(at, std::string(key), "no value after '='");
            return;
        }
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
                error(at, std::string(key),
                      fmt::format("cannot set '{}': '{}' is {}, not a table", key, path, describe_node(*n)));
                return;
            }
            t = n->as_table();
        }
        toml::table parsed = parse_override_value(value, origin);
        parsed.get("v")->visit(
            [&](auto& v) { t->insert_or_assign(toml::key(segments.back(), region), std::move(v)); });
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


    std::string file_;
    std::vector<Diagnostic> diagnostics_;
    //! Tables made to hold a --set value ("--set elements.NEW.type=..." makes elements.NEW).
    std::map<toml::node const*, std::string> created_;
};

}  // namespace gt::deck_detail
