// One GDML file in memory: its XML tree, the line of each element (for diagnostics), the symbols of
// its <define> section, and typed access to attributes with Geant4's unit handling.
#pragma once

#include <map>
#include <optional>
#include <pugixml.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "deck/gdml/GdmlExpression.hh"
#include "deck/gdml/GdmlUnits.hh"

namespace gt::gdml {

//! A problem in a GDML file: "file.gdml:12: <tube name="t1">: rmax: ..." (the form compilers use).
struct GdmlError : std::runtime_error {
    GdmlError(std::string in_file, int at_line, std::string at_element, std::string const& message)
        : std::runtime_error(in_file + ":" + std::to_string(at_line) + ": " + at_element + ": " + message),
          file(std::move(in_file)),
          line(at_line),
          element(std::move(at_element))
    {
    }
    std::string file;
    int line;
    std::string element;  //!< "<tube name=\"t1\">"
};

class GdmlSource {
  public:
    //! Parses the XML of path; throws GdmlError (line of the XML error) when it is not well formed.
    explicit GdmlSource(std::string path);
    //! The same from text in memory (fuzzing, tests); path names it in diagnostics.
    GdmlSource(std::string path, std::string const& text);

    pugi::xml_node root() const { return doc_.child("gdml"); }
    std::string const& path() const { return path_; }

    int line_of(pugi::xml_node n) const;
    //! "<tag name=\"...\">" for messages.
    static std::string describe(pugi::xml_node n);
    [[noreturn]] void fail(pugi::xml_node n, std::string const& message) const;

    Symbols& symbols() { return symbols_; }

    //! A required (or, with fallback, optional) attribute's text.
    std::string text(pugi::xml_node n, char const* attr) const;
    std::optional<std::string> optional_text(pugi::xml_node n, char const* attr) const;
    //! The value of an expression attribute, without unit; fallback when absent (none: required).
    double number(pugi::xml_node n, char const* attr, std::optional<double> fallback = std::nullopt) const;
    //! The multiplier of the unit named by attribute unit_attr (default_unit when absent), checked
    //! for its kind as Geant4 does.
    double unit(pugi::xml_node n, char const* unit_attr, UnitKind kind, char const* default_unit) const;
    //! number * unit.
    double quantity(pugi::xml_node n, char const* attr, char const* unit_attr, UnitKind kind,
                    char const* default_unit, std::optional<double> fallback = std::nullopt) const
    {
        return number(n, attr, fallback) * unit(n, unit_attr, kind, default_unit);
    }

  private:
    void index_lines(std::string const& text);
    void check_parse(pugi::xml_parse_result const& r, std::string const& text);

    std::string path_;
    pugi::xml_document doc_;
    std::vector<std::ptrdiff_t> line_starts_;
    Symbols symbols_;
};

}  // namespace gt::gdml
