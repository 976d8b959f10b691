// Helpers of the HDF5 fuzz targets: a scratch file per process, and values drawn from the fuzzer's
// bytes that are plausible, special (NaN, infinities, zero, extremes) or arbitrary, so that both the
// happy path and every check along it are reached.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include <hdf5.h>

#include "io/H5Access.hh"
#include "io/H5Handle.hh"

namespace gt::fuzz {

//! A file name private to this process (parallel fuzzing jobs must not share it).
inline std::string scratch_file(char const* stem)
{
    char const* dir = std::getenv("TMPDIR");
    return std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/" + stem + "-" +
           std::to_string(::getpid()) + ".h5";
}

//! A new empty HDF5 file at path (replacing any).
inline h5::File create_file(std::string const& path)
{
    return h5::File(h5::check_path(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
                                   "H5Fcreate", path));
}

inline double pick_double(FuzzedDataProvider& in, double plausible)
{
    static double const special[] = {std::numeric_limits<double>::quiet_NaN(),
                                     std::numeric_limits<double>::infinity(),
                                     -std::numeric_limits<double>::infinity(),
                                     0.0,
                                     -0.0,
                                     std::numeric_limits<double>::denorm_min(),
                                     std::numeric_limits<double>::max(),
                                     -1.0,
                                     1e300};
    switch (in.ConsumeIntegralInRange(0, 3)) {
        case 0:
            return special[in.ConsumeIntegralInRange<std::size_t>(0, std::size(special) - 1)];
        case 1:
            return in.ConsumeFloatingPoint<double>();
        default:
            return plausible;
    }
}

//! Writes a numeric attribute as asked by the input: left out, of the wrong type, or a double.
inline void write_number_attribute(hid_t obj, std::string const& name, FuzzedDataProvider& in, double plausible)
{
    switch (in.ConsumeIntegralInRange(0, 5)) {
        case 0:
            return;
        case 1:
            h5::write_attribute(obj, name, in.ConsumeRandomLengthString(8));
            return;
        case 2:
            h5::write_attribute(obj, name, in.ConsumeIntegral<std::int64_t>());
            return;
        case 3: {
            std::vector<double> const two{pick_double(in, plausible), pick_double(in, plausible)};
            h5::write_attribute(obj, name, std::span<double const>(two));
            return;
        }
        default:
            h5::write_attribute(obj, name, pick_double(in, plausible));
    }
}

//! A length near `n` (the plausible one), or an arbitrary 64-bit one.
inline std::uint64_t pick_length(FuzzedDataProvider& in, std::uint64_t n)
{
    switch (in.ConsumeIntegralInRange(0, 5)) {
        case 0:
            return in.ConsumeIntegral<std::uint64_t>();
        case 1:
            return n + in.ConsumeIntegralInRange(0, 3);
        case 2:
            return n > 0 ? n - 1 : 0;
        default:
            return n;
    }
}

}  // namespace gt::fuzz
