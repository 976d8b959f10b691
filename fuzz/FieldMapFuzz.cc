// Fuzz target: field maps (HDF5): the detector's (field.type = "map", format cartesian or rz) and
// the beamline's 3D maps (field_map elements, docs/decks.md "3D field-map files"). As for beam
// files, the input describes a file that HDF5 writes (datasets: names, types, lengths, units;
// attributes: lengths and values). The reader must refuse a bad map with IoError or
// std::invalid_argument (FieldMapFileError for the 3D maps); a map it accepts is then evaluated at
// points inside, on the edges of and outside its grid, where ASan catches any read beyond it.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "FuzzHdf5.hh"
#include "beam/FieldMap3DBuilder.hh"
#include "beam/FieldMap3DFile.hh"
#include "detector/DetectorSetup.hh"

namespace {

using gt::fuzz::pick_double;
using gt::fuzz::pick_length;

void write_field_map(std::string const& path, FuzzedDataProvider& in, std::size_t dims)
{
    gt::h5::File file = gt::fuzz::create_file(path);
    std::vector<std::uint64_t> shape(in.ConsumeBool() ? dims : in.ConsumeIntegralInRange<std::size_t>(0, 4));
    std::uint64_t nodes = 1;
    for (auto& s : shape) {
        s = pick_length(in, in.ConsumeIntegralInRange<std::uint64_t>(0, 5));
        nodes *= s;
    }
    if (in.ConsumeIntegralInRange(0, 15) != 0) {
        // Capped, so that a huge shape does not make a huge file: the reader must notice the mismatch.
        std::vector<double> b(std::min<std::uint64_t>(pick_length(in, nodes * dims), 4096));
        for (auto& v : b) v = pick_double(in, 0.5);
        if (in.ConsumeIntegralInRange(0, 7) == 0) {
            std::vector<std::int64_t> as_int(b.size(), 1);
            gt::h5::write_dataset(file, "B", std::span<std::int64_t const>(as_int));
        } else {
            gt::h5::write_dataset(file, "B", std::span<double const>(b));
        }
        gt::h5::Object obj = gt::h5::open_object(file, "B");
        if (in.ConsumeIntegralInRange(0, 15) != 0)
            gt::h5::write_attribute(obj, "shape", std::span<std::uint64_t const>(shape));
        for (auto const* name : {"spacing", "lower"}) {
            if (in.ConsumeIntegralInRange(0, 15) == 0) continue;
            std::vector<double> values(in.ConsumeBool() ? dims : in.ConsumeIntegralInRange<std::size_t>(0, 4));
            for (auto& v : values) v = pick_double(in, name[0] == 's' ? 0.01 : 0.0);
            gt::h5::write_attribute(obj, name, std::span<double const>(values));
        }
    }
    file.close("H5Fclose", path);
}

std::string pick_unit(FuzzedDataProvider& in, std::vector<char const*> const& plausible)
{
    if (in.ConsumeIntegralInRange(0, 7) == 0) return in.ConsumeRandomLengthString(6);
    return plausible[in.ConsumeIntegralInRange<std::size_t>(0, plausible.size() - 1)];
}

//! A beamline 3D map: root attributes dimensions, origin, spacing, length_unit, frequency; E and B
//! as one dataset or three, each with a unit.
void write_map_3d(std::string const& path, FuzzedDataProvider& in)
{
    gt::h5::File file = gt::fuzz::create_file(path);
    std::vector<std::uint64_t> dims(in.ConsumeIntegralInRange(0, 7) != 0 ? 3 : in.ConsumeIntegralInRange<std::size_t>(0, 4));
    std::uint64_t nodes = 1;
    for (auto& d : dims) {
        d = pick_length(in, in.ConsumeIntegralInRange<std::uint64_t>(0, 5));
        nodes *= d;
    }
    if (in.ConsumeIntegralInRange(0, 15) != 0)
        gt::h5::write_attribute(file, "dimensions", std::span<std::uint64_t const>(dims));
    for (auto const* name : {"origin", "spacing"}) {
        if (in.ConsumeIntegralInRange(0, 15) == 0) continue;
        std::vector<double> values(in.ConsumeIntegralInRange(0, 7) != 0 ? 3 : in.ConsumeIntegralInRange<std::size_t>(0, 4));
        for (auto& v : values) v = pick_double(in, name[0] == 's' ? 0.01 : -0.02);
        gt::h5::write_attribute(file, name, std::span<double const>(values));
    }
    if (in.ConsumeIntegralInRange(0, 15) != 0) gt::h5::write_attribute(file, "length_unit", pick_unit(in, {"m", "cm", "mm"}));
    if (in.ConsumeIntegralInRange(0, 3) == 0) gt::fuzz::write_number_attribute(file, "frequency", in, 1.3e9);
    for (char const field : {'E', 'B'}) {
        int const form = in.ConsumeIntegralInRange(0, 3);  // 0: none, 1: combined, 2: split, 3: both
        std::vector<std::string> names;
        if (form == 1 || form == 3) names.push_back(std::string(1, field));
        if (form >= 2)
            for (char const c : {'x', 'y', 'z'})
                if (in.ConsumeIntegralInRange(0, 15) != 0) names.push_back(std::string(1, field) + c);
        for (auto const& name : names) {
            std::uint64_t const expected = name.size() == 1 ? 3 * nodes : nodes;
            // Capped, so that a huge shape does not make a huge file: the reader must notice the mismatch.
            std::vector<double> v(std::min<std::uint64_t>(pick_length(in, expected), 4096));
            for (auto& x : v) x = pick_double(in, 0.5);
            if (in.ConsumeIntegralInRange(0, 7) == 0) {
                std::vector<std::int64_t> const as_int(v.size(), 1);
                gt::h5::write_dataset(file, name, std::span<std::int64_t const>(as_int));
            } else {
                gt::h5::write_dataset(file, name, std::span<double const>(v));
            }
            if (in.ConsumeIntegralInRange(0, 15) != 0) {
                gt::h5::Object obj = gt::h5::open_object(file, name);
                gt::h5::write_attribute(obj, "unit", field == 'E' ? pick_unit(in, {"V/m", "kV/m", "MV/m"})
                                                                  : pick_unit(in, {"T", "mT", "G"}));
            }
        }
    }
    file.close("H5Fclose", path);
}

//! The 3D map: read; when accepted, laid out in either layout and evaluated, static and RF.
int fuzz_map_3d(std::string const& path, FuzzedDataProvider& in)
{
    try {
        write_map_3d(path, in);
    } catch (gt::IoError const&) {
        return 0;
    }
    gt::FieldMap3DFile map;
    try {
        map = gt::read_field_map_3d(path);
    } catch (gt::FieldMapFileError const&) {
        return 0;
    }
    std::vector<double> data;
    gt::FieldMap3D m{};
    m.grid = gt::append_field_grid(map, 1.0, 1.0, in.ConsumeBool() ? gt::FieldLayout::planar : gt::FieldLayout::interleaved,
                                   data);
    m.rf = in.ConsumeBool();
    m.k_rf = 27.0;
    while (in.remaining_bytes() > 0)
        (void)m.field(pick_double(in, 0.01), pick_double(in, 0.01), pick_double(in, 0.01), pick_double(in, 0.0));
    return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
    static std::string const path = gt::fuzz::scratch_file("gtrack-fuzz-field");
    FuzzedDataProvider in(data, size);
    if (in.ConsumeIntegralInRange(0, 2) == 0) return fuzz_map_3d(path, in);
    gt::FieldConfig cfg;
    cfg.type = "map";
    cfg.file = path;
    cfg.format = in.ConsumeBool() ? "cartesian" : "rz";
    std::size_t const dims = cfg.format == "cartesian" ? 3 : 2;
    try {
        write_field_map(path, in, dims);
    } catch (gt::IoError const&) {
        return 0;
    }
    gt::MagneticField field;
    std::vector<double> values;
    try {
        gt::read_field_map(cfg, field, values);
    } catch (gt::IoError const&) {
        return 0;
    } catch (std::invalid_argument const&) {
        return 0;
    }
    field.cartesian.values = values.data();
    field.rz.values = values.data();
    // Points across the grid and beyond it: corners, edges and outside, from the input.
    while (in.remaining_bytes() > 0) {
        gt::Vec3 const pos{pick_double(in, 0.01), pick_double(in, 0.01), pick_double(in, 0.01)};
        (void)field(pos);
    }
    return 0;
}
