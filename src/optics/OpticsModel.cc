// The optics' models and their tables (see OpticsModel.hh).
#include "optics/OpticsModel.hh"

#include <stdexcept>

namespace gt::optics {

void OpticsModel::apply(OpticsOptions& o) const
{
    o.rf_gain_left_out = rf_gain_left_out;
    o.radiating = radiating ? &*radiating : nullptr;
}

OpticsModel optics_model(DeckConfig const& deck, ReferenceParticle const& ref, std::string const& asked,
                         bool periodic)
{
    bool const deck_radiates = deck.lattice.radiation == "mean" || deck.lattice.radiation == "quantum";
    std::string const name = asked.empty() ? (deck_radiates && periodic ? "6d" : "4d") : asked;
    if (name != "4d" && name != "6d")
        throw std::runtime_error("gtrack optics --model: expected 4d or 6d (got '" + asked + "')");
    if (name == "6d" && !periodic)
        throw std::runtime_error(
            "gtrack optics --model 6d: the 6D model (RF with the radiation loss) is a ring's; give --ring");
    // The tables are built for one pass (turns > 1 refuses cavities off the zero crossing: the optics
    // decides below what to do with them).
    DeckConfig one = deck;
    one.lattice.turns = 1;
    OpticsModel m;
    m.name = name;
    m.lattice = build_lattice(one, ref, false);
    if (!periodic || !m.lattice.changes_reference_energy()) {
        if (name == "6d") {
            // The cavities replace the magnets' mean loss and keep the reference energy ([lattice]
            // radiation = "mean", docs/physics.md); "quantum"'s random part is not the optics'.
            DeckConfig six = one;
            six.lattice.radiation = "mean";
            m.lattice = build_lattice(six, ref, false);
            m.radiating = build_lattice(six, ref, true);
        } else if (periodic && deck_radiates) {
            // The 4D model of a radiating deck: its cavities replace a loss the 4D model leaves out, so their
            // gain is left out too (a 6D orbit without the loss would sit at the zero crossing).
            m.rf_gain_left_out = true;
        }
        return m;
    }
    // A ring whose cavities change the reference energy (off the zero crossing, no radiation in the deck):
    // they are built to keep the reference, as with radiation = "mean"; the 4D model leaves their gain out.
    DeckConfig keep = one;
    keep.lattice.radiation = "mean";
    m.lattice = build_lattice(keep, ref, false);
    if (name == "6d")
        m.radiating = build_lattice(keep, ref, true);
    else
        m.rf_gain_left_out = true;
    return m;
}

std::string model_note(OpticsResult const& r, bool rf_gain_left_out)
{
    if (r.model == "6d")
        return "6D with RF and radiation: the 6D closed orbit, synchrotron tune and damping of the one-turn "
               "map whose magnets radiate their mean loss and whose cavities replace it (MAD-X's EMIT); "
               "tunes, Twiss and dispersion at the design energy without radiation (MAD-X's TWISS)";
    if (rf_gain_left_out)
        return "4D with the RF cavities off: their energy gain is left out, as MAD-X's TWISS does (the 6D "
               "model with RF and radiation: --model 6d)";
    if (r.rf_on)
        return "4D at fixed energy; the cavities at the zero crossing give the 6D orbit and synchrotron tune "
               "without radiation (with radiation: --model 6d)";
    return "4D at fixed energy (no RF cavity with a voltage)";
}

}  // namespace gt::optics
