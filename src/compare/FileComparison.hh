// Comparing two gtrack output files, generically over their HDF5 trees: every numeric dataset and
// every numeric attribute, matched by path, with tolerances by path (`gtrack compare`, regression).
//
// Compared: datasets of integers or floats of any shape, and numeric attributes of groups and
// datasets (reference particle, weights, ...), addressed as "group/dataset" and "group@attribute".
// Not compared: string attributes (dates, versions) and string datasets. Files without /provenance
// are not gtrack outputs and are refused (checkpoints excepted: they are compared too, their
// checksummed data verified as read), as are files whose structure differs (an object on one side
// only, other shapes or number types).
//
// Measurements of the run (timings, schedule figures, provenance) are the items either file marks
// as such (io/Measurement.hh: the `measurement` and `measurement:NAME` attributes; a mark in one
// file is enough, so an old reference without marks is compared with a new output that has them).
// They are compared and reported apart but never fail the comparison, and one present in one file
// only is no structural difference; `strict` makes them count like every other item.
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
    std::string measurement;  //!< "" (physics) or the kind of measurement of the run it was marked as
    bool ok() const { return diff.outside == 0; }
};

struct FileComparison {
    std::string path_a, path_b;
    std::vector<ItemComparison> items;  //!< in path order, measurements included
    std::size_t not_compared = 0;       //!< string datasets skipped
    bool strict = false;                //!< measurements count towards the verdict
    //! Measurements found in one file only ("profile (float64[12]) is only in 'b.h5'"), not compared.
    std::vector<std::string> measurements_unmatched;
    bool ok() const;
    //! Whether the item counts towards the verdict (physics, or any item when strict).
    bool counts(ItemComparison const& item) const { return strict || item.measurement.empty(); }
    std::size_t outside() const;    //!< counted items with values outside tolerance
    std::size_t differing() const;  //!< counted items with any value differing
    //! The paths of the counted items outside tolerance (what moved), in path order.
    std::vector<std::string> failed_paths() const;
};

struct CompareOptions {
    ToleranceRules tolerances;      //!< by path glob; empty: bitwise
    std::vector<std::string> only;  //!< compare only paths matching one of these globs (empty: all)
    bool strict = false;            //!< measurements of the run count like physics (`--strict`)
};

//! Compares file `a` (the reference) with file `b`. Throws ComparisonRefused when either is not a
//! gtrack output (or cannot be opened as HDF5 at all) or their structures differ (the message lists
//! the differences); IoError when reading a file fails later.
FileComparison compare_files(std::string const& a, std::string const& b, CompareOptions const& options);

//! The table of items that differ (every item with `all`), the measurements that differ (set apart),
//! a summary line and the verdict.
std::string comparison_report(FileComparison const& c, bool all = false);

}  // namespace gt
