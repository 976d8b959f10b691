// The [physics] keys of electromagnetic showers: showers, range_cut, photon_cut, secondary_buffer
// (docs/decks.md), read with the deck parser's diagnostics (file:line:column, key path).
#pragma once

#include <toml++/toml.h>
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "deck/DetectorConfig.hh"
#include "deck/Units.hh"

namespace gt::detector_deck {

template <class Parser>
void read_shower_keys(Parser& p, toml::table const& t, std::string const& path, DetectorPhysicsConfig& ph)
{
    if (toml::node const* n = t.get("showers")) {
        if (auto b = p.bool_of(*n, path + ".showers")) ph.showers = *b;
    }
    if (auto v = p.quantity_at(t, path, "range_cut", quantity::length, Bound::positive, false))
        ph.range_cut = *v;
    if (auto v = p.quantity_at(t, path, "photon_cut", quantity::energy, Bound::positive, false)) {
        if (*v < 1.0e-3)
            p.error(p.where(*t.get("photon_cut")), path + ".photon_cut",
                    fmt::format(
                        "expected at least 1 keV (the lowest energy of the shower tables), got {} MeV", *v));
        else
            ph.photon_cut = *v;
    }
    if (auto n = p.integer_at(t, path, "secondary_buffer", Bound::at_least_one, false)) {
        if (*n < 3)  // one interaction makes up to three (EmFinalState::k_max_secondaries)
            p.error(
                p.where(*t.get("secondary_buffer")), path + ".secondary_buffer",
                fmt::format("expected at least 3 (the most secondaries one interaction makes), got {}", *n));
        else
            ph.secondary_buffer = static_cast<std::uint64_t>(*n);
    }
    for (char const* key : {"range_cut", "photon_cut", "secondary_buffer"})
        if (!ph.showers && t.get(key))
            p.error(p.where(*t.get(key)), path + "." + key, "only used with showers = true");
}

}  // namespace gt::detector_deck
