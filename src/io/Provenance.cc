// Run provenance written to and read from the /provenance group of an output file.
#include "io/Provenance.hh"

#include <chrono>
#include <ctime>

#include <fmt/format.h>

#include "io/H5Access.hh"
#include "io/Measurement.hh"
#include "io/OutputFile.hh"

namespace gt {
namespace {

constexpr char const* k_group = "/provenance";

//! The string members in file order, so writer and reader cannot disagree on a name.
template <class P, class F>
void for_each_string(P& p, F&& f)
{
    f("gtrack_version", p.gtrack_version);
    f("git_hash", p.git_hash);
    f("build_options", p.build_options);
    f("deck_path", p.deck_path);
    f("deck_text", p.deck_text);
    f("command_line", p.command_line);
    f("backend", p.backend);
    f("device_name", p.device_name);
    f("start_time", p.start_time);
    f("end_time", p.end_time);
}

}  // namespace

void write_provenance(OutputFile& out, Provenance const& p)
{
    h5::Group group = out.create_group(k_group);
    for_each_string(
        p, [&](char const* name, std::string const& value) { h5::write_attribute(group, name, value); });
    h5::write_attribute(group, "seed", p.seed);
    h5::write_attribute(group, "overrides", std::span<std::string const>(p.overrides));
    h5::write_attribute(group, "scan_index", p.scan_index);
    h5::write_attribute(group, "scan_size", p.scan_size);
    h5::write_attribute(group, "scan_mode", p.scan_mode);
    h5::write_attribute(group, "scan_parameters", std::span<std::string const>(p.scan_parameters));
    h5::write_attribute(group, "scan_values", std::span<std::string const>(p.scan_values));
    h5::write_attribute(group, "ranks", p.ranks);
    h5::write_attribute(group, "rank_devices", std::span<std::string const>(p.rank_devices));
    // What produced the file, when and where: set apart by compare (the seed and the deck are also
    // part of what a run is, but a different seed or deck shows in the physics it produced).
    mark_measurement(group, measurement::provenance);
}

Provenance read_provenance(std::string const& path)
{
    h5::File file = h5::open_file_readonly(path);
    if (!h5::is_group(file, k_group))
        throw IoError(fmt::format("'{}' has no provenance: group {} is missing (not written by gtrack?)",
                                  path, k_group));
    h5::Group group = h5::open_group(file, k_group);
    Provenance p;
    for_each_string(
        p, [&](char const* name, std::string& value) { value = h5::read_string_attribute(group, name); });
    p.seed = h5::read_uint64_attribute(group, "seed");
    p.overrides = h5::read_string_array_attribute(group, "overrides");
    // Files written before scans existed have no scan attributes: they are not scan points.
    if (h5::has_attribute(group, "scan_index")) {
        p.scan_index = h5::read_int64_attribute(group, "scan_index");
        p.scan_size = h5::read_uint64_attribute(group, "scan_size");
        p.scan_mode = h5::read_string_attribute(group, "scan_mode");
        p.scan_parameters = h5::read_string_array_attribute(group, "scan_parameters");
        p.scan_values = h5::read_string_array_attribute(group, "scan_values");
    }
    // Files written before MPI runs existed ran on one rank.
    if (h5::has_attribute(group, "ranks")) {
        p.ranks = h5::read_int64_attribute(group, "ranks");
        p.rank_devices = h5::read_string_array_attribute(group, "rank_devices");
    }
    return p;
}

std::string iso8601_utc_now()
{
    std::time_t const now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

}  // namespace gt
