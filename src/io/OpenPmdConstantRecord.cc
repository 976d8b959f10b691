// Expanding an openPMD constant record component after checking its shape against the particle count.
#include "io/OpenPmdConstantRecord.hh"

#include <limits>

#include <fmt/format.h>

#include "io/H5Access.hh"

namespace gt {

std::vector<double> read_constant_record(hid_t species, std::string const& name, std::uint64_t particles,
                                         std::string const& counted_by)
{
    h5::Group g = h5::open_group(species, name);
    if (!h5::has_attribute(g, "value") || !h5::has_attribute(g, "shape"))
        throw ConstantRecordError(fmt::format("record '{}' is a group without 'value' and 'shape'", name));
    std::vector<std::uint64_t> const shape = h5::read_uint64_array_attribute(g, "shape");
    std::uint64_t n = 1;
    for (std::uint64_t const extent : shape)
        if (__builtin_mul_overflow(n, extent, &n)) n = std::numeric_limits<std::uint64_t>::max();
    if (n != particles)
        throw ConstantRecordError(fmt::format("constant record '{}' has {} values, but {} is {} (shape [{}])",
                                              name, n, counted_by, particles, fmt::join(shape, ", ")));
    return std::vector<double>(particles, h5::read_double_attribute(g, "value"));
}

}  // namespace gt
