// Marks on an output file's objects saying "this is a measurement of the run, not its physics":
// wall-clock timings, how the work was scheduled (iterations, held-back secondaries, stack peaks),
// hosts and devices, provenance. They differ from run to run, or with the rank count, while the
// physics does not; `gtrack compare` and `gtrack regress` report them apart and do not fail on them
// (docs/output.md, "Measurements of the run").
//
// One mechanism, a string attribute whose value says what kind of measurement it is:
// - `measurement` on a group or dataset marks that object (a group: everything under it, attributes
//   included; a dataset: its values and its attributes);
// - `measurement:NAME` on a group or dataset marks only its numeric attribute NAME.
// The file carries the marks; no list of names is kept anywhere else (DESIGN.md section 7).
#pragma once

#include <hdf5.h>

#include <string>
#include <string_view>

namespace gt {

//! The kinds of measurement a mark names (its value).
namespace measurement {
inline constexpr std::string_view timing = "timing";          //!< wall-clock or kernel seconds
inline constexpr std::string_view schedule = "schedule";      //!< how the work was cut up and ordered
inline constexpr std::string_view provenance = "provenance";  //!< what produced the file, when, where
}  // namespace measurement

//! The attribute that marks a whole object.
inline constexpr char const* k_measurement_attribute = "measurement";
//! The prefix of the attribute that marks one attribute: "measurement:" + NAME.
inline constexpr std::string_view k_measured_attribute_prefix = "measurement:";

//! Marks the group or dataset `object` (an open HDF5 handle) as a measurement of kind `kind`.
void mark_measurement(hid_t object, std::string_view kind);
//! Marks the attribute `attribute` of `object` as a measurement of kind `kind`.
void mark_measured_attribute(hid_t object, std::string const& attribute, std::string_view kind);

}  // namespace gt
