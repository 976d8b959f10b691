// Checksummed chunks written directly (io/ChecksummedChunks.hh, io/Fletcher32.hh): the checksum is the
// one HDF5's fletcher32 filter stores, the chunks are the ones the filter path stores, HDF5 verifies
// them on reading, and a damaged chunk or a wrong sum makes the read fail.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "IoTestSupport.hh"
#include "io/ChecksummedChunks.hh"
#include "io/Fletcher32.hh"
#include "io/H5Access.hh"
#include "io/H5Handle.hh"

using namespace gt;
using namespace gt::test;

namespace {

h5::File create_file(std::string const& path)
{
    h5::File f(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
    REQUIRE(f.valid());
    return f;
}

//! A one-dimensional dataset of `length` values of `type`, chunks of `chunk` values, Fletcher-32.
h5::Dataset create_checksummed(hid_t file, std::string const& name, hid_t type, std::size_t length,
                               std::size_t chunk)
{
    hsize_t const dims[1] = {length}, chunk_dims[1] = {chunk};
    h5::Dataspace space(H5Screate_simple(1, dims, nullptr));
    h5::PropertyList dcpl(H5Pcreate(H5P_DATASET_CREATE));
    REQUIRE(H5Pset_chunk(dcpl, 1, chunk_dims) >= 0);
    REQUIRE(H5Pset_fletcher32(dcpl) >= 0);
    h5::Dataset ds(H5Dcreate2(file, name.c_str(), type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT));
    REQUIRE(ds.valid());
    return ds;
}

//! The stored bytes of the chunk that starts at value `origin` (values then checksum), as on disk.
std::vector<unsigned char> stored_chunk(hid_t ds, std::size_t origin)
{
    hsize_t const at[1] = {origin};
    hsize_t bytes = 0;
    REQUIRE(H5Dget_chunk_storage_size(ds, at, &bytes) >= 0);
    std::vector<unsigned char> chunk(bytes);
    std::uint32_t filters = 1;
    REQUIRE(H5Dread_chunk(ds, H5P_DEFAULT, at, &filters, chunk.data()) >= 0);
    CHECK(filters == 0);  // the filter was applied (not skipped) for this chunk
    return chunk;
}

std::uint32_t little_endian_at(std::vector<unsigned char> const& b, std::size_t at)
{
    return std::uint32_t(b[at]) | std::uint32_t(b[at + 1]) << 8 | std::uint32_t(b[at + 2]) << 16 |
           std::uint32_t(b[at + 3]) << 24;
}

//! Sets or unsets GTRACK_TEST_FILTER_CHECKSUMS while it lives (write_slab reads it at each write).
struct FilterPath {
    explicit FilterPath(bool on)
    {
        if (on)
            ::setenv(h5::k_filter_checksums_variable, "1", 1);
        else
            ::unsetenv(h5::k_filter_checksums_variable);
    }
    ~FilterPath() { ::unsetenv(h5::k_filter_checksums_variable); }
};

//! Writes `values` into `ds` with h5::write_slab, in pieces of the sizes `pieces` cycles through.
template <class T>
void write_in_pieces(hid_t ds, std::vector<T> const& values, std::vector<std::size_t> const& pieces)
{
    std::size_t offset = 0;
    for (std::size_t k = 0; offset < values.size(); ++k) {
        std::size_t const n = std::min(pieces[k % pieces.size()], values.size() - offset);
        h5::write_slab(ds, offset, std::span<T const>(values.data() + offset, n));
        offset += n;
    }
}

}  // namespace

TEST_CASE("fletcher32 is the checksum HDF5's fletcher32 filter stores after each chunk")
{
    // Chunk sizes around what the definition singles out: an odd byte count (the last byte is a word of
    // its own), HDF5's 360-word folding, and this implementation's 16-word groups and 4096-word blocks.
    TempDir dir;
    h5::File f = create_file(dir.file("bytes.h5"));
    std::mt19937_64 rng(20261127);
    int tested = 0;
    for (std::size_t const chunk : {1, 2, 3, 31, 32, 33, 719, 720, 721, 8191, 8192, 8209, 65537, 262147}) {
        for (int pattern = 0; pattern < 3; ++pattern) {
            // Two whole chunks and a last one of a third: the filter stores the last one whole too.
            std::size_t const length = 2 * chunk + (chunk + 2) / 3;
            std::vector<unsigned char> data(length);
            for (auto& b : data)
                b = pattern == 0 ? static_cast<unsigned char>(rng()) : pattern == 1 ? 0xff : 0x00;
            std::string const name = "c" + std::to_string(chunk) + "p" + std::to_string(pattern);
            h5::Dataset ds = create_checksummed(f, name, H5T_NATIVE_UINT8, length, chunk);
            REQUIRE(H5Dwrite(ds, H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) >= 0);
            REQUIRE(H5Fflush(f, H5F_SCOPE_LOCAL) >= 0);
            for (std::size_t origin = 0; origin < length; origin += chunk) {
                CAPTURE(chunk);
                CAPTURE(pattern);
                CAPTURE(origin);
                std::vector<unsigned char> const stored = stored_chunk(ds, origin);
                REQUIRE(stored.size() == chunk + 4);
                // The values, then zeros (HDF5's default fill value) past the dataset's end.
                std::vector<unsigned char> values(chunk, 0);
                std::copy(data.begin() + long(origin), data.begin() + long(std::min(origin + chunk, length)),
                          values.begin());
                CHECK(std::equal(values.begin(), values.end(), stored.begin()));
                auto const ours = h5::fletcher32(std::as_bytes(std::span(stored.data(), chunk)));
                CHECK(ours == little_endian_at(stored, chunk));
                ++tested;
            }
        }
    }
    CHECK(tested == 14 * 3 * 3);
}

TEST_CASE("write_slab's direct checksummed chunks are the filter's chunks, whatever the pieces")
{
    TempDir dir;
    h5::File f = create_file(dir.file("slabs.h5"));
    std::mt19937_64 rng(7);
    // Chunk sizes from one value to gtrack's 2^16; lengths with and without a partial last chunk; pieces
    // that start and end inside chunks, span several, or are one value.
    struct Case {
        std::size_t chunk, length;
        std::vector<std::size_t> pieces;
    };
    std::vector<Case> const cases = {
        {1, 37, {1, 5, 2}},
        {7, 7 * 12 + 3, {3, 20, 1, 7, 14}},
        {1000, 9 * 1000 + 999, {2500, 1, 1000, 4321}},
        {1000, 8000, {8000}},
        {std::size_t(1) << 16, 3 * (std::size_t(1) << 16) + 12345, {100000, 70001, std::size_t(1) << 16}},
        {4999, 4999, {4999}},        // one chunk, the whole dataset
        {4999, 4999, {2000, 2999}},  // no whole chunk in either piece: all through the hyperslab write
    };
    int engaged = 0;
    for (std::size_t c = 0; c < cases.size(); ++c) {
        Case const& k = cases[c];
        CAPTURE(k.chunk);
        CAPTURE(k.length);
        std::vector<double> x(k.length);
        std::vector<std::uint64_t> id(k.length);
        for (std::size_t i = 0; i < k.length; ++i) {
            x[i] = std::ldexp(double(rng() >> 11), -53) - 0.5;
            id[i] = rng();
        }
        std::string const tag = std::to_string(c);
        h5::Dataset direct_x = create_checksummed(f, "direct_x" + tag, H5T_IEEE_F64LE, k.length, k.chunk);
        h5::Dataset direct_id = create_checksummed(f, "direct_id" + tag, H5T_STD_U64LE, k.length, k.chunk);
        h5::Dataset filter_x = create_checksummed(f, "filter_x" + tag, H5T_IEEE_F64LE, k.length, k.chunk);
        h5::Dataset filter_id = create_checksummed(f, "filter_id" + tag, H5T_STD_U64LE, k.length, k.chunk);
        {
            FilterPath const path(false);
            auto const layout = h5::checksummed_layout(direct_x, H5T_NATIVE_DOUBLE);
            REQUIRE(layout.has_value());  // the direct path is taken, not the filter
            CHECK(layout->chunk_values == k.chunk);
            CHECK(layout->value_bytes == 8);
            engaged += layout.has_value();
            write_in_pieces(direct_x, x, k.pieces);
            write_in_pieces(direct_id, id, k.pieces);
        }
        {
            FilterPath const path(true);
            CHECK_FALSE(h5::checksummed_layout(filter_x, H5T_NATIVE_DOUBLE).has_value());
            write_in_pieces(filter_x, x, k.pieces);
            write_in_pieces(filter_id, id, k.pieces);
        }
        REQUIRE(H5Fflush(f, H5F_SCOPE_LOCAL) >= 0);
        // HDF5 reads them back, verifying every chunk's checksum.
        CHECK(h5::read_doubles(f, "direct_x" + tag) == x);
        CHECK(h5::read_uint64s(f, "direct_id" + tag) == id);
        CHECK(h5::read_doubles(f, "filter_x" + tag) == x);
        // Byte for byte the chunks the filter stored: values, zeros past the end, checksum.
        for (std::size_t origin = 0; origin < k.length; origin += k.chunk) {
            CAPTURE(origin);
            CHECK(stored_chunk(direct_x, origin) == stored_chunk(filter_x, origin));
            CHECK(stored_chunk(direct_id, origin) == stored_chunk(filter_id, origin));
        }
    }
    CHECK(engaged == int(cases.size()));
}

TEST_CASE("whole_chunks: the values of a piece that fill chunks, the dataset's last chunk included")
{
    h5::ChecksummedLayout const l{25, 10, 8};  // chunks [0,10) [10,20) [20,25)
    auto const range = [&](std::size_t offset, std::size_t count) {
        auto const r = l.whole_chunks(offset, count);
        return std::pair(r.first, r.last);
    };
    CHECK(range(0, 25) == std::pair<std::size_t, std::size_t>(0, 25));
    CHECK(range(0, 19) == std::pair<std::size_t, std::size_t>(0, 10));
    CHECK(range(3, 22) == std::pair<std::size_t, std::size_t>(10, 25));
    CHECK(range(3, 7) == std::pair<std::size_t, std::size_t>(3, 3));     // ends at a boundary: none whole
    CHECK(range(3, 5) == std::pair<std::size_t, std::size_t>(3, 3));     // inside one chunk
    CHECK(range(21, 4) == std::pair<std::size_t, std::size_t>(21, 21));  // inside the last chunk
    CHECK(range(20, 5) == std::pair<std::size_t, std::size_t>(20, 25));
}

TEST_CASE("HDF5 refuses a directly written chunk with a wrong sum or a damaged byte")
{
    TempDir dir;
    std::string const path = dir.file("damaged.h5");
    std::size_t const chunk = 1000, length = 3 * chunk;
    std::vector<double> x(length);
    for (std::size_t i = 0; i < length; ++i) x[i] = 0.25 * double(i) - 3.0;
    haddr_t second_chunk_address = 0;
    {
        h5::File f = create_file(path);
        h5::Dataset a = create_checksummed(f, "a", H5T_IEEE_F64LE, length, chunk);
        h5::write_slab(a, 0, std::span<double const>(x));
        // "b": the same values, chunk 0 stored with its checksum plus one.
        h5::Dataset b = create_checksummed(f, "b", H5T_IEEE_F64LE, length, chunk);
        h5::write_slab(b, 0, std::span<double const>(x));
        std::vector<unsigned char> stored = stored_chunk(b, 0);
        std::uint32_t const sum = little_endian_at(stored, 8 * chunk) + 1;
        h5::store_fletcher32(sum, reinterpret_cast<std::byte*>(stored.data() + 8 * chunk));
        hsize_t const origin[1] = {0};
        REQUIRE(H5Dwrite_chunk(b, H5P_DEFAULT, 0, origin, stored.size(), stored.data()) >= 0);
        hsize_t const second[1] = {chunk};
        unsigned mask = 0;
        hsize_t size = 0;
        REQUIRE(H5Dget_chunk_info_by_coord(a, second, &mask, &second_chunk_address, &size) >= 0);
        REQUIRE(size == 8 * chunk + 4);
    }
    {
        h5::File f = h5::open_file_readonly(path);
        CHECK(h5::read_doubles(f, "a") == x);
        CHECK(io_error_of([&] { h5::read_doubles(f, "b"); }).find("do not match their checksum") !=
              std::string::npos);
        CHECK_THROWS_AS(h5::read_doubles(f, "b"), ChecksumError);
        // The chunks that carry their own sums still read.
        CHECK(h5::read_doubles(f, "b", chunk, 2 * chunk) == std::vector<double>(x.begin() + chunk, x.end()));
    }
    // A byte of "a"'s second chunk damaged in the file itself, as a failing disk would.
    {
        int const fd = ::open(path.c_str(), O_RDWR);
        REQUIRE(fd >= 0);
        unsigned char byte = 0;
        off_t const at = off_t(second_chunk_address) + 8 * 123 + 2;
        REQUIRE(::pread(fd, &byte, 1, at) == 1);
        byte ^= 0x10;
        REQUIRE(::pwrite(fd, &byte, 1, at) == 1);
        ::close(fd);
    }
    h5::File f = h5::open_file_readonly(path);
    CHECK_THROWS_AS(h5::read_doubles(f, "a"), ChecksumError);
    CHECK(h5::read_doubles(f, "a", 0, chunk) == std::vector<double>(x.begin(), x.begin() + chunk));
}

TEST_CASE("reading verifies the chunks with a few threads: the values HDF5 reads, a flipped byte refused")
{
    // 40 chunks of 1000 values (the reader's threads take turns: more chunks than two buffers a thread),
    // written directly; a byte of chunk 29 then flipped in the file, as a failing disk would.
    TempDir dir;
    std::string const path = dir.file("verified.h5");
    std::size_t const chunk = 1000, length = 40 * chunk - 123;  // a shorter last chunk
    std::vector<double> x(length);
    std::mt19937_64 rng(7);
    std::normal_distribution<double> normal;
    for (double& v : x) v = normal(rng);
    std::vector<std::int64_t> ids(length);
    for (std::size_t i = 0; i < length; ++i) ids[i] = std::int64_t(i * i) - 5;
    haddr_t address = 0;
    {
        h5::File f = create_file(path);
        h5::Dataset a = create_checksummed(f, "a", H5T_IEEE_F64LE, length, chunk);
        write_in_pieces(a, x, {4321, 999, 17000});
        h5::Dataset b = create_checksummed(f, "ids", H5T_STD_I64LE, length, chunk);
        h5::write_slab(b, 0, std::span<std::int64_t const>(ids));
        // "c": chunk 3 stored with its sum's 16-bit halves byte-swapped, as HDF5 before 1.6.3 wrote it on
        // little-endian machines; HDF5 reads such a chunk, and so must we.
        h5::Dataset c = create_checksummed(f, "c", H5T_IEEE_F64LE, length, chunk);
        h5::write_slab(c, 0, std::span<double const>(x));
        std::vector<unsigned char> stored = stored_chunk(c, 3 * chunk);
        std::uint32_t const sum = little_endian_at(stored, 8 * chunk);
        std::uint32_t const swapped = ((sum & 0x00ff00ffu) << 8) | ((sum >> 8) & 0x00ff00ffu);
        REQUIRE(swapped != sum);
        h5::store_fletcher32(swapped, reinterpret_cast<std::byte*>(stored.data() + 8 * chunk));
        hsize_t const origin[1] = {3 * chunk};
        REQUIRE(H5Dwrite_chunk(c, H5P_DEFAULT, 0, origin, stored.size(), stored.data()) >= 0);
        hsize_t const at[1] = {29 * chunk};
        unsigned mask = 0;
        hsize_t size = 0;
        REQUIRE(H5Dget_chunk_info_by_coord(a, at, &mask, &address, &size) >= 0);
    }
    // Undamaged: the same values through the threads and through HDF5's filter, whole and in slabs.
    for (bool filter : {false, true}) {
        FilterPath const through_hdf5(filter);
        h5::File f = h5::open_file_readonly(path);
        CHECK(h5::read_doubles(f, "a") == x);
        CHECK(h5::read_int64s(f, "ids") == ids);
        CHECK(h5::read_doubles(f, "c") == x);
        CHECK(h5::read_doubles(f, "a", 1500, 20000) ==
              std::vector<double>(x.begin() + 1500, x.begin() + 21500));
        CHECK(h5::read_doubles(f, "a", length - 10, 10) == std::vector<double>(x.end() - 10, x.end()));
    }
    {
        int const fd = ::open(path.c_str(), O_RDWR);
        REQUIRE(fd >= 0);
        unsigned char byte = 0;
        off_t const at = off_t(address) + 8 * 456 + 5;
        REQUIRE(::pread(fd, &byte, 1, at) == 1);
        byte ^= 0x01;
        REQUIRE(::pwrite(fd, &byte, 1, at) == 1);
        ::close(fd);
    }
    h5::File f = h5::open_file_readonly(path);
    // The threads name the damaged chunk (HDF5's own error does not).
    std::string const whole = io_error_of([&] { h5::read_doubles(f, "a"); });
    CHECK(whole.find("do not match their checksum") != std::string::npos);
    CHECK(whole.find("the chunk of values 29000 to 29999") != std::string::npos);
    CHECK_THROWS_AS(h5::read_doubles(f, "a"), ChecksumError);
    CHECK_THROWS_AS(h5::read_doubles(f, "a", 29990, 20), ChecksumError);  // the damaged chunk's last values
    CHECK(h5::read_doubles(f, "a", 0, 29000) == std::vector<double>(x.begin(), x.begin() + 29000));
    CHECK(h5::read_doubles(f, "a", 30000, length - 30000) == std::vector<double>(x.begin() + 30000, x.end()));
    // HDF5's filter refuses the same chunk.
    FilterPath const through_hdf5(true);
    CHECK_THROWS_AS(h5::read_doubles(f, "a"), ChecksumError);
}
