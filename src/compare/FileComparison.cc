// gtrack compare: walk both HDF5 trees, check they have the same structure, compare every number.
#include "compare/FileComparison.hh"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <variant>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "compare/TextTable.hh"
#include "io/ChecksummedChunks.hh"
#include "io/H5Access.hh"
#include "io/H5Handle.hh"
#include "io/Measurement.hh"

namespace gt {

namespace {

//! One numeric (or skipped non-numeric) dataset or attribute found in a file.
struct Entry {
    bool attribute = false;
    std::string object;  //!< the group or dataset path ("/" for the root)
    std::string name;    //!< the attribute name (attributes only)
    H5T_class_t type_class = H5T_NO_CLASS;
    bool is_signed = true;
    std::size_t type_size = 0;
    std::vector<hsize_t> dims;
    std::string measurement;  //!< the kind of measurement it is marked as, by either file ("": physics)

    bool numeric() const { return type_class == H5T_INTEGER || type_class == H5T_FLOAT; }
    std::size_t count() const
    {
        std::size_t n = 1;
        for (auto d : dims) n *= std::size_t(d);
        return n;
    }
    std::string shape() const
    {
        std::string t = type_class == H5T_FLOAT ? fmt::format("float{}", 8 * type_size)
                        : type_class == H5T_INTEGER
                            ? fmt::format("{}int{}", is_signed ? "" : "u", 8 * type_size)
                        : type_class == H5T_STRING ? std::string("string")
                                                   : std::string("other");
        std::string d;
        for (auto v : dims) d += fmt::format("[{}]", v);
        return attribute ? fmt::format("{}{} attribute", t, d) : t + d;
    }
};

using Catalogue = std::map<std::string, Entry>;
//! The marks of measurements found in a file (io/Measurement.hh), by path: an object ("detector",
//! "" for the root) or an attribute ("detector@iterations"); the value is the kind.
using Marks = std::map<std::string, std::string>;

void describe_type(hid_t type, Entry& e)
{
    e.type_class = H5Tget_class(type);
    e.type_size = H5Tget_size(type);
    if (e.type_class == H5T_INTEGER) e.is_signed = H5Tget_sign(type) == H5T_SGN_2;
}

void describe_space(hid_t space, Entry& e, hid_t loc, std::string const& name)
{
    int const rank = h5::check(H5Sget_simple_extent_ndims(space), "H5Sget_simple_extent_ndims", loc, name);
    e.dims.assign(std::size_t(rank), 0);
    if (rank > 0)
        h5::check(H5Sget_simple_extent_dims(space, e.dims.data(), nullptr), "H5Sget_simple_extent_dims", loc,
                  name);
}

std::string join_path(std::string const& parent, std::string const& child)
{
    return parent.empty() ? child : parent + "/" + child;
}

//! Records a `measurement` or `measurement:NAME` attribute of the object at `path` in `marks`.
void read_mark(hid_t obj, std::string const& path, std::string const& name, Marks& marks)
{
    std::string_view const prefix = k_measured_attribute_prefix;
    bool const whole = name == k_measurement_attribute;
    if (!whole && name.compare(0, prefix.size(), prefix) != 0) return;
    std::string kind;
    try {
        kind = h5::read_string_attribute(obj, name);
    } catch (IoError const&) {
        return;  // not a string: not a mark gtrack wrote
    }
    marks[whole ? path : path + "@" + name.substr(prefix.size())] = kind.empty() ? "measurement" : kind;
}

void catalogue_attributes(hid_t file, std::string const& path, Catalogue& out, Marks& marks)
{
    h5::Object obj = h5::open_object(file, path.empty() ? "/" : path);
    std::vector<std::string> names;
    auto const visit = [](hid_t, char const* name, H5A_info_t const*, void* data) -> herr_t {
        static_cast<std::vector<std::string>*>(data)->emplace_back(name);
        return 0;
    };
    hsize_t idx = 0;
    h5::check(H5Aiterate2(obj, H5_INDEX_NAME, H5_ITER_INC, &idx, visit, &names), "H5Aiterate2", file, path);
    for (auto const& name : names) {
        h5::Attribute attr(h5::check(H5Aopen(obj, name.c_str(), H5P_DEFAULT), "H5Aopen", obj, "@" + name));
        Entry e;
        e.attribute = true;
        e.object = path.empty() ? "/" : path;
        e.name = name;
        h5::Datatype type(h5::check(H5Aget_type(attr), "H5Aget_type", obj, "@" + name));
        describe_type(type, e);
        if (e.type_class == H5T_STRING) read_mark(obj, path, name, marks);
        if (!e.numeric()) continue;  // strings: dates, versions, names, marks (not compared)
        h5::Dataspace space(h5::check(H5Aget_space(attr), "H5Aget_space", obj, "@" + name));
        describe_space(space, e, obj, "@" + name);
        out[path + "@" + name] = std::move(e);
    }
}

void catalogue_group(hid_t file, std::string const& path, Catalogue& out, Marks& marks)
{
    catalogue_attributes(file, path, out, marks);
    h5::Group group = h5::open_group(file, path.empty() ? "/" : path);
    for (auto const& child : h5::list_children(group)) {
        std::string const p = join_path(path, child);
        if (h5::is_group(file, p)) {
            catalogue_group(file, p, out, marks);
            continue;
        }
        h5::Dataset ds = h5::open_dataset(file, p);
        Entry e;
        e.object = p;
        h5::Datatype type(h5::check(H5Dget_type(ds), "H5Dget_type", file, p));
        describe_type(type, e);
        h5::Dataspace space(h5::check(H5Dget_space(ds), "H5Dget_space", file, p));
        describe_space(space, e, file, p);
        out[p] = std::move(e);
        catalogue_attributes(file, p, out, marks);
    }
}

//! The kind of measurement the item at `path` is marked as in `marks` ("" when none): its own mark
//! (an attribute's), or that of the object holding it or of any group above.
std::string marked_kind(std::string const& path, Marks const& marks)
{
    if (marks.empty()) return {};
    if (auto it = marks.find(path); it != marks.end()) return it->second;
    std::string object = path.substr(0, path.find('@'));
    for (;;) {
        if (auto it = marks.find(object); it != marks.end()) return it->second;
        if (object.empty()) return {};
        std::size_t const slash = object.rfind('/');
        object = slash == std::string::npos ? std::string() : object.substr(0, slash);
    }
}

//! Sets every entry's `measurement` from the marks of both files (a mark in either is enough).
void apply_marks(Catalogue& c, Marks const& ma, Marks const& mb)
{
    for (auto& [path, e] : c) {
        e.measurement = marked_kind(path, ma);
        if (e.measurement.empty()) e.measurement = marked_kind(path, mb);
    }
}

using Values = std::variant<std::vector<double>, std::vector<std::int64_t>, std::vector<std::uint64_t>>;

template <class T>
std::vector<T> read_as(hid_t file, Entry const& e, hid_t memory_type)
{
    std::vector<T> v(e.count());
    if (v.empty()) return v;
    if (e.attribute) {
        h5::Object obj = h5::open_object(file, e.object);
        h5::Attribute attr(
            h5::check(H5Aopen(obj, e.name.c_str(), H5P_DEFAULT), "H5Aopen", obj, "@" + e.name));
        h5::check(H5Aread(attr, memory_type, v.data()), "H5Aread", obj, "@" + e.name);
    } else {
        h5::Dataset ds = h5::open_dataset(file, e.object);
        // A checksummed dataset's chunks verified by a few threads (io/ChecksummedChunks.hh), else HDF5.
        std::optional<h5::ChecksummedLayout> const layout = h5::checksummed_layout(ds, memory_type);
        if (layout && layout->length == v.size() &&
            h5::read_checksummed_chunks(ds, *layout, 0, std::as_writable_bytes(std::span<T>(v)),
                                        h5::describe(file, e.object)))
            return v;
        h5::check(H5Dread(ds, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()), "H5Dread", file,
                  e.object);
    }
    return v;
}

Values read_values(hid_t file, Entry const& e)
{
    if (e.type_class == H5T_FLOAT) return read_as<double>(file, e, H5T_NATIVE_DOUBLE);
    if (e.is_signed) return read_as<std::int64_t>(file, e, H5T_NATIVE_INT64);
    return read_as<std::uint64_t>(file, e, H5T_NATIVE_UINT64);
}

void compare_values(Values const& a, Values const& b, ItemComparison& item)
{
    std::visit(
        [&](auto const& va) {
            using V = std::decay_t<decltype(va)>;
            V const& vb = std::get<V>(b);
            for (std::size_t i = 0; i < va.size(); ++i) {
                if constexpr (std::is_same_v<V, std::vector<double>>) {
                    item.diff.add(va[i], vb[i], item.tolerance, i);
                } else if (va[i] == vb[i]) {
                    ++item.diff.compared;
                } else {
                    // Integers: the difference in doubles; values apart by less than a double's spacing
                    // (beyond 2^53) still count as differing and outside any tolerance.
                    double const da = double(va[i]), db = double(vb[i]);
                    bool const out = item.diff.add(da, db, item.tolerance, i);
                    if (da == db) {
                        ++item.diff.differing;
                        if (!out) ++item.diff.outside;
                    }
                }
            }
        },
        a);
}

bool selected(std::string const& path, std::vector<std::string> const& only)
{
    if (only.empty()) return true;
    for (auto p : only) {
        if (!p.empty() && p.front() == '/') p.erase(0, 1);
        if (glob_match(p, path)) return true;
    }
    return false;
}

h5::File open_gtrack_file(std::string const& path)
{
    h5::silence_hdf5_errors();
    h5::File f;
    try {
        f = h5::open_file_readonly(path);
    } catch (IoError const& e) {  // missing, unreadable, or not HDF5 at all
        throw ComparisonRefused(fmt::format("cannot compare '{}': {}", path, e.what()));
    }
    // A checkpoint (docs/checkpoint.md) is compared too: its data carry checksums, verified as read.
    if (!h5::is_group(f, "provenance") && !h5::has_attribute(f, "gtrack_checkpoint"))
        throw ComparisonRefused(
            fmt::format("'{}' is not a gtrack output file or checkpoint: it has no /provenance group", path));
    return f;
}

std::string display(std::string const& path) { return path.empty() ? "/" : path; }

}  // namespace

bool FileComparison::ok() const { return outside() == 0; }

std::size_t FileComparison::outside() const
{
    std::size_t n = 0;
    for (auto const& i : items) n += counts(i) && !i.ok() ? 1 : 0;
    return n;
}

std::size_t FileComparison::differing() const
{
    std::size_t n = 0;
    for (auto const& i : items) n += counts(i) && i.diff.differing > 0 ? 1 : 0;
    return n;
}

std::vector<std::string> FileComparison::failed_paths() const
{
    std::vector<std::string> paths;
    for (auto const& i : items)
        if (counts(i) && !i.ok()) paths.push_back(i.path);
    return paths;
}

FileComparison compare_files(std::string const& a, std::string const& b, CompareOptions const& options)
{
    h5::File fa = open_gtrack_file(a);
    h5::File fb = open_gtrack_file(b);
    Catalogue ca, cb;
    Marks ma, mb;
    catalogue_group(fa, "", ca, ma);
    catalogue_group(fb, "", cb, mb);
    apply_marks(ca, ma, mb);
    apply_marks(cb, ma, mb);

    FileComparison result;
    result.path_a = a;
    result.path_b = b;
    result.strict = options.strict;
    // A measurement on one side only, or of another shape (a profile written by one run only, a
    // schedule figure of another length), is no structural difference unless strict.
    std::vector<std::string> problems;
    auto const problem = [&](Entry const& e, std::string text) {
        (e.measurement.empty() || options.strict ? problems : result.measurements_unmatched)
            .push_back(std::move(text));
    };
    std::set<std::string> unmatched;
    for (auto const& [path, e] : ca) {
        if (!selected(path, options.only)) continue;
        auto it = cb.find(path);
        if (it == cb.end()) {
            problem(e, fmt::format("{} ({}) is only in '{}'", display(path), e.shape(), a));
            unmatched.insert(path);
        } else if (it->second.shape() != e.shape()) {
            problem(e, fmt::format("{} is {} in '{}' but {} in '{}'", display(path), e.shape(), a,
                                   it->second.shape(), b));
            unmatched.insert(path);
        }
    }
    for (auto const& [path, e] : cb)
        if (selected(path, options.only) && !ca.count(path))
            problem(e, fmt::format("{} ({}) is only in '{}'", display(path), e.shape(), b));
    if (!problems.empty()) {
        std::string msg = fmt::format(
            "'{}' and '{}' have different structures ({} difference{}), so their values "
            "are not compared:",
            a, b, problems.size(), problems.size() == 1 ? "" : "s");
        std::size_t const shown = std::min<std::size_t>(problems.size(), 20);
        for (std::size_t i = 0; i < shown; ++i) msg += "\n  " + problems[i];
        if (shown < problems.size()) msg += fmt::format("\n  ... and {} more", problems.size() - shown);
        throw ComparisonRefused(msg);
    }

    for (auto const& [path, e] : ca) {
        if (!selected(path, options.only) || unmatched.count(path)) continue;
        if (!e.numeric()) {
            ++result.not_compared;
            continue;
        }
        ItemComparison item;
        item.path = path;
        item.shape = e.shape();
        item.tolerance = options.tolerances.for_name(path);
        item.measurement = e.measurement;
        compare_values(read_values(fa, e), read_values(fb, cb.at(path)), item);
        result.items.push_back(std::move(item));
    }
    if (result.items.empty())
        throw ComparisonRefused(options.only.empty()
                                    ? fmt::format("'{}' holds no numeric datasets to compare", a)
                                    : fmt::format("no numeric dataset or attribute of '{}' matches --only {}",
                                                  a, fmt::join(options.only, ", ")));
    return result;
}

std::string comparison_report(FileComparison const& c, bool all)
{
    auto const num = [](double v) { return v == 0 ? std::string("0") : fmt::format("{:.3g}", v); };
    TextTable t({"dataset", "shape", "tolerance", "values differing", "outside tolerance", "max |diff|",
                 "max rel diff", "worst index", "status"});
    std::size_t values = 0, measurements = 0;
    TextTable m({"measurement of the run", "kind", "shape", "values differing", "max rel diff"});
    for (auto const& i : c.items) {
        if (!c.counts(i)) {
            ++measurements;
            if (all || i.diff.differing > 0)
                m.add_row({i.path, i.measurement, i.shape,
                           fmt::format("{} of {}", i.diff.differing, i.diff.compared), num(i.diff.max_rel)});
            continue;
        }
        values += i.diff.compared;
        if (!all && i.diff.differing == 0) continue;
        t.add_row({i.path, i.shape, i.tolerance.describe(),
                   fmt::format("{} of {}", i.diff.differing, i.diff.compared), std::to_string(i.diff.outside),
                   num(i.diff.max_abs), num(i.diff.max_rel),
                   i.diff.differing ? std::to_string(i.diff.worst) : "-",
                   i.ok() ? (i.diff.differing ? "ok (within tolerance)" : "ok") : "FAIL"});
    }
    std::string out = fmt::format("gtrack compare {} {}\n", c.path_a, c.path_b);
    if (t.rows() > 0)
        out += t.text();
    else
        out += "  every compared value is bitwise identical\n";
    if (measurements > 0 || !c.measurements_unmatched.empty()) {
        out += fmt::format(
            "measurements of the run (timings, schedule, provenance: marked in the files, never a failure "
            "without --strict): {} compared, {} differ{}\n",
            measurements, m.rows(),
            c.measurements_unmatched.empty()
                ? std::string()
                : fmt::format(", {} in one file only", c.measurements_unmatched.size()));
        if (m.rows() > 0) out += m.text();
        for (auto const& u : c.measurements_unmatched) out += "  " + u + "\n";
    }
    out += fmt::format(
        "compared {} datasets and numeric attributes ({} values{}): {} differ, {} outside tolerance\n",
        c.items.size() - measurements, values,
        c.not_compared ? fmt::format(", {} non-numeric datasets skipped", c.not_compared) : "", c.differing(),
        c.outside());
    out += c.ok() ? "verdict: PASS\n" : fmt::format("verdict: FAIL ({} outside tolerance)\n", c.outside());
    return out;
}

}  // namespace gt
