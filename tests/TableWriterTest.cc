// Column tables: write/read round trip (order, units, types, bits), the statistics table, and errors.
#include <doctest/doctest.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "IoTestSupport.hh"
#include "beam/BeamStatistics.hh"
#include "io/H5Access.hh"
#include "io/OutputFile.hh"
#include "io/TableWriter.hh"
#include "TextTestSupport.hh"

using namespace gt;
using gt::test::TempDir;

namespace {

using gt::test::contains;

using gt::test::io_error_of;

}  // namespace

TEST_CASE("a lost-particle table round-trips: column order, units, integer types and exact values")
{
    TempDir dir;
    Table lost;
    lost.add_column("id", "1", std::vector<std::uint64_t>{3, 18446744073709551615ull, 7});
    lost.add_column("element", "1", std::vector<std::int64_t>{12, -1, 40});
    lost.add_column("turn", "1", std::vector<std::int64_t>{0, 0, 999});
    lost.add_column("x", "m", std::vector<double>{1e-3, -0.0, 5e-324});
    lost.add_column("s", "m", std::vector<double>{1.25, 0.0, 3.75});
    CHECK(lost.rows() == 3);
    {
        OutputFile out(dir.file("run.h5"));
        write_table(out, "lost", lost);
        CHECK_THROWS_AS(write_table(out, "lost", lost), IoError);  // once per group
        out.commit();
    }
    Table const back = read_table(dir.file("run.h5"), "lost");
    REQUIRE(back.columns().size() == 5);
    std::vector<std::string> names;
    for (auto const& c : back.columns()) names.push_back(c.name);
    CHECK(names == std::vector<std::string>{"id", "element", "turn", "x", "s"});  // as written, not by name
    CHECK(std::get<std::vector<std::uint64_t>>(back.find("id")->values) ==
          std::vector<std::uint64_t>{3, 18446744073709551615ull, 7});
    CHECK(std::get<std::vector<std::int64_t>>(back.find("element")->values) ==
          std::vector<std::int64_t>{12, -1, 40});
    auto const& x = back.doubles("x");
    auto const& x0 = lost.doubles("x");
    CHECK(std::memcmp(x.data(), x0.data(), 3 * sizeof(double)) == 0);
    CHECK(back.find("x")->unit == "m");
    CHECK(back.find("turn")->unit == "1");

    // The layout itself, as h5py users see it: one dataset per column, a unit attribute, the order.
    h5::File f = h5::open_file_readonly(dir.file("run.h5"));
    h5::Group g = h5::open_group(f, "/lost");
    CHECK(h5::read_string_array_attribute(g, "columns") == names);
    CHECK(h5::read_uint64_attribute(g, "rows") == 3);
    h5::Dataset ds = h5::open_dataset(g, "s");
    CHECK(h5::read_string_attribute(ds, "unit") == "m");
    CHECK(h5::read_doubles(g, "s") == std::vector<double>{1.25, 0.0, 3.75});
}

TEST_CASE("the statistics table is built row by row from statistics_columns / statistics_row")
{
    TempDir dir;
    Table stats(statistics_columns());
    auto const ref = ReferenceParticle::from_kinetic(938.27208816, 1.0, 250.0);
    for (int k = 0; k < 4; ++k) {
        BeamMoments m;
        m.alive = 1000 - k;
        m.cov[0][0] = 1e-6 * (k + 1);
        m.cov[1][1] = 1e-8;
        auto s = derive_statistics(m, ref);
        s.s = 0.5 * k;
        s.element = k - 1;
        stats.append_row(statistics_row(s));
    }
    CHECK(stats.rows() == 4);
    {
        OutputFile out(dir.file("run.h5"));
        write_table(out, "stats", stats);
        out.commit();
    }
    Table const back = read_table(dir.file("run.h5"), "stats");
    REQUIRE(back.columns().size() == statistics_columns().size());
    for (std::size_t i = 0; i < back.columns().size(); ++i) {
        CAPTURE(statistics_columns()[i].first);
        CHECK(back.columns()[i].name == statistics_columns()[i].first);
        CHECK(back.columns()[i].unit == statistics_columns()[i].second);
        CHECK(back.doubles(back.columns()[i].name) == stats.doubles(back.columns()[i].name));
    }
    CHECK(back.doubles("s") == std::vector<double>{0, 0.5, 1.0, 1.5});
    CHECK(back.doubles("alive") == std::vector<double>{1000, 999, 998, 997});
}

TEST_CASE("an empty table keeps its columns")
{
    TempDir dir;
    Table empty({{"s", "m"}, {"alive", "1"}});
    {
        OutputFile out(dir.file("run.h5"));
        write_table(out, "nested/stats", empty);
        out.commit();
    }
    Table const back = read_table(dir.file("run.h5"), "nested/stats");
    CHECK(back.rows() == 0);
    REQUIRE(back.columns().size() == 2);
    CHECK(back.columns()[1].name == "alive");
}

TEST_CASE("table misuse and unreadable tables are reported")
{
    Table t;
    t.add_column("a", "m", std::vector<double>{1, 2});
    CHECK_THROWS_AS(t.add_column("b", "m", std::vector<double>{1}), std::invalid_argument);
    CHECK_THROWS_AS(t.add_column("a", "m", std::vector<double>{1, 2}), std::invalid_argument);
    CHECK_THROWS_AS(t.add_column("bad name", "m", std::vector<double>{1, 2}), std::invalid_argument);
    CHECK_THROWS_AS(t.append_row(std::vector<double>{1, 2}), std::invalid_argument);
    t.add_column("n", "1", std::vector<std::int64_t>{1, 2});
    CHECK_THROWS_AS(t.append_row(std::vector<double>{1, 2}), std::invalid_argument);  // n holds integers
    CHECK_THROWS_AS((void)t.doubles("n"), std::out_of_range);
    CHECK_THROWS_AS((void)t.doubles("zz"), std::out_of_range);

    TempDir dir;
    {
        OutputFile out(dir.file("run.h5"));
        out.write_dataset("plain/x", std::vector<double>{1});
        out.commit();
    }
    std::string m = io_error_of([&] { read_table(dir.file("run.h5"), "stats"); });
    CHECK(contains(m, dir.file("run.h5")));
    CHECK(contains(m, "no table 'stats'"));
    m = io_error_of([&] { read_table(dir.file("run.h5"), "plain"); });
    CHECK(contains(m, "not a gtrack table"));
}
