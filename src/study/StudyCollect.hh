// What `gtrack collect` takes from the outputs of ring studies, so that a scan over error seeds (or any
// deck key) gives the dynamic and momentum aperture per scan point, and the dynamic aperture's border
// per angle over all points: its minimum and mean over the seeds, as error studies publish it.
//
// A study output has no /stats (docs/output.md, "Ring studies"): its figures per point are
//  - dynamic aperture (polar grid): da_min_<i>, da_mean_<i> for the i-th momentum offset of the grid and
//    da_border_<i>_<j> for its j-th angle, in the grid's size unit (m or sigma);
//  - momentum aperture: the tightest and the mean acceptance over the locations, delta_plus_min,
//    delta_plus_mean, delta_minus_max, delta_minus_mean (delta_minus is negative).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "run/ScanOutputs.hh"

namespace gt {
class OutputFile;
}

namespace gt::study {

//! Whether the gtrack output at `path` holds a ring study's tables instead of a beam's /stats.
bool is_study_output(std::string const& path);

//! The per-point figures of a study output (above); IoError naming the file when a table is missing.
std::vector<FinalStatistic> study_statistics(std::string const& path);

//! The polar grid of a dynamic-aperture output: the momentum offsets and angles of its border rows.
struct BorderGrid {
    std::vector<double> deltas;
    std::vector<double> angles;
    std::string size_unit;
    bool operator==(BorderGrid const&) const = default;
};
//! The grid of the output at `path`, or nothing when it holds no polar dynamic aperture.
std::optional<BorderGrid> border_grid(std::string const& path);

//! The border of each (delta, angle) over the points, in the grid's order (delta by delta, each with every
//! angle): its least, mean and largest value and how many points had it; and per delta, `min` (the least
//! border_min over the angles) and `mean` (the mean over the angles of border_mean).
struct BorderOverPoints {
    BorderGrid grid;
    std::vector<double> delta, angle, border_min, border_mean, border_max;
    std::vector<std::int64_t> points;
    std::vector<double> min, mean;
};
//! `stats` holds each complete point's study_statistics.
BorderOverPoints border_over_points(BorderGrid const& grid,
                                    std::vector<std::vector<FinalStatistic> const*> const& stats);
//! Writes `r` as `<group>/border` (columns delta, angle, border_min, border_mean, border_max, points) and
//! `<group>/summary` (delta, min, mean), with the size unit as the group's attribute `size_unit`.
void write_border_over_points(OutputFile& out, std::string const& group, BorderOverPoints const& r);

}  // namespace gt::study
