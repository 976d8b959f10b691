// The [physics] keys of electromagnetic showers: showers, range_cut, photon_cut, secondary_buffer,
// msc_range_factor, msc_path_correction, msc_exact_mean, fluctuation_model
// (docs/decks.md), read with the deck's diagnostics (file:line:column, key path).
#pragma once

#include <toml++/toml.h>
#include <string>

#include "deck/DeckContext.hh"
#include "deck/DetectorConfig.hh"

namespace gt::deck {

//! The shower keys' names, for [physics]' list of known keys.
inline constexpr char const* k_shower_keys[] = {"showers",          "range_cut",        "photon_cut",
                                                "secondary_buffer", "msc_range_factor", "msc_path_correction",
                                                "msc_exact_mean",   "fluctuation_model"};

void read_shower_keys(DeckContext& ctx, toml::table const& t, std::string const& path,
                      DetectorPhysicsConfig& ph);

}  // namespace gt::deck
