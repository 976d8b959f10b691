// What `gtrack collect` takes from the outputs of ring studies, so that a scan over error seeds (or any
// deck key) gives the dynamic and momentum aperture per scan point, and the dynamic aperture's border
// per angle over all points: its minimum and mean over the seeds, as error studies publish it.
//
// A study output has no /stats (docs/output.md, "Ring studies"): its figures per point are
//  - dynamic aperture (polar grid): da_min_<i>, da_mean_<i> for the i-th momentum offset of the grid and
//    da_border_<i>_<j> for its j-th angle, in the grid's size unit (m or sigma); either grid:
//    da_survivors_<i>, the fraction of the i-th offset's particles that survived every turn;
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

//! The polar grid of a dynamic-aperture output: the momentum offsets and angles of its border rows.
struct BorderGrid {
    std::vector<double> deltas;
    std::vector<double> angles;
    std::string size_unit;
    bool operator==(BorderGrid const&) const = default;
};

//! What collect takes from one study output: its per-point figures (above) and, for a polar dynamic
//! aperture, its grid.
struct StudyFigures {
    std::vector<FinalStatistic> stats;
    std::optional<BorderGrid> grid;
};
//! The figures of the gtrack output at `path`, or nothing when it holds no ring study (a beam or detector
//! run's); IoError naming the file when a study's table is missing or malformed.
std::optional<StudyFigures> study_figures(std::string const& path);

//! The border of each (delta, angle) over the points, in the grid's order (delta by delta, each with every
//! angle): its least, mean and largest value and how many points had it; and per delta, `min` (the least
//! border_min over the angles) and `mean` (the mean over the angles of border_mean).
struct BorderOverPoints {
    BorderGrid grid;
    std::vector<double> delta, angle, border_min, border_mean, border_max;
    std::vector<std::int64_t> points;
    std::vector<double> min, mean;
};
//! `stats` holds each complete point's study_figures stats.
BorderOverPoints border_over_points(BorderGrid const& grid,
                                    std::vector<std::vector<FinalStatistic> const*> const& stats);
//! Writes `r` as `<group>/border` (columns delta, angle, border_min, border_mean, border_max, points) and
//! `<group>/summary` (delta, min, mean), with the size unit as the group's attribute `size_unit`.
void write_border_over_points(OutputFile& out, std::string const& group, BorderOverPoints const& r);

}  // namespace gt::study
