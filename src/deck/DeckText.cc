// Small text helpers shared by the deck section readers.
#include "deck/DeckText.hh"

#include <fmt/format.h>

namespace gt::deck {

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

std::string escape_basic_string(std::string_view s)
{
    std::string out;
    for (char c : s) {
        auto const u = static_cast<unsigned char>(c);
        if ((u < 0x20 && c != '\t') || u == 0x7f) {  // TOML forbids raw control characters in strings
            out += fmt::format("\\u{:04X}", unsigned(u));
            continue;
        }
        if (c == '\\' || c == '"') out += '\\';
        out += c;
    }
    return out;
}

std::vector<std::string> split_key(std::string_view key)
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

std::string float_text(double v)
{
    std::string t = fmt::format("{}", v);
    if (t.find_first_of(".eEn") == std::string::npos) t += ".0";  // "inf" and "nan" contain 'n'
    return t;
}

std::optional<std::string> toml_text(toml::node const& n)
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

}  // namespace gt::deck
