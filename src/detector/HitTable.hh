// Hits as a column table (the /hits group of the output and of a detector checkpoint) and back.
#pragma once

#include <vector>

#include "io/TableWriter.hh"
#include "kernels/detector/Hit.hh"

namespace gt {

//! The output's columns (event, track, volume, replica, step, pre_*, post_*, time, edep, px, py, pz),
//! then `particle` when `with_particle` (a checkpoint keeps every field of a Hit).
Table hits_table(std::vector<Hit> const& hits, bool with_particle = false);

//! The hits of a table written by hits_table(hits, true); throws std::runtime_error naming the
//! missing or mistyped column.
std::vector<Hit> hits_from_table(Table const& table);

}  // namespace gt
