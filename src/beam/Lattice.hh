// The lattice as tracked: the use line expanded into a flat, device-ready element table, one entry
// per slice, with the reference particle after each entry and a readable description.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "beam/LatticeErrors.hh"
#include "deck/Config.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "kernels/elements/Element.hh"

namespace gt {

//! What an entry of the table is, for output, statistics and loss reports (host only).
struct ElementInfo {
    std::string name;    //!< deck element name ("global_aperture" for the global aperture entries)
    std::string type;    //!< deck type ("quadrupole", "sbend", ...); edges of a bend say "sbend"
    double s_begin = 0;  //!< [m] position of the entry's entrance along the reference orbit
    double s_end = 0;    //!< [m] position of its exit
    int slice = 0;       //!< 0 ... slices-1 within one occurrence of the deck element
    int slices = 1;      //!< entries this occurrence made (a bend: n body slices + 2 edges)
    bool is_monitor = false;
    int deck_index = -1;   //!< index into DeckConfig::elements (-1: global aperture)
    std::string tracking;  //!< the t-code/z-code choice and why, when the deck asked for t or auto
};

struct Lattice {
    std::vector<Element> elements;                   //!< the table; elements[i].index == i
    std::vector<ElementInfo> info;                   //!< one per entry
    std::vector<ReferenceParticle> reference_after;  //!< the reference particle after each entry
    ReferenceParticle reference_begin;               //!< at the entrance of the lattice
    double length = 0;                               //!< [m] of one pass
    //! The full table's entry count when this one is compacted (`[lattice] merge_drifts`), else 0.
    std::size_t compacted_from = 0;
    //! Spline coefficients of the profile elements (shared by copies: the host table points into
    //! it); a backend copies it and rebinds its table with bind_field_data().
    LatticeErrors errors;  //!< the drawn [errors], one row per occurrence they touch (empty without)
    std::shared_ptr<std::vector<double> const> field_data = std::make_shared<std::vector<double> const>();

    //! The reference particle at the exit of the lattice.
    ReferenceParticle const& reference_end() const
    {
        return reference_after.empty() ? reference_begin : reference_after.back();
    }
    //! True when some entry changes the reference energy (an RF cavity off the zero crossing).
    bool changes_reference_energy() const;
};

//! Expands `deck.lattice.use` (nested lines, "name*N" and "N*name" repetition) into deck element
//! names, in tracking order. Throws DeckError on unknown names, recursive lines, bad counts.
std::vector<std::string> expand_use_line(DeckConfig const& deck);

//! Builds the element table for one pass from the reference particle `begin` at the entrance.
//! Every deck element is validated (all problems reported at once, each with its key and line);
//! a lattice that changes the reference energy with lattice.turns > 1 is an error.
//! `radiation_in_magnets = false` builds the table of a `[lattice] radiation = "mean"` deck without the
//! magnets' radiation (its cavities still keep the reference energy): the optics' maps.
Lattice build_lattice(DeckConfig const& deck, ReferenceParticle const& begin,
                      bool radiation_in_magnets = true);

//! A readable table of the lattice (index, name, kind, s, length, main parameters) for `gtrack check`.
std::string describe(Lattice const& lattice);

}  // namespace gt
