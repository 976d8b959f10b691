// 3D field-map files (HDF5; the layout is in docs/decks.md, "3D field-map files"): read and
// validated, in SI.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace gt {

//! A validated map: a uniform grid of at least 2 nodes per axis, finite values, units converted.
struct FieldMap3DFile {
    std::string path;
    std::array<std::int32_t, 3> dimensions{};  //!< nodes along x, y, z
    std::array<double, 3> origin{};            //!< [m] node (0, 0, 0)
    std::array<double, 3> spacing{};           //!< [m]
    std::vector<double> e;                     //!< [V/m] node-major, x y z per node; empty: no E
    std::vector<double> b;                     //!< [T] node-major, x y z per node; empty: no B
    double frequency = 0.0;                    //!< [Hz] the file's `frequency`; 0: none stated

    std::int64_t nodes() const
    {
        return std::int64_t(dimensions[0]) * dimensions[1] * dimensions[2];
    }
};

//! What is wrong with a field-map file; the message starts "field map 'PATH': ".
class FieldMapFileError : public std::invalid_argument {
  public:
    using std::invalid_argument::invalid_argument;
};

//! Reads and checks the map at `path`; throws FieldMapFileError naming the file and the problem.
FieldMap3DFile read_field_map_3d(std::string const& path);

}  // namespace gt
