// Comparing two gtrack output files, generically over their HDF5 trees: every numeric dataset and
// every numeric attribute, matched by path, with tolerances by path (`gtrack compare`, regression).
//
// Compared: datasets of integers or floats of any shape, and numeric attributes of groups and
// datasets (reference particle, weights, ...), addressed as "group/dataset" and "group@attribute".
// Not compared: the /provenance group (times, command line, build), string attributes (dates,
// versions) and string datasets. Files without /provenance are not gtrack outputs and are refused
// (checkpoints excepted: they are compared too, their checksummed data verified as read),
// as are files whose structure differs (an object on one side only, other shapes or number types).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "compare/Tolerance.hh"

namespace gt {

//! Two files that cannot be compared value by value (not gtrack outputs, structure differs).
class ComparisonRefused : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct ItemComparison {
    std::string path;   //!< "stats/sigma_x", "data/0/particles/beam@s_ref" (no leading '/')
    std::string shape;  //!< "float64[2000]", "int64[12]", "float64 attribute"
    Tolerance tolerance;
    DifferenceSummary diff;
    bool ok() const { return diff.outside == 0; }
};

struct FileComparison {
    std::string path_a, path_b;
    std::vector<ItemComparison> items;  //!< in path order
    std::size_t not_compared = 0;       //!< string datasets skipped
    bool ok() const;
    std::size_t outside() const;    //!< items with values outside tolerance
    std::size_t differing() const;  //!< items with any value differing
};

struct CompareOptions {
    ToleranceRules tolerances;      //!< by path glob; empty: bitwise
    std::vector<std::string> only;  //!< compare only paths matching one of these globs (empty: all)
};

//! Compares file `a` (the reference) with file `b`. Throws ComparisonRefused when either is not a
//! gtrack output (or cannot be opened as HDF5 at all) or their structures differ (the message lists
//! the differences); IoError when reading a file fails later.
FileComparison compare_files(std::string const& a, std::string const& b, CompareOptions const& options);

//! The table of items that differ (every item with `all`), a summary line and the verdict.
std::string comparison_report(FileComparison const& c, bool all = false);

}  // namespace gt
