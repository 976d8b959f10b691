// The shared core of reading one deck: where each value came from, the problems found so far, and
// typed access to keys (units, bounds, choices with did-you-mean). Every section reader works
// through it, so every key gets the same diagnostics: file:line:column, key path, what was expected.
#pragma once

#include <toml++/toml.h>
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "deck/DeckError.hh"
#include "deck/ElementRegistry.hh"
#include "deck/SourceLocation.hh"
#include "deck/Units.hh"

namespace gt::deck {

//! Locations of values that came from the command line carry this file-name prefix.
inline constexpr std::string_view k_set_prefix = "--set ";
//! Values applied from [scan] carry this prefix; DeckContext::where() maps them to their line in [scan].
inline constexpr std::string_view k_scan_prefix = "\x1e[scan] ";

//! Whether a value or a problem comes from the command line (--set, --unset), not from the deck file.
bool from_command_line(SourceLocation const& at);

class DeckContext {
  public:
    explicit DeckContext(std::string file) : file_(std::move(file)) {}

    //! The deck's name in diagnostics.
    std::string const& file() const { return file_; }

    //! Forgets what one reading found (problems, tables made by --set, element names); the [scan]
    //! value locations stay, as every reading of a scan point uses them.
    void begin_reading();

    // ---- locations -------------------------------------------------------------------------------

    SourceLocation where(toml::source_region const& src) const;
    SourceLocation where(toml::node const& n) const;
    //! A key's own position when known (an unknown key is pointed at), else its value's.
    SourceLocation where(toml::key const& k, toml::node const& v) const;

    //! Records that --set made table n (it has no source of its own).
    void note_created(toml::node const* n, std::string origin) { created_[n] = std::move(origin); }
    //! Records where in [scan] the value applied with source path `origin` is written.
    void note_scan_value(std::string origin, SourceLocation at)
    {
        scan_where_[std::move(origin)] = std::move(at);
    }
    void clear_scan_values() { scan_where_.clear(); }
    //! Whether `at` is the position of a [scan] value.
    bool is_scan_location(SourceLocation const& at) const;

    // ---- problems --------------------------------------------------------------------------------

    void error(SourceLocation at, std::string key, std::string message);
    std::size_t error_count() const { return diagnostics_.size(); }
    std::vector<Diagnostic> take_diagnostics();

    // ---- keys of a table -------------------------------------------------------------------------

    //! Entries of a table in the order the user wrote them (toml++ keeps tables sorted by key).
    std::vector<std::pair<toml::key const*, toml::node const*>> in_order(toml::table const& t) const;

    //! An "unknown key" problem (with did-you-mean) for each key of t not in known.
    void check_keys(toml::table const& t, std::string const& path, std::vector<std::string> const& known);

    //! "missing required key 'key' (what)" at table t.
    void missing(toml::table const& t, std::string const& path, std::string_view key, std::string_view what);

    //! A sub-table, or nullptr (with a diagnostic when it is there but not a table, or required).
    toml::table const* table_at(toml::table const& parent, std::string const& parent_path,
                                std::string_view key, bool required);

    // ---- typed values: nullopt (and a diagnostic at the value) when the value does not fit ---------

    //! A number in the kind's internal unit, or a string with a unit ("50 cm"), within bound.
    std::optional<double> quantity_of(toml::node const& n, std::string const& key, QuantityKind const& kind,
                                      Bound bound);
    //! A whole number (1e5 written as a float counts), within bound.
    std::optional<std::int64_t> integer_of(toml::node const& n, std::string const& key, Bound bound);
    //! A non-empty string.
    std::optional<std::string> string_of(toml::node const& n, std::string const& key);
    //! One of choices (did-you-mean when it is a near miss).
    std::optional<std::string> choice_of(toml::node const& n, std::string const& key,
                                         std::vector<std::string> const& choices);
    std::optional<bool> bool_of(toml::node const& n, std::string const& key);
    //! An array of bare numbers (integers or floats).
    std::optional<std::vector<double>> numbers_of(toml::node const& n, std::string const& key);

    // The same at t[key]: nullopt without a diagnostic when absent and not required.
    std::optional<double> quantity_at(toml::table const& t, std::string const& path, std::string_view key,
                                      QuantityKind const& kind, Bound bound, bool required);
    std::optional<std::int64_t> integer_at(toml::table const& t, std::string const& path,
                                           std::string_view key, Bound bound, bool required);
    std::optional<std::string> choice_at(toml::table const& t, std::string const& path, std::string_view key,
                                         std::vector<std::string> const& choices, bool required);
    std::optional<bool> bool_at(toml::table const& t, std::string const& path, std::string_view key);
    //! `what` says what is missing when required.
    std::optional<std::string> string_at(toml::table const& t, std::string const& path, std::string_view key,
                                         bool required, std::string_view what);

    //! Three quantities of one kind: [x, y, z], each a number or a string with a unit.
    std::optional<std::array<double, 3>> vec3_of(toml::node const& n, std::string const& key,
                                                 QuantityKind const& kind, Bound bound);
    std::optional<std::array<double, 3>> vec3_at(toml::table const& t, std::string const& path,
                                                 std::string_view key, QuantityKind const& kind, Bound bound,
                                                 bool required);
    //! A direction: three plain numbers, normalized; not all zero.
    std::optional<std::array<double, 3>> direction_at(toml::table const& t, std::string const& path,
                                                      std::string_view key, bool required);

    // ---- facts one section leaves for another ----------------------------------------------------

    //! Every name defined in [elements], valid or not, so that a broken element is reported once
    //! and not again at each line that uses it.
    std::set<std::string>& element_names() { return element_names_; }
    //! Whether the deck (or --set) gave output.file (a scan then names its files after it).
    bool output_file_given() const { return output_file_given_; }
    void set_output_file_given(bool given) { output_file_given_ = given; }

  private:
    std::string file_;
    std::vector<Diagnostic> diagnostics_;
    //! Where each [scan] value is in the deck, by the source path its applied nodes carry.
    std::map<std::string, SourceLocation> scan_where_;
    //! Tables made to hold a --set value ("--set elements.NEW.type=..." makes elements.NEW).
    std::map<toml::node const*, std::string> created_;
    std::set<std::string> element_names_;
    bool output_file_given_ = false;
};

}  // namespace gt::deck
