// On-axis field profiles (Ez(z) of a cavity, Bz(z) of a solenoid) read from two-column text files.
#pragma once

#include <string>
#include <vector>

#include "deck/Config.hh"
#include "deck/SourceLocation.hh"

namespace gt {

enum class ProfileQuantity { electric, magnetic };

//! A validated profile: a uniform, increasing grid with finite values, in SI.
struct OnAxisProfile {
    std::string path;
    ProfileQuantity quantity = ProfileQuantity::magnetic;
    double z_first = 0;          //!< [m]
    double dz = 0;               //!< [m] grid spacing
    std::vector<double> values;  //!< Ez [V/m] or Bz [T] at z_first + i dz

    double length() const { return dz * double(values.size() - 1); }
    //! Largest |value| [V/m or T].
    double peak() const;
};

//! Reads a profile file (format in docs/decks.md): a header line "# z [m]  Ez [V/m]" (or Bz [T];
//! z in m, cm or mm; Ez in V/m, kV/m or MV/m; Bz in T, mT or G), then one "z value" pair per line;
//! further '#' lines and blank lines are ignored. At least 4 points, z strictly increasing and
//! uniform to 1e-6 of the spacing, every number finite. `expected` is what the element needs;
//! `key` ("elements.GUN.profile") and `deck_where` name the deck key in errors. Throws DeckError
//! naming the file, the line and the problem.
OnAxisProfile read_on_axis_profile(std::string const& path, ProfileQuantity expected, std::string const& key,
                                   SourceLocation const& deck_where);

//! The profile file of a deck element ("" without one): relative to the deck's directory.
std::string profile_path(DeckConfig const& deck, ElementConfig const& element);

//! The file an element reads ("" without one): `profile` of a solenoid or cavity, `file` of a
//! field_map; relative to the deck's directory.
std::string element_file_path(DeckConfig const& deck, ElementConfig const& element);

//! The length of an element given by a profile [m]: the span of its file (read and checked).
double profile_element_length(DeckConfig const& deck, ElementConfig const& element);

}  // namespace gt
