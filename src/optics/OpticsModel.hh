// Which optics `gtrack optics` computes (docs/optics.md, "Models"): 4D at fixed energy with the RF
// cavities' energy gain left out (MAD-X's TWISS), or 6D with RF and the magnets' mean radiation loss
// (MAD-X's EMIT, Xsuite's radiation twiss); and the element tables each needs.
#pragma once

#include <optional>
#include <string>

#include "beam/Lattice.hh"
#include "deck/Config.hh"
#include "kernels/core/ReferenceParticle.hh"
#include "optics/Optics.hh"

namespace gt::optics {

//! The tables of one model, and the options that make compute_optics() use them.
struct OpticsModel {
    std::string name;                  //!< "4d" or "6d"
    Lattice lattice;                   //!< the optics' table: magnets without radiation
    std::optional<Lattice> radiating;  //!< 6d: the magnets radiate, the cavities keep the reference
    bool rf_gain_left_out = false;     //!< 4d: cavities off the zero crossing, their gain left out

    //! Sets the model's fields of `o` (the tables must outlive it).
    void apply(OpticsOptions& o) const;
};

//! The model asked for ("4d", "6d", or "" for the deck's choice: "6d" when [lattice] radiation is on,
//! else "4d") of a ring (`periodic`) or a line (always 4d: a line's accelerating cavities stay refused).
//! Throws std::runtime_error for any other name, or "6d" for a line.
OpticsModel optics_model(DeckConfig const& deck, ReferenceParticle const& ref, std::string const& asked,
                         bool periodic);

//! The model in words, as the summary and the files say it.
std::string model_note(OpticsResult const& r, bool rf_gain_left_out);

}  // namespace gt::optics
