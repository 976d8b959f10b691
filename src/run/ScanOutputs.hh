// The output files of a scan: whether a point's file is complete, its final statistics, and the
// scan's parameters as numeric columns (for `gtrack scan --local` and `gtrack collect`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "deck/Scan.hh"
#include "io/Provenance.hh"

namespace gt {

enum class OutputState {
    complete,     //!< a readable gtrack file of this point, with its statistics
    missing,      //!< no file under the final name
    broken,       //!< a file that is not a complete gtrack output (truncated, not HDF5, no /stats...)
    other_point,  //!< a complete gtrack file, but of another point or scan
};

struct OutputStatus {
    OutputState state = OutputState::missing;
    std::string reason;     //!< what is wrong, for all but complete
    Provenance provenance;  //!< read when the file could be read
};

//! "complete", "missing", "broken", "other point".
std::string state_name(OutputState state);

//! Whether `path` holds the complete output of `point` of `scan`: the file exists (gtrack renames a
//! finished file into place, so a file under the final name was finished, unless it was damaged
//! since), opens as HDF5, has readable /provenance naming this point's parameters and values, and
//! a /stats table with at least one row.
OutputStatus scan_output_status(std::string const& path, ScanConfig const& scan, std::uint64_t point);

//! The last row of /stats of a gtrack file: (column name, unit, value), in column order. Throws IoError.
struct FinalStatistic {
    std::string name;
    std::string unit;
    double value = 0;
};
std::vector<FinalStatistic> final_statistics(std::string const& path);

//! A scan parameter's values as numbers: bare numbers as they are (in the key's default unit, unit
//! ""), or numbers with units of one dimension converted to the unit of the first value. nullopt for
//! values that are not quantities (names, booleans, lists) or that mix bare numbers and units.
struct NumericParameter {
    std::vector<double> values;
    std::string unit;
};
std::optional<NumericParameter> numeric_parameter(ScanParameter const& p);

//! A key path as a table column name: "elements.QF.k1" -> "elements_QF_k1".
std::string column_name(std::string const& key);

}  // namespace gt
