// Reading and validating 3D field-map files (see FieldMap3DFile.hh).
#include "beam/FieldMap3DFile.hh"

#include <cmath>
#include <limits>
#include <span>

#include <fmt/format.h>

#include "beam/FieldUnits.hh"
#include "io/H5Access.hh"
#include "io/H5Handle.hh"

namespace gt {

namespace {

//! Nodes a map may hold: the device indexes them with 64-bit integers, but a map this large would
//! not fit a GPU anyway (2^31 nodes x 6 components x 8 bytes = 96 GiB).
constexpr std::int64_t k_max_nodes = std::int64_t(1) << 31;

class Reader {
  public:
    explicit Reader(std::string path) : path_(std::move(path)) {}

    [[noreturn]] void fail(std::string const& message) const
    {
        throw FieldMapFileError(fmt::format("field map '{}': {}", path_, message));
    }

    double unit_of(hid_t obj, std::string const& what, std::string const& attribute,
                   std::span<UnitFactor const> units) const
    {
        if (!h5::has_attribute(obj, attribute))
            fail(fmt::format("{} has no '{}' attribute: units must be stated (one of {})", what, attribute,
                             unit_list(units)));
        std::string const name = h5::read_string_attribute(obj, attribute);
        if (auto const factor = unit_factor(units, name)) return *factor;
        fail(fmt::format("{} has unit '{}'; expected one of {}", what, name, unit_list(units)));
    }

    std::vector<double> three(hid_t root, char const* name) const
    {
        if (!h5::has_attribute(root, name))
            fail(fmt::format("no '{}' attribute on the root group (see docs/decks.md)", name));
        std::vector<double> v = h5::read_double_array_attribute(root, name);
        if (v.size() != 3) fail(fmt::format("'{}' has {} values; expected 3 (x, y, z)", name, v.size()));
        for (double x : v)
            if (!std::isfinite(x)) fail(fmt::format("'{}' holds a non-finite value", name));
        return v;
    }

    //! The field `name` ("E" or "B"): one dataset of nodes x 3 values or three of nodes values
    //! (NAMEx, NAMEy, NAMEz); empty when the file has neither.
    std::vector<double> field(hid_t root, std::string const& name, std::int64_t nodes,
                              std::span<UnitFactor const> units) const
    {
        std::string const parts[3] = {name + "x", name + "y", name + "z"};
        int present = 0;
        for (auto const& p : parts) present += h5::exists(root, p) ? 1 : 0;
        bool const combined = h5::exists(root, name);
        if (combined && present > 0)
            fail(fmt::format("both '{}' and '{}' are given: use one dataset or three, not both", name,
                             parts[0]));
        if (!combined && present == 0) return {};
        if (!combined && present != 3)
            fail(fmt::format("only {} of {}, {}, {} are given: a field in separate components needs all three",
                             present, parts[0], parts[1], parts[2]));
        auto const n = static_cast<std::size_t>(nodes);
        std::vector<double> out;
        for (int c = 0; c < (combined ? 1 : 3); ++c) {
            std::string const dataset = combined ? name : parts[c];
            h5::Object obj = h5::open_object(root, dataset);
            double const factor = unit_of(obj, "dataset '" + dataset + "'", "unit", units);
            std::vector<double> const values = h5::read_doubles(root, dataset);
            std::size_t const expected = combined ? 3 * n : n;
            if (values.size() != expected)
                fail(fmt::format("dataset '{}' holds {} values; the dimensions ask for {} ({} nodes{})", dataset,
                                 values.size(), expected, n, combined ? " x 3 components" : ""));
            out.resize(3 * n);  // only now: the dimensions alone may ask for more than the file holds
            for (std::size_t i = 0; i < values.size(); ++i) {
                if (!std::isfinite(values[i]))
                    fail(fmt::format("dataset '{}' value {} ({}) is not finite", dataset, i, values[i]));
                if (combined)
                    out[i] = values[i] * factor;
                else
                    out[3 * i + static_cast<std::size_t>(c)] = values[i] * factor;
            }
        }
        return out;
    }

    FieldMap3DFile read() const
    {
        FieldMap3DFile m;
        m.path = path_;
        h5::File file = h5::open_file_readonly(path_);
        hid_t const root = file.get();
        if (!h5::has_attribute(root, "dimensions"))
            fail("no 'dimensions' attribute on the root group (see docs/decks.md)");
        std::vector<std::uint64_t> const dims = h5::read_uint64_array_attribute(root, "dimensions");
        if (dims.size() != 3) fail(fmt::format("'dimensions' has {} values; expected 3 (nx, ny, nz)", dims.size()));
        std::int64_t nodes = 1;
        for (int a = 0; a < 3; ++a) {
            if (dims[a] < 2) fail(fmt::format("dimension {} is {}: each axis needs at least 2 nodes", "xyz"[a], dims[a]));
            if (dims[a] > std::uint64_t(k_max_nodes) || (nodes *= std::int64_t(dims[a])) > k_max_nodes)
                fail(fmt::format("dimensions [{}, {}, {}] are more than {} nodes", dims[0], dims[1], dims[2],
                                 k_max_nodes));
            m.dimensions[a] = static_cast<std::int32_t>(dims[a]);
        }
        double const length = unit_of(root, "the root group", "length_unit", k_length_units);
        std::vector<double> const origin = three(root, "origin");
        std::vector<double> const spacing = three(root, "spacing");
        for (int a = 0; a < 3; ++a) {
            if (!(spacing[a] > 0.0))
                fail(fmt::format("spacing along {} is {}: the grid must increase (spacing > 0)", "xyz"[a],
                                 spacing[a]));
            m.origin[a] = origin[a] * length;
            m.spacing[a] = spacing[a] * length;
            double const far = m.origin[a] + m.spacing[a] * double(m.dimensions[a] - 1);
            if (!std::isfinite(far) || !(m.spacing[a] > 0.0))
                fail(fmt::format("the grid along {} does not fit in finite numbers", "xyz"[a]));
        }
        if (h5::has_attribute(root, "frequency")) {
            m.frequency = h5::read_double_attribute(root, "frequency");
            if (!(m.frequency > 0.0) || !std::isfinite(m.frequency))
                fail(fmt::format("frequency is {} Hz; an RF map needs a finite frequency > 0", m.frequency));
        }
        m.e = field(root, "E", nodes, k_electric_units);
        m.b = field(root, "B", nodes, k_magnetic_units);
        if (m.e.empty() && m.b.empty())
            fail("no field: the file needs E (or Ex, Ey, Ez) and/or B (or Bx, By, Bz)");
        return m;
    }

  private:
    std::string path_;
};

}  // namespace

FieldMap3DFile read_field_map_3d(std::string const& path)
{
    Reader const reader(path);
    try {
        return reader.read();
    } catch (IoError const& e) {
        reader.fail(e.what());
    }
}

}  // namespace gt
