// Scan outputs: completeness checks, final statistics, numeric parameter columns.
#include "run/ScanOutputs.hh"

#include <sys/stat.h>

#include <charconv>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "deck/Units.hh"
#include "io/H5Access.hh"
#include "io/H5Handle.hh"
#include "io/TableWriter.hh"

namespace gt {

std::string state_name(OutputState state)
{
    switch (state) {
        case OutputState::complete:
            return "complete";
        case OutputState::missing:
            return "missing";
        case OutputState::broken:
            return "broken";
        case OutputState::other_point:
            return "other point";
    }
    return "?";
}

OutputStatus scan_output_status(std::string const& path, ScanConfig const& scan, std::uint64_t point)
{
    OutputStatus status;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        status.reason = fmt::format("no file '{}'", path);
        return status;
    }
    try {
        status.provenance = read_provenance(path);
        // a beamline run's /stats, a detector run's /tallies (one row per volume, always written), or a
        // ring study's first table (docs/output.md, "Ring studies")
        char const* table = "stats";
        {
            h5::File file = h5::open_file_readonly(path);
            if (h5::exists(file.get(), "detector"))
                table = "tallies";
            else if (h5::exists(file.get(), "dynamic_aperture"))
                table = "dynamic_aperture/particles";
            else if (h5::exists(file.get(), "momentum_aperture"))
                table = "momentum_aperture";
        }
        Table const stats = read_table(path, table);
        if (stats.rows() == 0) throw IoError(fmt::format("'{}': /{} has no rows", path, table));
    } catch (std::exception const& e) {
        status.state = OutputState::broken;
        status.reason = fmt::format("not a complete gtrack output: {}", e.what());
        return status;
    }
    Provenance const& p = status.provenance;
    std::vector<std::string> keys;
    for (auto const& q : scan.parameters) keys.push_back(q.key);
    std::vector<std::string> const values = scan.labels_at(point);
    if (p.scan_index < 0) {
        status.state = OutputState::other_point;
        status.reason = fmt::format("'{}' is not the output of a scan point", path);
    } else if (p.scan_parameters != keys || p.scan_values != values) {
        status.state = OutputState::other_point;
        std::string made_by;
        for (std::size_t k = 0; k < p.scan_parameters.size() && k < p.scan_values.size(); ++k)
            made_by += fmt::format("{}{} = {}", k ? ", " : "", p.scan_parameters[k], p.scan_values[k]);
        status.reason = fmt::format("'{}' holds scan point {} ({}), not this point ({})", path, p.scan_index,
                                    made_by, scan.describe_point(point));
    } else {
        status.state = OutputState::complete;
    }
    return status;
}

std::vector<FinalStatistic> final_statistics(std::string const& path)
{
    {
        // a detector run: the energy deposited in each volume (docs/output.md)
        h5::File file = h5::open_file_readonly(path);
        if (h5::exists(file.get(), "detector")) {
            Table const tallies = read_table(path, "tallies");
            h5::Object group = h5::open_object(file.get(), "tallies");
            auto const names = h5::read_string_array_attribute(group.get(), "volume_names");
            auto const& edep = tallies.doubles("edep");
            if (names.size() != edep.size())
                throw IoError(fmt::format("'{}': /tallies has {} rows but {} volume names", path, edep.size(),
                                          names.size()));
            std::vector<FinalStatistic> out;
            for (std::size_t i = 0; i < edep.size(); ++i) out.push_back({"edep_" + names[i], "MeV", edep[i]});
            return out;
        }
    }
    Table const stats = read_table(path, "stats");
    std::size_t const rows = stats.rows();
    if (rows == 0) throw IoError(fmt::format("'{}': /stats has no rows", path));
    std::vector<FinalStatistic> out;
    for (auto const& c : stats.columns()) {
        double const v =
            std::visit([&](auto const& values) { return static_cast<double>(values[rows - 1]); }, c.values);
        out.push_back({c.name, c.unit, v});
    }
    return out;
}

namespace {

//! "50 MeV" -> "MeV"; "2.0" -> "".
std::string unit_text(std::string const& label)
{
    double v = 0;
    auto const [end, ec] = std::from_chars(label.data(), label.data() + label.size(), v);
    if (ec != std::errc()) return {};
    std::string_view rest(end, std::size_t(label.data() + label.size() - end));
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    return std::string(rest);
}

}  // namespace

std::optional<NumericParameter> numeric_parameter(ScanParameter const& p)
{
    std::vector<Quantity> q;
    try {
        for (auto const& label : p.labels) q.push_back(parse_quantity(label));
    } catch (UnitError const&) {
        return std::nullopt;
    }
    NumericParameter out;
    if (q.empty()) return out;
    bool const bare = unit_text(p.labels.front()).empty();
    double const first_unit = q.front().scale.apply(1.0);
    for (std::size_t i = 0; i < q.size(); ++i) {
        bool const this_bare = unit_text(p.labels[i]).empty();
        if (this_bare != bare || !(q[i].dimension == q.front().dimension)) return std::nullopt;
        bool const same_unit = unit_text(p.labels[i]) == unit_text(p.labels.front());
        out.values.push_back(same_unit ? q[i].number : q[i].scale.apply(q[i].number) / first_unit);
    }
    if (!bare) out.unit = unit_text(p.labels.front());
    return out;
}

std::string column_name(std::string const& key)
{
    std::string name;
    for (char c : key) {
        bool const ok =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        name += ok ? c : '_';
    }
    return name;
}

}  // namespace gt
