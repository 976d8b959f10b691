// The shared core of reading one deck: locations, problems, typed access to keys.
#include "deck/DeckContext.hh"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "deck/DeckText.hh"
#include "deck/Suggest.hh"
#include "deck/UnsetOverride.hh"

namespace gt::deck {

bool from_command_line(SourceLocation const& at)
{
    return at.file.starts_with(k_set_prefix) || at.file.starts_with(k_unset_prefix);
}

void DeckContext::begin_reading()
{
    diagnostics_.clear();
    created_.clear();
    element_names_.clear();
}

bool DeckContext::is_scan_location(SourceLocation const& at) const
{
    return std::any_of(scan_where_.begin(), scan_where_.end(), [&](auto const& e) {
        return e.second.file == at.file && e.second.line == at.line && e.second.column == at.column;
    });
}

std::vector<Diagnostic> DeckContext::take_diagnostics()
{
    std::vector<Diagnostic> taken = std::move(diagnostics_);
    diagnostics_.clear();
    return taken;
}

SourceLocation DeckContext::where(toml::source_region const& src) const
{
    if (!src.path) return {file_, 0, 0};
    if (src.path->starts_with(k_set_prefix)) return {*src.path, 0, 0};
    if (src.path->starts_with(k_scan_prefix)) {
        auto const it = scan_where_.find(*src.path);
        return it != scan_where_.end() ? it->second : SourceLocation{file_, 0, 0};
    }
    return {file_, static_cast<int>(src.begin.line), static_cast<int>(src.begin.column)};
}

SourceLocation DeckContext::where(toml::node const& n) const
{
    if (n.source().path) return where(n.source());
    auto const it = created_.find(&n);
    return it != created_.end() ? SourceLocation{it->second, 0, 0} : SourceLocation{file_, 0, 0};
}

SourceLocation DeckContext::where(toml::key const& k, toml::node const& v) const
{
    return k.source().path ? where(k.source()) : where(v);
}

void DeckContext::error(SourceLocation at, std::string key, std::string message)
{
    diagnostics_.push_back(Diagnostic{std::move(at), std::move(key), std::move(message)});
}

std::vector<std::pair<toml::key const*, toml::node const*>> DeckContext::in_order(toml::table const& t) const
{
    std::vector<std::pair<toml::key const*, toml::node const*>> entries;
    for (auto&& [k, v] : t) entries.emplace_back(&k, &v);
    std::stable_sort(entries.begin(), entries.end(), [this](auto const& a, auto const& b) {
        auto const la = where(*a.first, *a.second), lb = where(*b.first, *b.second);
        bool const ao = from_command_line(la), bo = from_command_line(lb);
        if (ao != bo) return !ao;
        return std::pair(la.line, la.column) < std::pair(lb.line, lb.column);
    });
    return entries;
}

void DeckContext::check_keys(toml::table const& t, std::string const& path,
                             std::vector<std::string> const& known)
{
    for (auto&& [k, v] : t) {
        if (std::find(known.begin(), known.end(), k.str()) != known.end()) continue;
        error(where(k, v), join_key(path, k.str()),
              fmt::format("unknown key '{}'{}", k.str(), did_you_mean(k.str(), known)));
    }
}

std::optional<double> DeckContext::quantity_of(toml::node const& n, std::string const& key,
                                               QuantityKind const& kind, Bound bound)
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
        error(where(n), key, fmt::format("expected {} {}, got {}", kind.what, bound_text(bound), written(n)));
        return std::nullopt;
    }
    return v;
}

std::optional<std::int64_t> DeckContext::integer_of(toml::node const& n, std::string const& key, Bound bound)
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

std::optional<std::string> DeckContext::string_of(toml::node const& n, std::string const& key)
{
    if (auto const* s = n.as_string()) {
        if (!s->get().empty()) return s->get();
        error(where(n), key, "expected a non-empty string");
        return std::nullopt;
    }
    error(where(n), key, fmt::format("expected a string, got {}", describe_node(n)));
    return std::nullopt;
}

std::optional<std::string> DeckContext::choice_of(toml::node const& n, std::string const& key,
                                                  std::vector<std::string> const& choices)
{
    auto const* s = n.as_string();
    if (s && std::find(choices.begin(), choices.end(), s->get()) != choices.end()) return s->get();
    error(where(n), key,
          fmt::format("expected one of {}; got {}{}", quoted_list(choices), describe_node(n),
                      s ? did_you_mean(s->get(), choices) : std::string()));
    return std::nullopt;
}

std::optional<bool> DeckContext::bool_of(toml::node const& n, std::string const& key)
{
    if (auto const* b = n.as_boolean()) return b->get();
    error(where(n), key, fmt::format("expected true or false, got {}", describe_node(n)));
    return std::nullopt;
}

std::optional<std::vector<double>> DeckContext::numbers_of(toml::node const& n, std::string const& key)
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

toml::table const* DeckContext::table_at(toml::table const& parent, std::string const& parent_path,
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

void DeckContext::missing(toml::table const& t, std::string const& path, std::string_view key,
                          std::string_view what)
{
    error(where(t), join_key(path, key), fmt::format("missing required key '{}' ({})", key, what));
}

std::optional<double> DeckContext::quantity_at(toml::table const& t, std::string const& path,
                                               std::string_view key, QuantityKind const& kind, Bound bound,
                                               bool required)
{
    if (toml::node const* n = t.get(key)) return quantity_of(*n, join_key(path, key), kind, bound);
    if (required) missing(t, path, key, fmt::format("{}, in {}", kind.what, kind.unit));
    return std::nullopt;
}

std::optional<std::int64_t> DeckContext::integer_at(toml::table const& t, std::string const& path,
                                                    std::string_view key, Bound bound, bool required)
{
    if (toml::node const* n = t.get(key)) return integer_of(*n, join_key(path, key), bound);
    if (required) missing(t, path, key, fmt::format("a whole number {}", bound_text(bound)));
    return std::nullopt;
}

std::optional<std::string> DeckContext::choice_at(toml::table const& t, std::string const& path,
                                                  std::string_view key,
                                                  std::vector<std::string> const& choices, bool required)
{
    if (toml::node const* n = t.get(key)) return choice_of(*n, join_key(path, key), choices);
    if (required) missing(t, path, key, fmt::format("one of {}", quoted_list(choices)));
    return std::nullopt;
}

//! Three quantities of one kind: [x, y, z], each a number or a string with a unit.
std::optional<std::array<double, 3>> DeckContext::vec3_of(toml::node const& n, std::string const& key,
                                                          QuantityKind const& kind, Bound bound)
{
    auto const* a = n.as_array();
    if (!a || a->size() != 3) {
        error(where(n), key,
              fmt::format("expected an array of three values ({} in {}, or strings with units), got {}",
                          kind.what, kind.unit, a ? fmt::format("{} values", a->size()) : describe_node(n)));
        return std::nullopt;
    }
    std::array<double, 3> out{};
    bool ok = true;
    for (std::size_t i = 0; i < 3; ++i) {
        auto v = quantity_of(*a->get(i), fmt::format("{}[{}]", key, i), kind, bound);
        if (v)
            out[i] = *v;
        else
            ok = false;
    }
    return ok ? std::optional(out) : std::nullopt;
}

std::optional<std::array<double, 3>> DeckContext::vec3_at(toml::table const& t, std::string const& path,
                                                          std::string_view key, QuantityKind const& kind,
                                                          Bound bound, bool required)
{
    if (toml::node const* n = t.get(key)) return vec3_of(*n, join_key(path, key), kind, bound);
    if (required) missing(t, path, key, fmt::format("three values: {} in {}", kind.what, kind.unit));
    return std::nullopt;
}

std::optional<bool> DeckContext::bool_at(toml::table const& t, std::string const& path, std::string_view key)
{
    if (toml::node const* n = t.get(key)) return bool_of(*n, join_key(path, key));
    return std::nullopt;
}

std::optional<std::string> DeckContext::string_at(toml::table const& t, std::string const& path,
                                                  std::string_view key, bool required, std::string_view what)
{
    if (toml::node const* n = t.get(key)) return string_of(*n, join_key(path, key));
    if (required) missing(t, path, key, what);
    return std::nullopt;
}

//! A direction: three plain numbers, normalized; not all zero.
std::optional<std::array<double, 3>> DeckContext::direction_at(toml::table const& t, std::string const& path,
                                                               std::string_view key, bool required)
{
    auto v = vec3_at(t, path, key, quantity::dimensionless, Bound::any, required);
    if (!v) return v;
    double const n = std::sqrt((*v)[0] * (*v)[0] + (*v)[1] * (*v)[1] + (*v)[2] * (*v)[2]);
    if (!(n > 0)) {
        error(where(*t.get(key)), join_key(path, key), "expected a direction, got the zero vector");
        return std::nullopt;
    }
    for (auto& c : *v) c /= n;
    return v;
}

}  // namespace gt::deck
