// Random lattice errors (`[errors]`): misalignments and field errors drawn once, on the host, per
// occurrence of an element in the tracked line, from counter-based Philox streams keyed by
// (errors.seed, occurrence, error kind). The draws become the element's keys (dx, dy, tilt, the main
// strength) before its registry entry builds it, and thin multipole half-kicks (Multipole.hh) around it:
// the same maps as any deck, so the table, and therefore every bit, is the same for any backend, thread
// or rank count.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "deck/Config.hh"
#include "deck/DeckError.hh"

namespace gt {

//! The errors drawn for one occurrence of an element (the sum over every group that matches it).
struct OccurrenceErrors {
    std::int64_t occurrence = 0;    //!< position in the expanded use line (0, 1, ...)
    std::string name;               //!< deck element name
    std::string type;               //!< deck element type
    std::int64_t first_entry = -1;  //!< first table entry of the occurrence (set by build_lattice)
    double s_begin = 0;             //!< [m] (set by build_lattice)
    double dx = 0, dy = 0;          //!< [m] added to the element's dx, dy
    double roll = 0;                //!< [rad] added to its tilt
    double gradient = 0;            //!< [1] relative error of its main normal strength (k1, k2 or k3)
    std::vector<double> knl, ksl;   //!< [1/m^n] integrated normal and skew strengths added, by order n

    bool has_multipoles() const;
};

//! The drawn errors of a line: one row per occurrence that some group matches, in line order.
struct LatticeErrors {
    std::uint64_t seed = 0;
    std::vector<OccurrenceErrors> rows;
};

//! Which element types carry field errors (the relative `gradient` and the multipoles `b`, `a`): the
//! order m of their main field and the key of the strength `gradient` scales. docs/decks.md "[errors]".
struct MainField {
    int order = -1;        //!< m: 0 dipole (sbend), 1 quadrupole, 2 sextupole, 3 octupole; -1: none
    char const* key = "";  //!< quadrupole k1, sbend k1, sextupole k2, octupole k3
};
MainField main_field_of(std::string const& type);

//! The main field's integrated strength K_m L of an element [1/m^m] (sbend: its angle).
double main_integrated_strength(ElementConfig const& cfg);

//! A standard normal variate truncated to |z| <= cut, by rejection, from the stream of (seed, id).
double truncated_normal(std::uint64_t seed, std::uint64_t id, double cut);

//! Draws the errors of every occurrence of `names` (the expanded use line) that a group of `deck.errors`
//! matches. Throws DeckError, every problem at once: a group that matches no element of the line, or a
//! field error on an element type that cannot carry one.
LatticeErrors draw_lattice_errors(DeckConfig const& deck, std::vector<std::string> const& names);

//! `cfg` with the misalignments and the relative gradient error of `e` applied to its keys.
ElementConfig with_errors(ElementConfig const& cfg, OccurrenceErrors const& e);

}  // namespace gt
