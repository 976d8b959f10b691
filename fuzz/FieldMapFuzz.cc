// Fuzz target: detector field maps (HDF5, field.type = "map"). As for beam files, the input
// describes a file that HDF5 writes (dataset B: type and length; attributes shape, spacing, lower:
// lengths and values; format cartesian or rz). read_field_map must refuse a bad map with IoError or
// std::invalid_argument; a map it accepts is then evaluated at points inside, on the edges of and
// outside its grid, where ASan catches any read beyond B.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "FuzzHdf5.hh"
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
    static std::string const path = gt::fuzz::scratch_file("gtrack-fuzz-field");
    FuzzedDataProvider in(data, size);
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
