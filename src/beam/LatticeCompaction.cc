// Merging drifts and leaving out entries that do nothing (see LatticeCompaction.hh).
#include "beam/LatticeCompaction.hh"

#include <algorithm>
#include <vector>

#include "deck/DeckError.hh"

namespace gt {

namespace {

//! An entry that is a field-free path of the given model: a drift, or a kicker of zero kicks with a length
//! (two exact half drifts: an exact drift of its length, to round-off). Not misaligned.
bool drift_like(Element const& e)
{
    if (e.misaligned) return false;
    if (e.kind == ElementKind::drift) return true;
    return e.kind == ElementKind::kicker && e.kicker.hkick == 0.0 && e.kicker.vkick == 0.0 &&
           e.kicker.length > 0.0;
}

//! The entry as a Drift (a zero kicker: the exact drift of its length and reference).
Drift as_drift(Element const& e)
{
    if (e.kind == ElementKind::drift) return e.drift;
    Drift d;
    d.length = e.kicker.length;
    d.inv_beta = e.kicker.inv_beta;
    d.two_inv_beta = 2.0 * d.inv_beta;
    d.inv_beta2 = d.inv_beta * d.inv_beta;
    d.inv_beta_gamma2 = e.kicker.inv_beta_gamma2;
    d.t_per_pt = d.length * d.inv_beta_gamma2;
    d.model = DriftModel::exact;
    return d;
}

//! Whether two drifts run the same map per unit length: one model, one reference.
bool same_map(Drift const& a, Drift const& b)
{
    return a.model == b.model && a.inv_beta == b.inv_beta && a.inv_beta_gamma2 == b.inv_beta_gamma2;
}

}  // namespace

bool does_nothing(Element const& e)
{
    if (e.misaligned) return false;
    switch (e.kind) {
        case ElementKind::marker:
        case ElementKind::monitor:
            return true;
        case ElementKind::multipole:
            return e.multipole.terms == 0 && e.multipole.angle == 0.0;  // a thin bend turns the reference
        case ElementKind::kicker:
            return e.kicker.hkick == 0.0 && e.kicker.vkick == 0.0 && e.kicker.length == 0.0;
        default:
            return false;
    }
}

Lattice compact_lattice(Lattice const& lattice, DeckConfig const& deck)
{
    auto const& outputs = deck.output.phase_space;
    auto const kept = [&](std::size_t i) {
        return std::find(outputs.begin(), outputs.end(), lattice.info[i].name) != outputs.end();
    };
    Lattice out;
    out.reference_begin = lattice.reference_begin;
    out.length = lattice.length;
    out.field_data = lattice.field_data;
    out.errors = lattice.errors;
    out.compacted_from = lattice.elements.size();
    // The compacted position of each full-table entry pushed as it is (/errors' `entry` column).
    std::vector<std::int64_t> position(lattice.elements.size(), -1);
    auto const push = [&](Element e, ElementInfo info, ReferenceParticle const& after) {
        position[static_cast<std::size_t>(e.index)] = static_cast<std::int64_t>(out.elements.size());
        e.index = static_cast<std::int32_t>(out.elements.size());
        out.elements.push_back(e);
        out.info.push_back(std::move(info));
        out.reference_after.push_back(after);
    };
    std::size_t const n = lattice.elements.size();
    for (std::size_t i = 0; i < n;) {
        Element const& e = lattice.elements[i];
        if (kept(i) || !(does_nothing(e) || drift_like(e))) {
            push(e, lattice.info[i], lattice.reference_after[i]);
            ++i;
            continue;
        }
        if (does_nothing(e)) {
            ++i;
            continue;
        }
        // A run of drifts from i: the entries that do nothing between them are passed over; it ends at an
        // output point or at any other entry.
        Drift merged = as_drift(e);
        std::size_t last = i, count = 1, j = i + 1;
        for (; j < n && !kept(j); ++j) {
            Element const& next = lattice.elements[j];
            if (does_nothing(next)) continue;
            if (!drift_like(next) || !same_map(merged, as_drift(next))) break;
            merged.length += as_drift(next).length;  // summed in line order
            last = j;
            ++count;
        }
        if (count == 1) {
            push(e, lattice.info[i], lattice.reference_after[i]);
        } else {
            merged.t_per_pt = merged.length * merged.inv_beta_gamma2;  // as Drift::make
            Element m = Element::make(ElementKind::drift);
            m.drift = merged;
            m.index = e.index;  // the first drift's (push renumbers it)
            ElementInfo info = lattice.info[i];
            info.s_end = lattice.info[last].s_end;
            info.type = "drift";
            info.slice = 0;
            info.slices = 1;
            push(m, std::move(info), lattice.reference_after[last]);
        }
        i = j;
    }
    // Errors sit on magnets and misaligned entries, which are never merged or left out.
    for (auto& row : out.errors.rows)
        if (row.first_entry >= 0) row.first_entry = position[static_cast<std::size_t>(row.first_entry)];
    return out;
}

Lattice build_tracking_lattice(DeckConfig const& deck, ReferenceParticle const& begin)
{
    Lattice lattice = build_lattice(deck, begin);
    if (!deck.lattice.merge_drifts) return lattice;
    bool collective = deck.space_charge.enabled || deck.detector.along_beamline;
    for (auto const& e : deck.elements)
        collective = collective || e.type == "wake" || e.strings.count("wake") || e.get("lsc", 0.0) != 0.0 ||
                     e.get("csr", 0.0) != 0.0;
    if (collective)
        throw DeckError(
            deck.lattice.merge_drifts_where, "lattice.merge_drifts",
            "merging drifts is for tracking without collective effects: this deck has space "
            "charge, a wake, LSC, CSR or a detector, whose schedules name the entries of the full "
            "table; set merge_drifts = false");
    return compact_lattice(lattice, deck);
}

}  // namespace gt
