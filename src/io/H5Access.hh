// Typed reads and writes of HDF5 groups, datasets and attributes, on top of the RAII handles.
//
// Conventions (shared by every gtrack file, see docs/output.md):
// - numbers are stored little-endian (IEEE f64, two's-complement integers), read back in native types;
// - strings are fixed-length, NUL-terminated ASCII, because the openPMD standard asks for them and
//   h5py then returns bytes that openPMD-viewer decodes; readers accept variable-length ones as well;
// - writing an attribute that exists replaces it;
// - paths are relative to `loc` ("a/b/c"); a leading "/" makes them absolute in the file.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/H5Handle.hh"

namespace gt::h5 {

//! Whether `path` below `loc` names an existing link (group or dataset), checking each component.
bool exists(hid_t loc, std::string const& path);
//! Opens the group at `path`, creating it and any missing parents ("a/b/c").
Group create_groups(hid_t loc, std::string const& path);
Group open_group(hid_t loc, std::string const& path);
Dataset open_dataset(hid_t loc, std::string const& path);
//! Opens a group or dataset by path, for attributes on either.
Object open_object(hid_t loc, std::string const& path);
//! Whether `path` below `loc` is a group (false for datasets and missing links).
bool is_group(hid_t loc, std::string const& path);
//! Names of the links directly inside a group, in name order.
std::vector<std::string> list_children(hid_t group);

// ---- datasets: one-dimensional, and a row-major matrix ----------------------------------------
//! Every non-empty dataset the functions below create is chunked (at most 2^16 values a chunk) with
//! HDF5's Fletcher-32 checksum filter, which HDF5 verifies on every read of a chunk: a damaged value
//! makes the read throw ChecksumError naming the dataset and file. So are outputs and checkpoints
//! (docs/output.md, docs/checkpoint.md). A deck's `output.checksums = false` turns them off for its
//! output file (set_output_checksums), never for checkpoints (ChecksummedDatasets). A measuring aid,
//! never for production: GTRACK_TEST_NO_CHECKSUMS=1 in the environment turns them off everywhere.
inline constexpr char const* k_no_checksums_variable = "GTRACK_TEST_NO_CHECKSUMS";
//! Whether datasets created now are written with checksums: not with GTRACK_TEST_NO_CHECKSUMS; else
//! inside a ChecksummedDatasets scope, or when outputs carry them (set_output_checksums, default on).
bool checksums_on();
//! Whether the output files written from now on carry checksums (a deck's output.checksums).
void set_output_checksums(bool on);
//! While one lives, the datasets created carry checksums whatever output.checksums says: checkpoints,
//! whose data must be verified when a run resumes. Nests; one thread writes files at a time.
class ChecksummedDatasets {
  public:
    ChecksummedDatasets();
    ~ChecksummedDatasets();
    ChecksummedDatasets(ChecksummedDatasets const&) = delete;
    ChecksummedDatasets& operator=(ChecksummedDatasets const&) = delete;
};
//! Whether the dataset at `path` carries the Fletcher-32 checksum filter.
bool has_checksum(hid_t loc, std::string const& path);

void write_dataset(hid_t loc, std::string const& name, std::span<double const> values);
void write_dataset(hid_t loc, std::string const& name, std::span<std::int32_t const> values);
void write_dataset(hid_t loc, std::string const& name, std::span<std::int64_t const> values);
void write_dataset(hid_t loc, std::string const& name, std::span<std::uint64_t const> values);
//! An empty one-dimensional dataset of `size` numbers (stored as write_dataset stores that type), to
//! be filled piece by piece with write_slab: how ranks write their shares of one array in turn.
Dataset create_dataset_1d(hid_t loc, std::string const& name, std::size_t size, double type_tag);
Dataset create_dataset_1d(hid_t loc, std::string const& name, std::size_t size, std::int64_t type_tag);
Dataset create_dataset_1d(hid_t loc, std::string const& name, std::size_t size, std::uint64_t type_tag);
//! Writes `values` into elements [offset, offset + values.size()) of a one-dimensional dataset.
void write_slab(hid_t dataset, std::size_t offset, std::span<double const> values);
void write_slab(hid_t dataset, std::size_t offset, std::span<std::int64_t const> values);
void write_slab(hid_t dataset, std::size_t offset, std::span<std::uint64_t const> values);
//! `values` holds rows * cols numbers, row after row.
void write_dataset_2d(hid_t loc, std::string const& name, std::span<double const> values, std::size_t rows,
                      std::size_t cols);

//! Reads a one-dimensional dataset, converting from its stored numeric type (HDF5 converts).
std::vector<double> read_doubles(hid_t loc, std::string const& path);
std::vector<std::int64_t> read_int64s(hid_t loc, std::string const& path);
std::vector<std::uint64_t> read_uint64s(hid_t loc, std::string const& path);
//! The length of a one-dimensional numeric dataset, without reading it.
std::size_t length_1d(hid_t loc, std::string const& path);
//! The `count` values from `offset` on of a 1D dataset (a hyperslab); IoError when it is shorter.
std::vector<double> read_doubles(hid_t loc, std::string const& path, std::size_t offset, std::size_t count);
std::vector<std::int64_t> read_int64s(hid_t loc, std::string const& path, std::size_t offset,
                                      std::size_t count);
std::vector<std::uint64_t> read_uint64s(hid_t loc, std::string const& path, std::size_t offset,
                                        std::size_t count);
struct Matrix {
    std::size_t rows = 0, cols = 0;
    std::vector<double> values;  //!< row-major
};
Matrix read_matrix(hid_t loc, std::string const& path);

//! The stored element class of a dataset: H5T_FLOAT, H5T_INTEGER, ...; with signedness for integers.
struct StoredType {
    H5T_class_t type_class = H5T_NO_CLASS;
    bool is_signed = true;
};
StoredType stored_type(hid_t loc, std::string const& path);

// ---- attributes on any group or dataset -------------------------------------------------------
void write_attribute(hid_t obj, std::string const& name, std::string_view value);
void write_attribute(hid_t obj, std::string const& name, double value);
void write_attribute(hid_t obj, std::string const& name, std::int32_t value);
void write_attribute(hid_t obj, std::string const& name, std::uint32_t value);
void write_attribute(hid_t obj, std::string const& name, std::int64_t value);
void write_attribute(hid_t obj, std::string const& name, std::uint64_t value);
void write_attribute(hid_t obj, std::string const& name, std::span<double const> values);
void write_attribute(hid_t obj, std::string const& name, std::span<std::int64_t const> values);
void write_attribute(hid_t obj, std::string const& name, std::span<std::uint64_t const> values);
void write_attribute(hid_t obj, std::string const& name, std::span<std::string const> values);

bool has_attribute(hid_t obj, std::string const& name);
//! Readers throw IoError naming the object and attribute when it is missing or of the wrong kind.
std::string read_string_attribute(hid_t obj, std::string const& name);
std::vector<std::string> read_string_array_attribute(hid_t obj, std::string const& name);
double read_double_attribute(hid_t obj, std::string const& name);
std::int64_t read_int64_attribute(hid_t obj, std::string const& name);
std::uint64_t read_uint64_attribute(hid_t obj, std::string const& name);
std::vector<double> read_double_array_attribute(hid_t obj, std::string const& name);
std::vector<std::uint64_t> read_uint64_array_attribute(hid_t obj, std::string const& name);

}  // namespace gt::h5
