// Damaging a checksummed HDF5 dataset on purpose, as a failing disk or a bad copy would (checkpoint and
// output checksum tests).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <hdf5.h>

#include "io/H5Access.hh"

namespace gt::test {

//! Flips bit `bit` of the stored bytes of value `index` of the checksummed 1D float64 dataset `path`
//! (within its first chunk): the stored chunk is rewritten as it is (H5Dwrite_chunk bypasses the
//! filters), so its Fletcher-32 checksum no longer matches.
inline void flip_stored_bit(std::string const& file_path, std::string const& path, std::size_t index, int bit)
{
    h5::File f(H5Fopen(file_path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    REQUIRE(f.valid());
    REQUIRE(h5::has_checksum(f, path));
    h5::Dataset ds(H5Dopen2(f, path.c_str(), H5P_DEFAULT));
    hsize_t const origin[1] = {0};
    hsize_t bytes = 0;
    REQUIRE(H5Dget_chunk_storage_size(ds, origin, &bytes) >= 0);
    REQUIRE(bytes >= 8 * (index + 1) + 4);  // the chunk's values, then its 4-byte checksum
    std::vector<unsigned char> chunk(bytes);
    std::uint32_t filters = 0;
    REQUIRE(H5Dread_chunk(ds, H5P_DEFAULT, origin, &filters, chunk.data()) >= 0);
    chunk[8 * index + std::size_t(bit / 8)] ^= static_cast<unsigned char>(1u << (bit % 8));
    REQUIRE(H5Dwrite_chunk(ds, H5P_DEFAULT, filters, origin, bytes, chunk.data()) >= 0);
}

}  // namespace gt::test
