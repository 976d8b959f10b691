// Reading the XML of a GDML file and its attributes (see GdmlSource.hh).
#include "deck/gdml/GdmlSource.hh"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace gt::gdml {

namespace {

std::string read_file(std::string const& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw GdmlError(path, 0, "file", "cannot be read (missing or not readable)");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

GdmlSource::GdmlSource(std::string path) : GdmlSource(path, read_file(path)) {}

GdmlSource::GdmlSource(std::string path, std::string const& text) : path_(std::move(path))
{
    index_lines(text);
    // parse_default keeps element offsets (offset_debug) for line numbers; no DTD/schema fetching
    check_parse(doc_.load_buffer(text.data(), text.size(), pugi::parse_default, pugi::encoding_utf8), text);
    if (!root()) fail(doc_.first_child(), "not a GDML file: its root element is not <gdml>");
}

void GdmlSource::index_lines(std::string const& text)
{
    line_starts_.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n') line_starts_.push_back(static_cast<std::ptrdiff_t>(i + 1));
}

void GdmlSource::check_parse(pugi::xml_parse_result const& r, std::string const&)
{
    if (r) return;
    auto const it = std::upper_bound(line_starts_.begin(), line_starts_.end(), r.offset);
    int const line = static_cast<int>(it - line_starts_.begin());
    throw GdmlError(path_, line, "XML", fmt::format("not well-formed XML: {}", r.description()));
}

int GdmlSource::line_of(pugi::xml_node n) const
{
    if (!n) return 0;
    std::ptrdiff_t const off = n.offset_debug();
    if (off < 0) return 0;
    auto const it = std::upper_bound(line_starts_.begin(), line_starts_.end(), off);
    return static_cast<int>(it - line_starts_.begin());
}

std::string GdmlSource::describe(pugi::xml_node n)
{
    if (!n) return "<gdml>";
    std::string out = "<" + std::string(n.name());
    if (pugi::xml_attribute a = n.attribute("name")) out += fmt::format(" name=\"{}\"", a.value());
    return out + ">";
}

void GdmlSource::fail(pugi::xml_node n, std::string const& message) const
{
    throw GdmlError(path_, line_of(n), describe(n), message);
}

std::optional<std::string> GdmlSource::optional_text(pugi::xml_node n, char const* attr) const
{
    pugi::xml_attribute a = n.attribute(attr);
    if (!a) return std::nullopt;
    return std::string(a.value());
}

std::string GdmlSource::text(pugi::xml_node n, char const* attr) const
{
    auto t = optional_text(n, attr);
    if (!t || t->empty()) fail(n, fmt::format("the attribute '{}' is missing", attr));
    return *t;
}

double GdmlSource::number(pugi::xml_node n, char const* attr, std::optional<double> fallback) const
{
    auto t = optional_text(n, attr);
    if (!t) {
        if (fallback) return *fallback;
        fail(n, fmt::format("the attribute '{}' is missing", attr));
    }
    try {
        return evaluate(*t, symbols_);
    } catch (ExpressionError const& e) {
        fail(n, fmt::format("{}: {}", attr, e.what()));
    }
}

double GdmlSource::unit(pugi::xml_node n, char const* unit_attr, UnitKind kind,
                        char const* default_unit) const
{
    std::string const name = optional_text(n, unit_attr).value_or(default_unit);
    if (auto v = unit_value(name, kind)) return *v;
    auto const names = unit_names(kind);
    fail(n, fmt::format("{}=\"{}\" is not a unit of {} (one of {})", unit_attr, name, unit_kind_name(kind),
                        fmt::join(names, ", ")));
}

}  // namespace gt::gdml
