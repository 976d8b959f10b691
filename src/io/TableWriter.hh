// Column tables in HDF5: one group, one dataset per column, a unit per column (statistics, losses).
//
// Layout: <group>/<column> is a 1D dataset (float64, int64 or uint64) with a string attribute
// "unit"; the group has a string-array attribute "columns" giving the column order, and "rows".
// Used for /stats (per-element beam statistics) and /lost (the lost-particle table).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace gt {

class OutputFile;

class Table {
  public:
    using Values = std::variant<std::vector<double>, std::vector<std::int64_t>, std::vector<std::uint64_t>>;
    struct Column {
        std::string name;  //!< letters, digits and '_' (it becomes a dataset name)
        std::string unit;  //!< "m", "m rad", "1", "MeV", ...
        Values values;
        std::string measurement;  //!< "" (physics) or the kind of measurement of the run (io/Measurement.hh)
    };

    Table() = default;
    //! An empty table of double columns (name, unit), to be filled with append_row().
    explicit Table(std::vector<std::pair<std::string, std::string>> const& double_columns);

    //! Adds a whole column; its length must match the columns already there. Names are unique.
    void add_column(std::string name, std::string unit, Values values);
    //! Marks the column `name` as a measurement of the run (a timing, ...: io/Measurement.hh), written
    //! as the dataset's `measurement` attribute. Throws std::out_of_range naming it if absent.
    void mark_measurement(std::string const& name, std::string_view kind);
    //! Appends one value to each column, in column order; every column must hold doubles.
    void append_row(std::span<double const> row);

    std::size_t rows() const;
    std::vector<Column> const& columns() const { return columns_; }
    //! The column called `name`, or nullptr.
    Column const* find(std::string const& name) const;
    //! The double column called `name`; throws std::out_of_range naming it if absent or not doubles.
    std::vector<double> const& doubles(std::string const& name) const;

  private:
    std::vector<Column> columns_;
};

//! Writes `table` as the group at `group_path` (e.g. "stats", "lost"); the group must not exist.
void write_table(OutputFile& out, std::string const& group_path, Table const& table);
//! write_table for a table held in pieces (one per MPI rank, in rank order), `rows` in all:
//! `piece(k)` is called once for each k = 0 .. pieces - 1, in order, and its rows follow the previous
//! piece's in the file. Every piece has the same columns (the first piece's names, types and units).
void write_table_in_pieces(OutputFile& out, std::string const& group_path, std::size_t rows,
                           std::size_t pieces, std::function<Table const&(std::size_t)> const& piece);
//! Reads a table written by write_table; IoError naming the file and group when it is not one.
Table read_table(std::string const& file_path, std::string const& group_path);

}  // namespace gt
