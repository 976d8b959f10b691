// Builds the flat element table from the deck: every element checked against the element registry,
// the use line expanded, each occurrence built by its registry entry, global apertures after each.
#include "beam/Lattice.hh"

#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "beam/LatticeErrors.hh"
#include "beam/MapOccurrences.hh"
#include "beam/OnAxisProfile.hh"
#include "beam/TableBuilder.hh"
#include "deck/DeckError.hh"
#include "deck/ElementRegistry.hh"

namespace gt {

bool Lattice::changes_reference_energy() const
{
    ReferenceParticle const* prev = &reference_begin;
    for (auto const& r : reference_after) {
        if (r.kinetic_mev != prev->kinetic_mev) return true;
        prev = &r;
    }
    return false;
}

namespace {

//! Half of an occurrence's multipole errors as a thin multipole (Multipole.hh) at its entrance or exit, in
//! the element's frame (its misalignment, errors included): kick/2, element, kick/2 is the symmetric
//! (second-order) splitting of the element with its error field, as a thin-lens code applies errors at the
//! ends. The entry belongs to no deck element (deck_index -1, like the global aperture): statistics and
//! snapshots of the element are taken after its last slice, before the exit half-kick.
void add_error_kick(TableBuilder& table, ElementConfig const& cfg, OccurrenceErrors const& errors,
                    bool entrance)
{
    std::vector<double> knl = errors.knl, ksl = errors.ksl;
    for (double& k : knl) k *= 0.5;
    for (double& k : ksl) k *= 0.5;
    Element e = ElementKeys(cfg).entry(ElementKind::multipole);
    e.multipole =
        Multipole::make(knl.data(), static_cast<int>(knl.size()), ksl.data(), static_cast<int>(ksl.size()));
    ElementInfo info;
    info.name = cfg.name + (entrance ? ":errors_in" : ":errors_out");
    info.type = "multipole";
    table.add(e, info, 0.0);
}

}  // namespace

Lattice build_lattice(DeckConfig const& deck, ReferenceParticle const& begin, bool radiation_in_magnets)
{
    // Every element definition, checked at once.
    std::vector<Diagnostic> problems;
    for (auto const& cfg : deck.elements) check_element(cfg, problems);
    LatticeConfig const& lc = deck.lattice;
    bool const global = lc.global_half_x > 0.0 || lc.global_half_y > 0.0;
    ApertureShape global_shape = ApertureShape::rectangle;
    if (lc.global_shape == "ellipse")
        global_shape = ApertureShape::ellipse;
    else if (lc.global_shape != "rectangle")
        problems.push_back(Diagnostic{SourceLocation{deck.path, 0, 0}, "lattice.global_shape",
                                      "expected rectangle or ellipse (got '" + lc.global_shape + "')"});
    if (!(lc.global_half_x >= 0.0) || !(lc.global_half_y >= 0.0))
        problems.push_back(Diagnostic{SourceLocation{deck.path, 0, 0}, "lattice.global_half_x",
                                      "global aperture half sizes must be >= 0 (0: open)"});
    if (!problems.empty()) throw DeckError(problems);

    std::map<std::string, int> index_of;
    for (std::size_t i = 0; i < deck.elements.size(); ++i)
        index_of.emplace(deck.elements[i].name, static_cast<int>(i));

    std::vector<std::string> const names = expand_use_line(deck);
    // [errors]: drawn once per occurrence of the line, before any entry is built (LatticeErrors.hh).
    LatticeErrors errors = draw_lattice_errors(deck, names);
    std::size_t next_error = 0;
    TableBuilder table(begin);
    TrackingContext tracking;
    tracking.mode = deck.run.tracking;
    tracking.radiation = lc.radiation == "mean" || lc.radiation == "quantum";
    tracking.radiation_in_magnets = radiation_in_magnets;
    tracking.quantum = lc.radiation == "quantum";
    tracking.photon_key = deck.run.seed ^ k_photon_salt;
    tracking.sigma_t =
        deck.beam.sigma_matrix ? std::sqrt((*deck.beam.sigma_matrix)[4 * 6 + 4]) : deck.beam.sigma_t;
    if (deck.beam.distribution == "cathode") {  // the rms emission time, for the `auto` rule after the gun
        CathodeConfig const& c = deck.beam.cathode;
        double const rms =
            c.emission == "flattop"
                ? std::sqrt((c.emission_length * c.emission_length + c.emission_rise * c.emission_rise) /
                            12.0)
                : c.emission_length;
        tracking.sigma_t = rms * constants::c_light;
    }
    double const inf = std::numeric_limits<double>::infinity();
    Aperture const global_aperture =
        Aperture::make(global_shape, lc.global_half_x > 0.0 ? lc.global_half_x : inf,
                       lc.global_half_y > 0.0 ? lc.global_half_y : inf);
    // A beam emitted from a cathode starts at the first element that is not a marker or monitor.
    bool at_cathode = deck.beam.distribution == "cathode";
    for (std::size_t o = 0; o < names.size(); ++o) {
        int const di = index_of.at(names[o]);
        OccurrenceErrors* const drawn =
            next_error < errors.rows.size() && errors.rows[next_error].occurrence == std::int64_t(o)
                ? &errors.rows[next_error++]
                : nullptr;
        ElementConfig const erroneous =
            drawn ? with_errors(deck.elements[static_cast<std::size_t>(di)], *drawn) : ElementConfig{};
        ElementConfig const& cfg = drawn ? erroneous : deck.elements[static_cast<std::size_t>(di)];
        if (drawn) {
            drawn->first_entry = static_cast<std::int64_t>(table.size());
            drawn->s_begin = table.reference().s;
        }
        if (drawn && drawn->has_multipoles()) add_error_kick(table, cfg, *drawn, true);
        if (at_cathode && cfg.type != "marker" && cfg.type != "monitor") {
            add_cathode_occurrence(table, cfg, map_params(ElementKeys(cfg)), di, element_file_path(deck, cfg),
                                   tracking);
            at_cathode = false;
        } else {
            OccurrenceBuilder occurrence(table, cfg, di, element_file_path(deck, cfg), tracking);
            find_element_spec(cfg.type)->build(occurrence);
        }
        if (drawn && drawn->has_multipoles()) add_error_kick(table, cfg, *drawn, false);
        if (global && cfg.type != "marker" && cfg.type != "monitor") {
            Element e = Element::make(ElementKind::aperture);
            e.aperture = global_aperture;
            ElementInfo info;
            info.name = "global_aperture";
            info.type = "aperture";
            table.add(e, info, 0.0);
        }
    }
    if (at_cathode)
        throw DeckError(
            deck.beam.where, "beam.distribution",
            "the beam is emitted from a cathode, but the line has no element to emit it into (a gun "
            "given by its on-axis profile, tracked in time)");
    Lattice lattice = table.finish();
    lattice.errors = std::move(errors);

    if (lc.turns > 1 && lattice.changes_reference_energy()) {
        auto const it = lc.line_where.find("turns");
        throw DeckError(
            it != lc.line_where.end() ? it->second : SourceLocation{deck.path, 0, 0}, "lattice.turns",
            fmt::format(
                "turns = {} but the lattice changes the reference energy ({:.9g} MeV -> {:.9g} MeV "
                "kinetic, RF cavities off the zero crossing): the element table is built for one "
                "pass at the design energies, so a second turn would track with the wrong "
                "reference. Use turns = 1, or RF phases of +-90 deg in a ring, or, for a ring whose RF "
                "replaces the synchrotron-radiation loss, radiation = \"mean\" in [lattice] (the "
                "reference then stays at the design energy)",
                lc.turns, lattice.reference_begin.kinetic_mev, lattice.reference_end().kinetic_mev));
    }
    return lattice;
}

}  // namespace gt
