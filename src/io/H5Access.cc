// Typed reads and writes of HDF5 groups, datasets and attributes (conventions in H5Access.hh).
#include "io/H5Access.hh"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <optional>

#include <fmt/format.h>

#include "io/ChecksummedChunks.hh"

namespace gt::h5 {
namespace {

//! File (little-endian, fixed) and memory (native) types for each element type we store.
template <class T>
struct TypeOf;
template <>
struct TypeOf<double> {
    static hid_t file() { return H5T_IEEE_F64LE; }
    static hid_t memory() { return H5T_NATIVE_DOUBLE; }
};
template <>
struct TypeOf<std::int32_t> {
    static hid_t file() { return H5T_STD_I32LE; }
    static hid_t memory() { return H5T_NATIVE_INT32; }
};
template <>
struct TypeOf<std::uint32_t> {
    static hid_t file() { return H5T_STD_U32LE; }
    static hid_t memory() { return H5T_NATIVE_UINT32; }
};
template <>
struct TypeOf<std::int64_t> {
    static hid_t file() { return H5T_STD_I64LE; }
    static hid_t memory() { return H5T_NATIVE_INT64; }
};
template <>
struct TypeOf<std::uint64_t> {
    static hid_t file() { return H5T_STD_U64LE; }
    static hid_t memory() { return H5T_NATIVE_UINT64; }
};

constexpr hsize_t k_chunk_values = hsize_t{1} << 16;  //!< 512 KiB of doubles: within HDF5's 1 MiB chunk cache

//! The creation properties of a dataset of `rank` dimensions `dims`: chunked with the Fletcher-32
//! filter (rows of a matrix stay whole in a chunk); contiguous when empty, or when checksums are off
//! (GTRACK_TEST_NO_CHECKSUMS, for measuring their cost).
PropertyList creation_properties(int rank, hsize_t const* dims, hid_t loc, std::string const& name)
{
    PropertyList p(check(H5Pcreate(H5P_DATASET_CREATE), "H5Pcreate", loc, name));
    if (!checksums_on() || std::any_of(dims, dims + rank, [](hsize_t d) { return d == 0; })) return p;
    hsize_t chunk[2] = {0, 0};
    hsize_t const row = rank == 2 ? dims[1] : 1;
    chunk[0] = std::min(dims[0], std::max<hsize_t>(1, k_chunk_values / row));
    if (rank == 2) chunk[1] = dims[1];
    check(H5Pset_chunk(p, rank, chunk), "H5Pset_chunk", loc, name);
    check(H5Pset_fletcher32(p), "H5Pset_fletcher32", loc, name);
    return p;
}

//! Splits "a/b/c" (or "/a/b/c") into its non-empty components.
std::vector<std::string> split_path(std::string const& path)
{
    std::vector<std::string> parts;
    std::size_t begin = 0;
    while (begin <= path.size()) {
        std::size_t end = path.find('/', begin);
        if (end == std::string::npos) end = path.size();
        if (end > begin) parts.push_back(path.substr(begin, end - begin));
        begin = end + 1;
    }
    return parts;
}

Dataspace simple_space(std::size_t n, hid_t loc, std::string const& name)
{
    // An empty array gets a null dataspace: zero-sized simple dataspaces are not portable for attributes.
    if (n == 0) return Dataspace(check(H5Screate(H5S_NULL), "H5Screate", loc, name));
    hsize_t const dims[1] = {static_cast<hsize_t>(n)};
    return Dataspace(check(H5Screate_simple(1, dims, nullptr), "H5Screate_simple", loc, name));
}

//! Values [offset, offset + values.size()) of a one-dimensional dataset, through HDF5's hyperslab
//! write (and its filters).
template <class T>
void write_hyperslab(hid_t dataset, std::size_t offset, std::span<T const> values)
{
    if (values.empty()) return;
    Dataspace file_space(check(H5Dget_space(dataset), "H5Dget_space", dataset, ""));
    hsize_t const start[1] = {static_cast<hsize_t>(offset)};
    hsize_t const count[1] = {static_cast<hsize_t>(values.size())};
    check(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, nullptr, count, nullptr),
          "H5Sselect_hyperslab", dataset, "");
    Dataspace memory_space(check(H5Screate_simple(1, count, nullptr), "H5Screate_simple", dataset, ""));
    check(H5Dwrite(dataset, TypeOf<T>::memory(), memory_space, file_space, H5P_DEFAULT, values.data()),
          "H5Dwrite", dataset, "");
}

//! A checksummed dataset's whole chunks go to disk directly, checksummed by a few threads
//! (ChecksummedChunks.hh); the partial chunks at either end of the values, and other datasets, through
//! HDF5's hyperslab write.
template <class T>
void write_slab_of(hid_t dataset, std::size_t offset, std::span<T const> values)
{
    if (values.empty()) return;
    std::optional<ChecksummedLayout> const layout = checksummed_layout(dataset, TypeOf<T>::memory());
    if (!layout) return write_hyperslab(dataset, offset, values);
    auto const [first, last] = layout->whole_chunks(offset, values.size());
    write_hyperslab(dataset, offset, values.first(first - offset));
    write_checksummed_chunks(dataset, *layout, first,
                             std::as_bytes(values.subspan(first - offset, last - first)));
    write_hyperslab(dataset, last, values.subspan(last - offset));
}

template <class T>
void write_1d(hid_t loc, std::string const& name, std::span<T const> values)
{
    // Datasets (unlike attributes) keep a rank-1 shape even when empty, so readers see a 0-length array.
    hsize_t const dims[1] = {static_cast<hsize_t>(values.size())};
    Dataspace space(check(H5Screate_simple(1, dims, nullptr), "H5Screate_simple", loc, name));
    PropertyList const dcpl = creation_properties(1, dims, loc, name);
    Dataset ds(check(H5Dcreate2(loc, name.c_str(), TypeOf<T>::file(), space, H5P_DEFAULT, dcpl, H5P_DEFAULT),
                     "H5Dcreate2", loc, name));
    write_slab_of(ds.get(), 0, values);
}

//! Opens `path` as a dataset of numbers and returns its element count; rank must be `rank`.
Dataset open_numeric(hid_t loc, std::string const& path, int rank, hsize_t* dims)
{
    if (!exists(loc, path)) throw IoError(fmt::format("{} does not exist", describe(loc, path)));
    Dataset ds = open_dataset(loc, path);
    Datatype type(check(H5Dget_type(ds), "H5Dget_type", loc, path));
    H5T_class_t const cls = H5Tget_class(type);
    if (cls != H5T_INTEGER && cls != H5T_FLOAT)
        throw IoError(fmt::format("{} does not hold numbers", describe(loc, path)));
    Dataspace space(check(H5Dget_space(ds), "H5Dget_space", loc, path));
    int const r = check(H5Sget_simple_extent_ndims(space), "H5Sget_simple_extent_ndims", loc, path);
    if (r != rank)
        throw IoError(fmt::format("{} has {} dimension(s), expected {}", describe(loc, path), r, rank));
    check(H5Sget_simple_extent_dims(space, dims, nullptr), "H5Sget_simple_extent_dims", loc, path);
    return ds;
}

//! Values [offset, offset + values.size()) of `ds` (`path` below `loc`): a checksummed dataset's chunks
//! read raw and verified by a few threads (ChecksummedChunks.hh), as they were checksummed when written;
//! other datasets, and chunks stored otherwise, through HDF5's read (which verifies in its one thread).
template <class T>
void read_slab_of(hid_t ds, std::size_t offset, std::span<T> values, hid_t loc, std::string const& path)
{
    if (values.empty()) return;
    std::optional<ChecksummedLayout> const layout = checksummed_layout(ds, TypeOf<T>::memory());
    if (layout &&
        read_checksummed_chunks(ds, *layout, offset, std::as_writable_bytes(values), describe(loc, path)))
        return;
    Dataspace file_space(check(H5Dget_space(ds), "H5Dget_space", loc, path));
    hsize_t const start[1] = {static_cast<hsize_t>(offset)};
    hsize_t const n[1] = {static_cast<hsize_t>(values.size())};
    check(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, nullptr, n, nullptr), "H5Sselect_hyperslab",
          loc, path);
    Dataspace memory_space(check(H5Screate_simple(1, n, nullptr), "H5Screate_simple", loc, path));
    check(H5Dread(ds, TypeOf<T>::memory(), memory_space, file_space, H5P_DEFAULT, values.data()), "H5Dread",
          loc, path);
}

template <class T>
std::vector<T> read_1d(hid_t loc, std::string const& path)
{
    hsize_t dims[1] = {0};
    Dataset ds = open_numeric(loc, path, 1, dims);
    std::vector<T> values(static_cast<std::size_t>(dims[0]));
    read_slab_of(ds.get(), 0, std::span<T>(values), loc, path);
    return values;
}

template <class T>
std::vector<T> read_1d_slab(hid_t loc, std::string const& path, std::size_t offset, std::size_t count)
{
    hsize_t dims[1] = {0};
    Dataset ds = open_numeric(loc, path, 1, dims);
    if (offset > dims[0] || count > dims[0] - offset)
        throw IoError(
            fmt::format("{} has {} values, not {} from {} on", describe(loc, path), dims[0], count, offset));
    std::vector<T> values(count);
    read_slab_of(ds.get(), offset, std::span<T>(values), loc, path);
    return values;
}

void replace_attribute_slot(hid_t obj, std::string const& name)
{
    if (check(H5Aexists(obj, name.c_str()), "H5Aexists", obj, "@" + name) > 0)
        check(H5Adelete(obj, name.c_str()), "H5Adelete", obj, "@" + name);
}

template <class T>
void write_numeric_attribute(hid_t obj, std::string const& name, std::span<T const> values, bool scalar)
{
    replace_attribute_slot(obj, name);
    Dataspace space = scalar ? Dataspace(check(H5Screate(H5S_SCALAR), "H5Screate", obj, "@" + name))
                             : simple_space(values.size(), obj, "@" + name);
    Attribute attr(check(H5Acreate2(obj, name.c_str(), TypeOf<T>::file(), space, H5P_DEFAULT, H5P_DEFAULT),
                         "H5Acreate2", obj, "@" + name));
    if (!values.empty())
        check(H5Awrite(attr, TypeOf<T>::memory(), values.data()), "H5Awrite", obj, "@" + name);
}

Attribute open_attribute(hid_t obj, std::string const& name)
{
    if (!has_attribute(obj, name))
        throw IoError(fmt::format("attribute '{}' is missing on {}", name, describe(obj)));
    return Attribute(check(H5Aopen(obj, name.c_str(), H5P_DEFAULT), "H5Aopen", obj, "@" + name));
}

std::size_t attribute_size(hid_t attr, hid_t obj, std::string const& name)
{
    Dataspace space(check(H5Aget_space(attr), "H5Aget_space", obj, "@" + name));
    return static_cast<std::size_t>(
        check(H5Sget_simple_extent_npoints(space), "H5Sget_simple_extent_npoints", obj, "@" + name));
}

template <class T>
std::vector<T> read_numeric_attribute(hid_t obj, std::string const& name)
{
    Attribute attr = open_attribute(obj, name);
    Datatype type(check(H5Aget_type(attr), "H5Aget_type", obj, "@" + name));
    H5T_class_t const cls = H5Tget_class(type);
    if (cls != H5T_INTEGER && cls != H5T_FLOAT)
        throw IoError(fmt::format("attribute '{}' on {} is not a number", name, describe(obj)));
    std::vector<T> values(attribute_size(attr, obj, name));
    if (!values.empty()) check(H5Aread(attr, TypeOf<T>::memory(), values.data()), "H5Aread", obj, "@" + name);
    return values;
}

template <class T>
T read_scalar_attribute(hid_t obj, std::string const& name)
{
    auto const values = read_numeric_attribute<T>(obj, name);
    if (values.size() != 1)
        throw IoError(fmt::format("attribute '{}' on {} holds {} values, expected one", name, describe(obj),
                                  values.size()));
    return values[0];
}

}  // namespace

// ---- groups and links ----------------------------------------------------------------------------

bool exists(hid_t loc, std::string const& path)
{
    std::string prefix = !path.empty() && path[0] == '/' ? "/" : "";
    for (auto const& part : split_path(path)) {
        prefix += part;
        if (check(H5Lexists(loc, prefix.c_str(), H5P_DEFAULT), "H5Lexists", loc, prefix) <= 0) return false;
        prefix += '/';
    }
    return true;
}

Group create_groups(hid_t loc, std::string const& path)
{
    // Groups remember creation order, so tools that list in that order show columns as written.
    PropertyList gcpl(check(H5Pcreate(H5P_GROUP_CREATE), "H5Pcreate", loc, path));
    check(H5Pset_link_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
          "H5Pset_link_creation_order", loc, path);
    Group current(check(H5Gopen2(loc, !path.empty() && path[0] == '/' ? "/" : ".", H5P_DEFAULT), "H5Gopen2",
                        loc, path));
    for (auto const& part : split_path(path)) {
        htri_t const there = check(H5Lexists(current, part.c_str(), H5P_DEFAULT), "H5Lexists", current, part);
        hid_t const next =
            there > 0 ? check(H5Gopen2(current, part.c_str(), H5P_DEFAULT), "H5Gopen2", current, part)
                      : check(H5Gcreate2(current, part.c_str(), H5P_DEFAULT, gcpl, H5P_DEFAULT), "H5Gcreate2",
                              current, part);
        current = Group(next);
    }
    return current;
}

Group open_group(hid_t loc, std::string const& path)
{
    return Group(check(H5Gopen2(loc, path.c_str(), H5P_DEFAULT), "H5Gopen2", loc, path));
}

Dataset open_dataset(hid_t loc, std::string const& path)
{
    return Dataset(check(H5Dopen2(loc, path.c_str(), H5P_DEFAULT), "H5Dopen2", loc, path));
}

Object open_object(hid_t loc, std::string const& path)
{
    return Object(check(H5Oopen(loc, path.empty() ? "." : path.c_str(), H5P_DEFAULT), "H5Oopen", loc, path));
}

bool is_group(hid_t loc, std::string const& path)
{
    if (!exists(loc, path)) return false;
    Object obj = open_object(loc, path);
    return H5Iget_type(obj) == H5I_GROUP;
}

std::vector<std::string> list_children(hid_t group)
{
    std::vector<std::string> names;
    auto const visit = [](hid_t, char const* name, H5L_info_t const*, void* data) -> herr_t {
        static_cast<std::vector<std::string>*>(data)->emplace_back(name);
        return 0;
    };
    check(H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, nullptr, visit, &names), "H5Literate", group);
    return names;
}

// ---- datasets ------------------------------------------------------------------------------------

void write_dataset(hid_t loc, std::string const& name, std::span<double const> values)
{
    write_1d(loc, name, values);
}
void write_dataset(hid_t loc, std::string const& name, std::span<std::int32_t const> values)
{
    write_1d(loc, name, values);
}
void write_dataset(hid_t loc, std::string const& name, std::span<std::int64_t const> values)
{
    write_1d(loc, name, values);
}
void write_dataset(hid_t loc, std::string const& name, std::span<std::uint64_t const> values)
{
    write_1d(loc, name, values);
}

template <class T>
Dataset create_1d(hid_t loc, std::string const& name, std::size_t size)
{
    hsize_t const dims[1] = {static_cast<hsize_t>(size)};
    Dataspace space(check(H5Screate_simple(1, dims, nullptr), "H5Screate_simple", loc, name));
    PropertyList const dcpl = creation_properties(1, dims, loc, name);
    return Dataset(
        check(H5Dcreate2(loc, name.c_str(), TypeOf<T>::file(), space, H5P_DEFAULT, dcpl, H5P_DEFAULT),
              "H5Dcreate2", loc, name));
}

Dataset create_dataset_1d(hid_t loc, std::string const& name, std::size_t size, double)
{
    return create_1d<double>(loc, name, size);
}
Dataset create_dataset_1d(hid_t loc, std::string const& name, std::size_t size, std::int64_t)
{
    return create_1d<std::int64_t>(loc, name, size);
}
Dataset create_dataset_1d(hid_t loc, std::string const& name, std::size_t size, std::uint64_t)
{
    return create_1d<std::uint64_t>(loc, name, size);
}
void write_slab(hid_t dataset, std::size_t offset, std::span<double const> values)
{
    write_slab_of(dataset, offset, values);
}
void write_slab(hid_t dataset, std::size_t offset, std::span<std::int64_t const> values)
{
    write_slab_of(dataset, offset, values);
}
void write_slab(hid_t dataset, std::size_t offset, std::span<std::uint64_t const> values)
{
    write_slab_of(dataset, offset, values);
}

void write_dataset_2d(hid_t loc, std::string const& name, std::span<double const> values, std::size_t rows,
                      std::size_t cols)
{
    if (values.size() != rows * cols)
        throw IoError(fmt::format("{}: {} values given for a {} x {} matrix", describe(loc, name),
                                  values.size(), rows, cols));
    hsize_t const dims[2] = {static_cast<hsize_t>(rows), static_cast<hsize_t>(cols)};
    Dataspace space(check(H5Screate_simple(2, dims, nullptr), "H5Screate_simple", loc, name));
    PropertyList const dcpl = creation_properties(2, dims, loc, name);
    Dataset ds(check(H5Dcreate2(loc, name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT),
                     "H5Dcreate2", loc, name));
    if (!values.empty())
        check(H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), "H5Dwrite", loc,
              name);
}

namespace {
std::atomic<bool> g_output_checksums{true};
std::atomic<int> g_forced_checksums{0};
}  // namespace

bool checksums_on()
{
    static bool const allowed = [] {
        char const* v = std::getenv(k_no_checksums_variable);
        return v == nullptr || *v == '\0' || std::string_view(v) == "0";
    }();
    return allowed && (g_forced_checksums.load() > 0 || g_output_checksums.load());
}

void set_output_checksums(bool on) { g_output_checksums.store(on); }

ChecksummedDatasets::ChecksummedDatasets() { ++g_forced_checksums; }
ChecksummedDatasets::~ChecksummedDatasets() { --g_forced_checksums; }

bool has_checksum(hid_t loc, std::string const& path)
{
    Dataset const ds = open_dataset(loc, path);
    PropertyList const dcpl(check(H5Dget_create_plist(ds), "H5Dget_create_plist", loc, path));
    int const filters = check(H5Pget_nfilters(dcpl), "H5Pget_nfilters", loc, path);
    for (int i = 0; i < filters; ++i) {
        unsigned flags = 0;
        std::size_t n = 0;
        if (H5Pget_filter2(dcpl, unsigned(i), &flags, &n, nullptr, 0, nullptr, nullptr) ==
            H5Z_FILTER_FLETCHER32)
            return true;
    }
    return false;
}

std::vector<double> read_doubles(hid_t loc, std::string const& path) { return read_1d<double>(loc, path); }
std::size_t length_1d(hid_t loc, std::string const& path)
{
    hsize_t dims[1] = {0};
    Dataset const ds = open_numeric(loc, path, 1, dims);
    return static_cast<std::size_t>(dims[0]);
}
std::vector<std::int64_t> read_int64s(hid_t loc, std::string const& path)
{
    return read_1d<std::int64_t>(loc, path);
}
std::vector<std::uint64_t> read_uint64s(hid_t loc, std::string const& path)
{
    return read_1d<std::uint64_t>(loc, path);
}
std::vector<double> read_doubles(hid_t loc, std::string const& path, std::size_t offset, std::size_t count)
{
    return read_1d_slab<double>(loc, path, offset, count);
}
std::vector<std::int64_t> read_int64s(hid_t loc, std::string const& path, std::size_t offset,
                                      std::size_t count)
{
    return read_1d_slab<std::int64_t>(loc, path, offset, count);
}
std::vector<std::uint64_t> read_uint64s(hid_t loc, std::string const& path, std::size_t offset,
                                        std::size_t count)
{
    return read_1d_slab<std::uint64_t>(loc, path, offset, count);
}

Matrix read_matrix(hid_t loc, std::string const& path)
{
    hsize_t dims[2] = {0, 0};
    Dataset ds = open_numeric(loc, path, 2, dims);
    Matrix m{static_cast<std::size_t>(dims[0]), static_cast<std::size_t>(dims[1]), {}};
    m.values.resize(m.rows * m.cols);
    if (!m.values.empty())
        check(H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, m.values.data()), "H5Dread", loc,
              path);
    return m;
}

StoredType stored_type(hid_t loc, std::string const& path)
{
    Dataset ds = open_dataset(loc, path);
    Datatype type(check(H5Dget_type(ds), "H5Dget_type", loc, path));
    StoredType st;
    st.type_class = H5Tget_class(type);
    if (st.type_class == H5T_INTEGER) st.is_signed = H5Tget_sign(type) == H5T_SGN_2;
    return st;
}

// ---- attributes ----------------------------------------------------------------------------------

void write_attribute(hid_t obj, std::string const& name, std::string_view value)
{
    replace_attribute_slot(obj, name);
    // Fixed length with room for the terminating NUL (HDF5 rejects a zero-size string type).
    Datatype type(check(H5Tcopy(H5T_C_S1), "H5Tcopy", obj, "@" + name));
    check(H5Tset_size(type, value.size() + 1), "H5Tset_size", obj, "@" + name);
    check(H5Tset_strpad(type, H5T_STR_NULLTERM), "H5Tset_strpad", obj, "@" + name);
    Dataspace space(check(H5Screate(H5S_SCALAR), "H5Screate", obj, "@" + name));
    Attribute attr(check(H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), "H5Acreate2",
                         obj, "@" + name));
    std::string const buffer(value);  // c_str() supplies the NUL
    check(H5Awrite(attr, type, buffer.c_str()), "H5Awrite", obj, "@" + name);
}

void write_attribute(hid_t obj, std::string const& name, double value)
{
    write_numeric_attribute<double>(obj, name, std::span<double const>(&value, 1), true);
}
void write_attribute(hid_t obj, std::string const& name, std::int32_t value)
{
    write_numeric_attribute<std::int32_t>(obj, name, std::span<std::int32_t const>(&value, 1), true);
}
void write_attribute(hid_t obj, std::string const& name, std::uint32_t value)
{
    write_numeric_attribute<std::uint32_t>(obj, name, std::span<std::uint32_t const>(&value, 1), true);
}
void write_attribute(hid_t obj, std::string const& name, std::int64_t value)
{
    write_numeric_attribute<std::int64_t>(obj, name, std::span<std::int64_t const>(&value, 1), true);
}
void write_attribute(hid_t obj, std::string const& name, std::uint64_t value)
{
    write_numeric_attribute<std::uint64_t>(obj, name, std::span<std::uint64_t const>(&value, 1), true);
}
void write_attribute(hid_t obj, std::string const& name, std::span<double const> values)
{
    write_numeric_attribute(obj, name, values, false);
}
void write_attribute(hid_t obj, std::string const& name, std::span<std::int64_t const> values)
{
    write_numeric_attribute(obj, name, values, false);
}
void write_attribute(hid_t obj, std::string const& name, std::span<std::uint64_t const> values)
{
    write_numeric_attribute(obj, name, values, false);
}

void write_attribute(hid_t obj, std::string const& name, std::span<std::string const> values)
{
    replace_attribute_slot(obj, name);
    std::size_t width = 1;
    for (auto const& v : values) width = std::max(width, v.size() + 1);
    Datatype type(check(H5Tcopy(H5T_C_S1), "H5Tcopy", obj, "@" + name));
    check(H5Tset_size(type, width), "H5Tset_size", obj, "@" + name);
    check(H5Tset_strpad(type, H5T_STR_NULLTERM), "H5Tset_strpad", obj, "@" + name);
    Dataspace space = simple_space(values.size(), obj, "@" + name);
    Attribute attr(check(H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), "H5Acreate2",
                         obj, "@" + name));
    if (values.empty()) return;
    std::vector<char> buffer(values.size() * width, '\0');
    for (std::size_t i = 0; i < values.size(); ++i)
        std::memcpy(buffer.data() + i * width, values[i].data(), values[i].size());
    check(H5Awrite(attr, type, buffer.data()), "H5Awrite", obj, "@" + name);
}

bool has_attribute(hid_t obj, std::string const& name)
{
    return check(H5Aexists(obj, name.c_str()), "H5Aexists", obj, "@" + name) > 0;
}

std::vector<std::string> read_string_array_attribute(hid_t obj, std::string const& name)
{
    Attribute attr = open_attribute(obj, name);
    Datatype type(check(H5Aget_type(attr), "H5Aget_type", obj, "@" + name));
    if (H5Tget_class(type) != H5T_STRING)
        throw IoError(fmt::format("attribute '{}' on {} is not a string", name, describe(obj)));
    std::size_t const n = attribute_size(attr, obj, name);
    std::vector<std::string> values;
    if (n == 0) return values;
    if (check(H5Tis_variable_str(type), "H5Tis_variable_str", obj, "@" + name) > 0) {
        // Variable-length strings (h5py's and openPMD-api's default): HDF5 allocates, we reclaim.
        Datatype memory(check(H5Tcopy(H5T_C_S1), "H5Tcopy", obj, "@" + name));
        check(H5Tset_size(memory, H5T_VARIABLE), "H5Tset_size", obj, "@" + name);
        std::vector<char*> pointers(n, nullptr);
        check(H5Aread(attr, memory, pointers.data()), "H5Aread", obj, "@" + name);
        for (char* p : pointers) values.emplace_back(p != nullptr ? p : "");
        Dataspace space(check(H5Aget_space(attr), "H5Aget_space", obj, "@" + name));
        H5Dvlen_reclaim(memory, space, H5P_DEFAULT, pointers.data());
        return values;
    }
    std::size_t const width = H5Tget_size(type);
    bool const space_padded = H5Tget_strpad(type) == H5T_STR_SPACEPAD;
    std::vector<char> buffer(n * width, '\0');
    check(H5Aread(attr, type, buffer.data()), "H5Aread", obj, "@" + name);
    for (std::size_t i = 0; i < n; ++i) {
        char const* s = buffer.data() + i * width;
        std::string v(s, strnlen(s, width));
        if (space_padded)  // Fortran-style padding: trailing blanks are not part of the value
            v.erase(v.find_last_not_of(' ') + 1);
        values.push_back(std::move(v));
    }
    return values;
}

std::string read_string_attribute(hid_t obj, std::string const& name)
{
    auto values = read_string_array_attribute(obj, name);
    if (values.size() != 1)
        throw IoError(fmt::format("attribute '{}' on {} holds {} strings, expected one", name, describe(obj),
                                  values.size()));
    return std::move(values[0]);
}

double read_double_attribute(hid_t obj, std::string const& name)
{
    return read_scalar_attribute<double>(obj, name);
}
std::int64_t read_int64_attribute(hid_t obj, std::string const& name)
{
    return read_scalar_attribute<std::int64_t>(obj, name);
}
std::uint64_t read_uint64_attribute(hid_t obj, std::string const& name)
{
    return read_scalar_attribute<std::uint64_t>(obj, name);
}
std::vector<double> read_double_array_attribute(hid_t obj, std::string const& name)
{
    return read_numeric_attribute<double>(obj, name);
}
std::vector<std::uint64_t> read_uint64_array_attribute(hid_t obj, std::string const& name)
{
    return read_numeric_attribute<std::uint64_t>(obj, name);
}

}  // namespace gt::h5
