// A constant component of an openPMD record (a group with the attributes 'value' and 'shape' instead
// of a dataset), read by both openPMD readers: gtrack's own layout and the BeamPhysics reader.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace gt {

//! What is wrong with a constant component (the message names the record; the caller adds the file).
class ConstantRecordError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

//! The value of the constant component `name` of `species`, repeated `particles` times. The shape is
//! only a claim of the file: it must hold exactly `particles` values, counted elsewhere (`counted_by`
//! names how, for the message: "numParticles", "the particle count of 'id'"), and is checked before
//! anything is allocated (a huge or wrapping shape would otherwise exhaust memory).
std::vector<double> read_constant_record(hid_t species, std::string const& name, std::uint64_t particles,
                                         std::string const& counted_by);

}  // namespace gt
