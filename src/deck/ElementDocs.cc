// The registry written out: docs/decks.md's element tables (`gtrack elements --markdown`) and the
// JSON the importers read (`gtrack elements --json`, scripts/gtrack_elements.json).
#include <fmt/format.h>

#include "deck/ElementRegistry.hh"

namespace gt {

namespace {

//! "1/m^2" -> "1/m²", as docs/decks.md writes units.
std::string pretty_unit(std::string_view unit)
{
    std::string out(unit);
    for (auto const& [from, to] : {std::pair{"^2", "²"}, {"^3", "³"}, {"^4", "⁴"}})
        for (std::size_t at; (at = out.find(from)) != std::string::npos;) out.replace(at, 2, to);
    return out;
}

std::string backticked(std::vector<std::string_view> const& names)
{
    std::string out;
    for (auto const& n : names) out += fmt::format("{}`{}`", out.empty() ? "" : ", ", n);
    return out;
}

std::string unit_cell(ParamSpec const& p)
{
    if (!p.unit_doc.empty()) return std::string(p.unit_doc);
    return p.type == ParamType::number ? pretty_unit(p.kind->unit) : std::string{};
}

std::string default_cell(ParamSpec const& p, std::string_view required)
{
    if (!p.default_doc.empty()) return std::string(p.default_doc);
    if (p.required) return std::string(required);
    switch (p.type) {
        case ParamType::choice:
            return p.default_choice.empty() ? "" : fmt::format("`\"{}\"`", p.default_choice);
        case ParamType::flag:
            return "`false`";
        case ParamType::number:
        case ParamType::integer:
            return p.default_value ? fmt::format("`{:g}`", *p.default_value) : "";
        default:
            return "";
    }
}

std::string allowed_cell(ParamSpec const& p)
{
    if (!p.allowed_doc.empty()) return std::string(p.allowed_doc);
    switch (p.type) {
        case ParamType::choice:
            return backticked(p.choices);
        case ParamType::flag:
            return "`true`, `false`";
        case ParamType::integer:
            return "whole number >= 1";
        case ParamType::number:
            return p.bound == Bound::any ? "any" : std::string(bound_text(p.bound));
        case ParamType::number_array:
            return "array of bare numbers";
        case ParamType::text:
            return "";
    }
    return "";
}

std::string json_list(std::vector<std::string_view> const& names)
{
    std::string out;
    for (auto const& n : names) out += fmt::format("{}\"{}\"", out.empty() ? "" : ", ", n);
    return "[" + out + "]";
}

}  // namespace

std::string element_tables_markdown()
{
    std::string out =
        "Element types, and the MAD-X and ELEGANT types the importers convert into each "
        "(`scripts/import_madx.py`, `scripts/import_elegant.py`):\n\n"
        "| type | what it is | MAD-X | ELEGANT |\n|---|---|---|---|\n";
    for (auto const& s : element_schema())
        out += fmt::format("| `{}` | {} | {} | {} |\n", s.type, s.doc, backticked(s.madx),
                           backticked(s.elegant));
    out +=
        "\nKeys every element takes:\n\n| key | unit | default | allowed | meaning "
        "|\n|---|---|---|---|---|\n";
    for (auto const& p : common_element_params())
        out += fmt::format("| `{}` | {} | {} | {} | {} |\n", p.key, unit_cell(p), default_cell(p, "required"),
                           allowed_cell(p), p.doc);
    out +=
        "\nKeys by type (\"req.\" = required; numbers in the default unit shown, or strings with units):\n\n"
        "| type | key | unit | default | allowed | meaning |\n|---|---|---|---|---|---|\n";
    for (auto const& s : element_schema()) {
        if (s.params.empty()) {
            out += fmt::format("| `{}` | | | | | {} |\n", s.type, s.doc);
            continue;
        }
        bool first = true;
        for (auto const& p : s.params) {
            out +=
                fmt::format("| {} | `{}` | {} | {} | {} | {} |\n", first ? fmt::format("`{}`", s.type) : "",
                            p.key, unit_cell(p), default_cell(p, "req."), allowed_cell(p), p.doc);
            first = false;
        }
    }
    return out;
}

std::string element_registry_json()
{
    auto const keys = [](std::vector<ParamSpec> const& params) {
        std::vector<std::string_view> names;
        for (auto const& p : params) names.push_back(p.key);
        return json_list(names);
    };
    std::string out = "{\n  \"generated_by\": \"gtrack elements --json\",\n";
    out += fmt::format("  \"common_keys\": {},\n  \"types\": {{\n", keys(common_element_params()));
    auto const& registry = element_schema();
    for (std::size_t i = 0; i < registry.size(); ++i) {
        auto const& s = registry[i];
        out += fmt::format("    \"{}\": {{\"keys\": {}, \"madx\": {}, \"elegant\": {}}}{}\n", s.type,
                           keys(s.params), json_list(s.madx), json_list(s.elegant),
                           i + 1 < registry.size() ? "," : "");
    }
    return out + "  }\n}\n";
}

}  // namespace gt
