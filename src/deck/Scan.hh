// Parameter scans: the [scan] table of a deck as numbered points, and output names templated by point.
//
// A scan names deck keys by path ("elements.QF.k1") with a list of values each. Its points are the
// cartesian product of the lists (the last parameter varies fastest, like nested loops written in
// deck order) or the lists zipped (point i takes value i of each). A point's index is stable: it
// depends only on the [scan] table, so job-array task N always runs the same point.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "deck/SourceLocation.hh"

namespace gt {

enum class ScanMode { cartesian, zip };

//! One scanned key and its values, in the order the deck gives them.
struct ScanParameter {
    std::string key;                  //!< key path, "elements.QF.k1"
    std::vector<std::string> labels;  //!< each value as a user reads it: 2.0, 50 MeV, true
    std::vector<std::string> toml;    //!< each value as TOML text, applied like --set: 2.0, "50 MeV"
    SourceLocation where;             //!< the key in [scan]
};

class ScanConfig {
  public:
    ScanMode mode = ScanMode::cartesian;
    std::vector<ScanParameter> parameters;  //!< in deck order
    SourceLocation where;                   //!< the [scan] table

    bool empty() const { return parameters.empty(); }
    //! Number of points (0 for a deck without [scan]).
    std::uint64_t size() const;
    //! For each parameter, the index of its value at `point`. Throws std::out_of_range.
    std::vector<std::size_t> value_indices(std::uint64_t point) const;
    //! The point whose parameters take these value indices (the inverse of value_indices).
    std::uint64_t point_of(std::vector<std::size_t> const& value_indices) const;
    //! Each parameter's value label at `point`.
    std::vector<std::string> labels_at(std::uint64_t point) const;
    //! "elements.QF.k1 = 2.0, beam.kinetic_energy = 50 MeV"
    std::string describe_point(std::uint64_t point) const;
    //! "cartesian" or "zip".
    std::string_view mode_name() const { return mode == ScanMode::cartesian ? "cartesian" : "zip"; }
};

//! A bad output-name template or scan index; the deck reader turns it into a located diagnostic.
class ScanError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

//! Expands an output-name template: {index} (also with a format such as {index:04}), {name} (the
//! run name), and {KEY} for a scanned key path or its last segment when that is unambiguous
//! ({elements.QF.k1} or {k1}), replaced by the value's label with characters other than letters,
//! digits and . + - _ turned into '_' ("50 MeV" -> 50_MeV). "{{" and "}}" stand for braces.
//! Without a point (point empty), {index} and scanned keys are errors. Throws ScanError.
std::string expand_output_name(std::string_view pattern, std::string const& run_name, ScanConfig const& scan,
                               std::optional<std::uint64_t> point);

//! Whether the template names {index} or a scanned key, i.e. differs between points.
bool output_name_uses_scan(std::string_view pattern);

//! The scan index a --scan-index argument asks for: a whole number >= 0, or "env" for the job-array
//! task of the batch system (see scan_index_from_environment). Throws ScanError.
std::uint64_t parse_scan_index(std::string const& text);

//! Where a job array's task index was found.
struct ArrayTask {
    std::string variable;  //!< e.g. "SLURM_ARRAY_TASK_ID"
    std::string value;     //!< as set
    std::uint64_t point;   //!< the scan point it selects
};

//! The scan point of this job-array task: SLURM_ARRAY_TASK_ID, PBS_ARRAYID (Torque), PBS_ARRAY_INDEX
//! (PBS Pro) as they are (submit arrays 0..N-1), LSB_JOBINDEX (LSF) and SGE_TASK_ID (Grid Engine)
//! minus one (those schedulers number tasks from 1). The first one set wins. Throws ScanError when
//! none is set or the value is not a whole number. `getenv` is replaceable for tests.
ArrayTask scan_index_from_environment(std::function<char const*(char const*)> const& getenv = {});

}  // namespace gt
