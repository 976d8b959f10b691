// Column tables written to and read from HDF5 groups (layout in TableWriter.hh, docs/output.md).
#include "io/TableWriter.hh"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <fmt/format.h>

#include "io/H5Access.hh"
#include "io/Measurement.hh"
#include "io/OutputFile.hh"

namespace gt {
namespace {

std::size_t length_of(Table::Values const& v)
{
    return std::visit([](auto const& column) { return column.size(); }, v);
}

bool is_column_name(std::string const& s)
{
    if (s.empty()) return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return true;
}

}  // namespace

Table::Table(std::vector<std::pair<std::string, std::string>> const& double_columns)
{
    for (auto const& [name, unit] : double_columns) add_column(name, unit, std::vector<double>{});
}

void Table::mark_measurement(std::string const& name, std::string_view kind)
{
    for (auto& c : columns_)
        if (c.name == name) {
            c.measurement = std::string(kind);
            return;
        }
    throw std::out_of_range(fmt::format("table has no column '{}' to mark as a measurement", name));
}

void Table::add_column(std::string name, std::string unit, Values values)
{
    if (!is_column_name(name))
        throw std::invalid_argument(fmt::format("table column '{}': use letters, digits and '_'", name));
    if (find(name) != nullptr)
        throw std::invalid_argument(fmt::format("table column '{}' given twice", name));
    if (!columns_.empty() && length_of(values) != rows())
        throw std::invalid_argument(
            fmt::format("table column '{}' has {} rows, the table {}", name, length_of(values), rows()));
    columns_.push_back(Column{std::move(name), std::move(unit), std::move(values), {}});
}

void Table::append_row(std::span<double const> row)
{
    if (row.size() != columns_.size())
        throw std::invalid_argument(
            fmt::format("table row has {} values for {} columns", row.size(), columns_.size()));
    for (auto const& c : columns_)
        if (!std::holds_alternative<std::vector<double>>(c.values))
            throw std::invalid_argument(fmt::format("append_row: column '{}' does not hold doubles", c.name));
    for (std::size_t i = 0; i < row.size(); ++i)
        std::get<std::vector<double>>(columns_[i].values).push_back(row[i]);
}

std::size_t Table::rows() const { return columns_.empty() ? 0 : length_of(columns_.front().values); }

Table::Column const* Table::find(std::string const& name) const
{
    auto it = std::find_if(columns_.begin(), columns_.end(), [&](Column const& c) { return c.name == name; });
    return it == columns_.end() ? nullptr : &*it;
}

std::vector<double> const& Table::doubles(std::string const& name) const
{
    Column const* c = find(name);
    if (c == nullptr) throw std::out_of_range(fmt::format("table has no column '{}'", name));
    if (!std::holds_alternative<std::vector<double>>(c->values))
        throw std::out_of_range(fmt::format("table column '{}' does not hold doubles", name));
    return std::get<std::vector<double>>(c->values);
}

void write_table(OutputFile& out, std::string const& group_path, Table const& table)
{
    write_table_in_pieces(out, group_path, table.rows(), 1,
                          [&](std::size_t) -> Table const& { return table; });
}

void write_table_in_pieces(OutputFile& out, std::string const& group_path, std::size_t rows,
                           std::size_t pieces, std::function<Table const&(std::size_t)> const& piece)
{
    if (h5::exists(out.id(), group_path))
        throw IoError(fmt::format("'{}': table {} was written already", out.temp_path(), group_path));
    h5::Group group = out.create_group(group_path);
    std::vector<std::string> names;
    std::vector<h5::Dataset> datasets;
    std::size_t offset = 0;
    for (std::size_t k = 0; k < pieces; ++k) {
        Table const& p = piece(k);
        if (k == 0) {
            // The first piece gives the columns, their types and units.
            for (auto const& c : p.columns()) {
                datasets.push_back(std::visit(
                    [&](auto const& v) {
                        using T = typename std::decay_t<decltype(v)>::value_type;
                        return h5::create_dataset_1d(group, c.name, rows, T{});
                    },
                    c.values));
                h5::write_attribute(datasets.back(), "unit", c.unit);
                if (!c.measurement.empty()) mark_measurement(datasets.back(), c.measurement);
                names.push_back(c.name);
            }
        }
        if (p.columns().size() != names.size() || offset + p.rows() > rows)
            throw std::invalid_argument(fmt::format("table {}: piece {} does not fit the table", group_path, k));
        for (std::size_t i = 0; i < names.size(); ++i) {
            Table::Column const& c = p.columns()[i];
            if (c.name != names[i])
                throw std::invalid_argument(
                    fmt::format("table {}: piece {} has column '{}' where '{}' was", group_path, k, c.name, names[i]));
            std::visit([&](auto const& v) { h5::write_slab(datasets[i], offset, std::span(v)); }, c.values);
        }
        offset += p.rows();
    }
    if (offset != rows)
        throw std::invalid_argument(
            fmt::format("table {}: the pieces hold {} rows, {} were announced", group_path, offset, rows));
    h5::write_attribute(group, "columns", std::span<std::string const>(names));
    h5::write_attribute(group, "rows", static_cast<std::uint64_t>(rows));
}

Table read_table(std::string const& file_path, std::string const& group_path)
{
    h5::File file = h5::open_file_readonly(file_path);
    if (!h5::is_group(file, group_path))
        throw IoError(fmt::format("'{}': there is no table '{}'", file_path, group_path));
    h5::Group group = h5::open_group(file, group_path);
    if (!h5::has_attribute(group, "columns"))
        throw IoError(fmt::format("'{}': group '{}' is not a gtrack table (attribute 'columns' is missing)",
                                  file_path, group_path));
    Table table;
    for (auto const& name : h5::read_string_array_attribute(group, "columns")) {
        if (!h5::exists(group, name))
            throw IoError(fmt::format("'{}': table '{}' lists column '{}' but has no such dataset", file_path,
                                      group_path, name));
        h5::StoredType const type = h5::stored_type(group, name);
        Table::Values values;
        if (type.type_class == H5T_FLOAT)
            values = h5::read_doubles(group, name);
        else if (type.type_class == H5T_INTEGER && type.is_signed)
            values = h5::read_int64s(group, name);
        else if (type.type_class == H5T_INTEGER)
            values = h5::read_uint64s(group, name);
        else
            throw IoError(
                fmt::format("'{}': table column '{}/{}' does not hold numbers", file_path, group_path, name));
        h5::Dataset ds = h5::open_dataset(group, name);
        std::string unit = h5::has_attribute(ds, "unit") ? h5::read_string_attribute(ds, "unit") : "";
        try {
            table.add_column(name, std::move(unit), std::move(values));
            if (h5::has_attribute(ds, k_measurement_attribute))
                table.mark_measurement(name, h5::read_string_attribute(ds, k_measurement_attribute));
        } catch (std::invalid_argument const& e) {
            throw IoError(fmt::format("'{}': table '{}': {}", file_path, group_path, e.what()));
        }
    }
    return table;
}

}  // namespace gt
