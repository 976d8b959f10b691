// The few figures of an output file a nightly regression tracks night over night (gtrack regress):
// a drift too small to fail a comparison still shows in their history.
//
// From what the file holds (any file gtrack run writes): a beamline's final emittances and rms sizes
// and the particles lost (first alive count of /stats minus the last); a detector's hits, the energy
// deposited in all volumes (/tallies/edep summed) and the particles that escaped.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace gt {

//! (name, value) pairs in a fixed order, with the unit in the name ("emittance_x [m rad]").
using HeadlineFigures = std::vector<std::pair<std::string, double>>;

//! The headline figures of the output file at `path`; empty when it holds none of the above.
//! Throws IoError when the file cannot be read.
HeadlineFigures headline_figures(std::string const& path);

}  // namespace gt
