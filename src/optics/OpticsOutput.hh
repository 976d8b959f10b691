// The optics as a terminal summary, as the /optics group of an HDF5 file and as CSV.
#pragma once

#include <array>
#include <string>

#include "optics/Optics.hh"

namespace gt::optics {

//! A short summary: tunes, chromaticities, compaction, closed orbit, accuracy, and a table of beta,
//! alpha, D and the orbit at up to `rows` element exits (evenly picked) plus the extremes.
std::string summary(OpticsResult const& r, std::size_t rows = 20);

//! Writes /optics in the layout of docs/optics.md (agreed with the plot command). `deck` is the
//! deck's path (an attribute, for titles).
void write_hdf5(OpticsResult const& r, std::string const& path, std::string const& deck);

//! The 6D model's damping from the one-turn map's eigenvalues: amplitude damping times tau_x, tau_y,
//! tau_e [s] and partition numbers Jx, Jy, Je (zeros without the 6D model).
std::array<double, 6> map_damping(OpticsResult const& r);

//! A comment line with the model, then one CSV row per element exit: s, name, type, then the datasets of
//! /optics in their order.
void write_csv(OpticsResult const& r, std::string const& path);

}  // namespace gt::optics
