// The strip tables of a detector deck's [strips] (kernels/detector/StripSensor.hh): sensors tiled on
// the strip volumes, drift constants, Lorentz shifts in a uniform field, the free-streaming event
// start times.
#pragma once

#include "deck/Config.hh"
#include "detector/GeometryBuilder.hh"
#include "kernels/detector/StripChain.hh"

namespace gt {

//! Mobility at low field [m^2/(V s)] of electrons (side 1) or holes (side 0) at temperature T [K]
//! (Jacoboni et al., Solid-State Electronics 20 (1977) 77).
double strip_mobility(int side, double temperature);

//! Throws std::invalid_argument naming the volume or the limit when the sensors cannot be laid out.
StripTables make_strip_tables(DeckConfig const& cfg, GeometryTables const& geometry);

//! StripParams of a [strips] table alone (no geometry): what tests use to set up one sensor.
StripParams strip_params(StripsConfig const& s, std::uint64_t seed);

//! The start time of each event [s]: exponential gaps at `rate` (Philox keyed by event), or, for
//! rate 0, a fixed spacing far beyond any event's duration.
std::vector<double> strip_event_times(std::uint64_t events, double rate, std::uint64_t seed);

}  // namespace gt
