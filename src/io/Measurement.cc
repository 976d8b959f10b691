// Marking measurements of the run on an output file's objects (see Measurement.hh).
#include "io/Measurement.hh"

#include "io/H5Access.hh"

namespace gt {

void mark_measurement(hid_t object, std::string_view kind)
{
    h5::write_attribute(object, k_measurement_attribute, kind);
}

void mark_measured_attribute(hid_t object, std::string const& attribute, std::string_view kind)
{
    h5::write_attribute(object, std::string(k_measured_attribute_prefix) + attribute, kind);
}

}  // namespace gt
