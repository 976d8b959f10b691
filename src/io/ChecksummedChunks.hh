// Checksummed chunks written directly: Fletcher-32 computed by a few threads, chunks handed to HDF5 filtered.
//
// A dataset with HDF5's fletcher32 filter (H5Access.hh) is normally written through the filter
// pipeline: HDF5 copies each chunk, checksums it in the one thread that writes, and writes it; at
// 0.45 s a GB (docs/performance.md) that doubled a 14 GB snapshot. Here a small pool of threads copies
// each chunk into a buffer and appends its checksum (Fletcher32.hh), while the calling thread hands
// the finished chunks, in order, to H5Dwrite_chunk (HDF5 >= 1.10.3), which stores them as they are.
// The chunk on disk is the one the filter would have stored: the values, zero beyond the dataset's
// end in its last chunk (HDF5's default fill value), then the checksum; every HDF5 reader verifies it
// as it reads (tests/ChecksummedChunksTest.cc, tests/python/checksummed_chunks_test.py).
// Host memory: two chunk buffers a thread. Reading verifies the chunks the same way
// (read_checksummed_chunks).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>

#include "io/H5Handle.hh"

namespace gt::h5 {

//! A one-dimensional chunked dataset whose only filter is Fletcher-32 and whose stored type has the
//! bytes of the memory type it is written from: what write_checksummed_chunks can write.
struct ChecksummedLayout {
    std::size_t length = 0;        //!< values in the dataset
    std::size_t chunk_values = 0;  //!< values a chunk
    std::size_t value_bytes = 0;   //!< bytes a value

    //! The values [first, last) of [offset, offset + count) that fill whole chunks (the dataset's last
    //! chunk counts as whole when the values reach the dataset's end); first == last when none.
    struct Range {
        std::size_t first = 0, last = 0;
    };
    Range whole_chunks(std::size_t offset, std::size_t count) const;
};

//! Measuring aid, never for production: GTRACK_TEST_FILTER_CHECKSUMS=1 in the environment writes
//! checksummed datasets through HDF5's filter instead (read at each write).
inline constexpr char const* k_filter_checksums_variable = "GTRACK_TEST_FILTER_CHECKSUMS";

//! The layout of `dataset` when written from `memory_type` values it can be written directly; nullopt
//! when it cannot (not chunked, another filter, a byte order to convert, more dimensions) or when
//! GTRACK_TEST_FILTER_CHECKSUMS is set.
std::optional<ChecksummedLayout> checksummed_layout(hid_t dataset, hid_t memory_type);

//! Writes the values starting at `first` (a chunk boundary), `bytes` holding whole chunks of values
//! (the last may be the dataset's shorter last chunk), as checksummed chunks through H5Dwrite_chunk.
//! The calling thread is the only one that enters HDF5. Throws IoError naming the dataset on failure.
void write_checksummed_chunks(hid_t dataset, ChecksummedLayout const& layout, std::size_t first,
                              std::span<std::byte const> bytes);

//! Reads the values [first, first + count) of a dataset of `layout` into `out` (count values of
//! layout.value_bytes each) as raw chunks (H5Dread_chunk), each verified against its stored Fletcher-32 by
//! a few threads, as HDF5's filter does on a read in the one thread that reads (it accepts the sum and the
//! sum with the bytes of each 16-bit half swapped, written by HDF5 before 1.6.3: H5Zfletcher32.c). The
//! calling thread is the only one that enters HDF5. Returns false when a chunk of the range is not
//! stored whole with its checksum (never written, or written without the filter): the caller reads the
//! range through HDF5 instead (`out` may hold some of it). Throws ChecksumError naming `object` (describe())
//! when a chunk's checksum does not match, IoError when HDF5 fails.
bool read_checksummed_chunks(hid_t dataset, ChecksummedLayout const& layout, std::size_t first,
                             std::span<std::byte> out, std::string const& object);

}  // namespace gt::h5
