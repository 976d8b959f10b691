// Reading and validating on-axis profile files (see OnAxisProfile.hh).
#include "beam/OnAxisProfile.hh"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>

#include <fmt/format.h>

#include "beam/FieldUnits.hh"
#include "deck/DeckError.hh"

namespace gt {

namespace {

constexpr double k_uniform_tolerance = 1e-6;  //!< allowed deviation from the uniform grid, fraction of dz
constexpr std::size_t k_min_points = 4;

//! "z [m]" -> ("z", "m"); false when the text is not NAME [UNIT].
bool column_heading(std::istringstream& in, std::string& name, std::string& unit)
{
    std::string word;
    if (!(in >> name)) return false;
    if (!(in >> word) || word.size() < 3 || word.front() != '[' || word.back() != ']') return false;
    unit = word.substr(1, word.size() - 2);
    return true;
}

bool parse_number(std::string const& text, double& v)
{
    auto const [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

double OnAxisProfile::peak() const
{
    double m = 0.0;
    for (double v : values) m = std::max(m, std::abs(v));
    return m;
}

std::string element_file_path(DeckConfig const& deck, ElementConfig const& element)
{
    std::string const given = element.get_string(element.type == "field_map" ? "file" : "profile", "");
    if (given.empty()) return given;
    std::filesystem::path path(given);
    std::filesystem::path const dir = std::filesystem::path(deck.path).parent_path();
    if (path.is_relative() && !dir.empty()) path = dir / path;
    return path.string();
}

std::string profile_path(DeckConfig const& deck, ElementConfig const& element)
{
    return element.type == "field_map" ? std::string{} : element_file_path(deck, element);
}

double profile_element_length(DeckConfig const& deck, ElementConfig const& element)
{
    ProfileQuantity const q =
        element.type == "rfcavity" ? ProfileQuantity::electric : ProfileQuantity::magnetic;
    return read_on_axis_profile(profile_path(deck, element), q, "elements." + element.name + ".profile",
                                element.where)
        .length();
}

OnAxisProfile read_on_axis_profile(std::string const& path, ProfileQuantity expected, std::string const& key,
                                   SourceLocation const& deck_where)
{
    std::ifstream file(path);
    if (!file) throw DeckError(deck_where, key, fmt::format("cannot open the profile file '{}'", path));
    auto fail = [&](int line, std::string const& message) {
        throw DeckError(SourceLocation{path, line, 0}, key, message);
    };
    char const* const column = expected == ProfileQuantity::electric ? "Ez" : "Bz";
    std::string const header_example =
        expected == ProfileQuantity::electric ? "# z [m]  Ez [V/m]" : "# z [m]  Bz [T]";

    OnAxisProfile p;
    p.path = path;
    p.quantity = expected;
    double z_factor = 0.0, value_factor = 0.0;
    bool have_header = false;
    std::vector<double> z;
    std::vector<int> line_of;
    std::string text;
    int line = 0;
    while (std::getline(file, text)) {
        ++line;
        if (!text.empty() && text.back() == '\r') text.pop_back();
        auto const first = text.find_first_not_of(" \t");
        if (first == std::string::npos) continue;
        if (!have_header) {
            std::istringstream in(text.substr(first));
            std::string hash, zname, zunit, vname, vunit, rest;
            bool const shaped = (in >> hash) && hash == "#" && column_heading(in, zname, zunit) &&
                                column_heading(in, vname, vunit) && !(in >> rest);
            if (!shaped || zname != "z")
                fail(line, fmt::format("the first line must name the columns and their units, e.g. '{}'",
                                       header_example));
            if (vname != column)
                fail(line, fmt::format("the second column is '{}' but this element needs {} ('{}')", vname,
                                       column, header_example));
            auto const z_unit = unit_factor(k_length_units, zunit);
            if (!z_unit)
                fail(line, fmt::format("unknown unit '{}' for z; expected one of {}", zunit,
                                       unit_list(k_length_units)));
            z_factor = *z_unit;
            std::span<UnitFactor const> const value_units =
                expected == ProfileQuantity::electric ? std::span<UnitFactor const>(k_electric_units)
                                                      : std::span<UnitFactor const>(k_magnetic_units);
            auto const v_unit = unit_factor(value_units, vunit);
            if (!v_unit)
                fail(line, fmt::format("unknown unit '{}' for {}; expected one of {}", vunit, column,
                                       unit_list(value_units)));
            value_factor = *v_unit;
            have_header = true;
            continue;
        }
        if (text[first] == '#') continue;
        std::istringstream in(text);
        std::string a, b, extra;
        in >> a >> b;
        if (b.empty() || (in >> extra))
            fail(line, fmt::format("expected two numbers (z and {}), got '{}'", column, text));
        double zv = 0.0, fv = 0.0;
        if (!parse_number(a, zv)) fail(line, fmt::format("z is not a number: '{}'", a));
        if (!parse_number(b, fv)) fail(line, fmt::format("{} is not a number: '{}'", column, b));
        if (!std::isfinite(zv) || !std::isfinite(fv))
            fail(line, fmt::format("non-finite value ('{}'): every number must be finite", text));
        zv *= z_factor;
        if (!z.empty() && !(zv > z.back()))
            fail(line,
                 fmt::format("z = {} m is not above the previous point's z = {} m: the grid must increase",
                             zv, z.back()));
        z.push_back(zv);
        line_of.push_back(line);
        p.values.push_back(fv * value_factor);
    }
    if (!have_header)
        fail(0, fmt::format("the file is empty; expected a header '{}' and data lines", header_example));
    if (z.size() < k_min_points)
        fail(line, fmt::format("{} data points; a profile needs at least {}", z.size(), k_min_points));
    p.z_first = z.front();
    p.dz = (z.back() - z.front()) / double(z.size() - 1);
    for (std::size_t i = 1; i + 1 < z.size(); ++i) {
        double const expected_z = p.z_first + double(i) * p.dz;
        if (std::abs(z[i] - expected_z) > k_uniform_tolerance * p.dz)
            fail(line_of[i],
                 fmt::format(
                     "z = {} m is off the uniform grid (expected {} m, spacing {} m): the grid must be "
                     "uniform to {} of the spacing",
                     z[i], expected_z, p.dz, k_uniform_tolerance));
    }
    return p;
}

}  // namespace gt
