// gtrack compare: planted differences just inside and just outside tolerance, --only, refusals of
// files that are not gtrack outputs or differ in structure, and the tolerance rules themselves.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "CommandTestSupport.hh"
#include "IoTestSupport.hh"
#include "Relative.hh"
#include "TextTestSupport.hh"
#include "compare/FileComparison.hh"
#include "compare/Tolerance.hh"
#include "io/OutputFile.hh"
#include "io/Provenance.hh"
#include "io/TableWriter.hh"

using namespace gt;
using gt::test::TempDir;

namespace {

struct Planted {
    double sigma_x_factor = 1.0;      //!< stats/sigma_x[3] multiplied by this
    std::int64_t lost_id_offset = 0;  //!< added to lost/id[1]
    double s_ref = 12.5;              //!< a numeric attribute
    std::size_t rows = 6;             //!< rows of /stats
    bool provenance = true;
    bool extra_dataset = false;
    std::string command_line = "gtrack run a.toml";
};

//! A small file shaped like a gtrack output: /provenance, /stats, /lost, a 2D dataset, attributes.
std::string write_file(TempDir const& dir, std::string const& name, Planted const& p)
{
    std::string const path = dir.file(name);
    OutputFile out(path);
    Table stats;
    std::vector<double> s, sigma_x;
    for (std::size_t i = 0; i < p.rows; ++i) {
        s.push_back(0.5 * double(i));
        sigma_x.push_back(1e-3 * (1.0 + 0.1 * double(i)));
    }
    if (p.rows > 3) sigma_x[3] *= p.sigma_x_factor;
    stats.add_column("s", "m", s);
    stats.add_column("sigma_x", "m", sigma_x);
    write_table(out, "stats", stats);
    Table lost;
    lost.add_column("id", "1", std::vector<std::int64_t>{4, 9 + p.lost_id_offset});
    lost.add_column("x", "m", std::vector<double>{1e-3, -2e-3});
    write_table(out, "lost", lost);
    std::vector<double> m = {1, 2, 3, 4, 5, 6};
    out.write_dataset_2d("data/0/matrix", m, 2, 3);
    out.set_attribute("data/0", "s_ref", p.s_ref);
    out.set_attribute("data/0", "where", "end");
    if (p.extra_dataset) out.write_dataset("data/0/extra", std::vector<double>{1.0});
    if (p.provenance) {
        Provenance prov;
        prov.command_line = p.command_line;
        prov.start_time = iso8601_utc_now();
        prov.end_time = prov.start_time;
        write_provenance(out, prov);
    }
    out.commit();
    return path;
}

using gt::test::contains;

std::string refusal(std::string const& a, std::string const& b, CompareOptions const& o = {})
{
    try {
        compare_files(a, b, o);
    } catch (ComparisonRefused const& e) {
        return e.what();
    }
    return {};
}

using gt::test::CommandResult;
using gt::test::run_gtrack;

}  // namespace

TEST_CASE("compare: identical files pass; provenance (times, command line) is a measurement, set apart")
{
    TempDir dir;
    Planted other;
    other.command_line = "gtrack run somewhere/else.toml --set x=1";
    auto const a = write_file(dir, "a.h5", {});
    auto const b = write_file(dir, "b.h5", other);
    FileComparison const c = compare_files(a, b, {});
    CHECK(c.ok());
    CHECK(c.differing() == 0);
    // stats/s, stats/sigma_x, lost/id, lost/x, data/0/matrix, data/0@s_ref, plus the tables' rows attributes.
    bool has_attr = false;
    for (auto const& i : c.items) {
        if (contains(i.path, "provenance")) CHECK(i.measurement == "provenance");
        if (i.path == "data/0@s_ref") has_attr = true;
    }
    CHECK(has_attr);
    CHECK(contains(comparison_report(c), "verdict: PASS"));
}

TEST_CASE("compare: a planted difference just outside tolerance fails, just inside passes")
{
    TempDir dir;
    auto const a = write_file(dir, "a.h5", {});
    Planted p;
    p.sigma_x_factor = 1 + 2e-12;  // relative difference 2e-12 in one value of stats/sigma_x
    auto const b = write_file(dir, "b.h5", p);

    FileComparison const bitwise = compare_files(a, b, {});
    CHECK(!bitwise.ok());
    REQUIRE(bitwise.outside() == 1);

    CompareOptions o;
    o.tolerances.add_option("--rtol", "1e-12");  // just outside
    FileComparison const out = compare_files(a, b, o);
    CHECK(!out.ok());
    for (auto const& i : out.items) {
        if (i.path != "stats/sigma_x") {
            CHECK(i.diff.differing == 0);
            continue;
        }
        CHECK(i.diff.outside == 1);
        CHECK(i.diff.worst == 3);
        CHECK(i.diff.max_rel == test::relative(2e-12, 1e-3));
    }
    std::string const table = comparison_report(out);
    CHECK(contains(table, "stats/sigma_x"));
    CHECK(contains(table, "FAIL"));

    CompareOptions in;
    in.tolerances.add_option("--rtol", "stats/sigma_*=3e-12");  // just inside, by pattern
    FileComparison const inside = compare_files(a, b, in);
    CHECK(inside.ok());
    CHECK(inside.differing() == 1);
    CHECK(contains(comparison_report(inside), "ok (within tolerance)"));

    CompareOptions abs;
    abs.tolerances.add_option("--atol", "stats/sigma_x=2.5e-15");  // |diff| = 1.3e-3 * 2e-12 = 2.6e-15
    CHECK(!compare_files(a, b, abs).ok());
    abs.tolerances.add_option("--atol", "stats/sigma_x=2.7e-15");
    CHECK(compare_files(a, b, abs).ok());
}

TEST_CASE("compare: integer datasets and numeric attributes are compared too; --only restricts")
{
    TempDir dir;
    auto const a = write_file(dir, "a.h5", {});
    Planted p;
    p.lost_id_offset = 1;
    p.s_ref = 12.5000001;
    auto const b = write_file(dir, "b.h5", p);
    FileComparison const c = compare_files(a, b, {});
    CHECK(c.outside() == 2);
    std::string const table = comparison_report(c);
    CHECK(contains(table, "lost/id"));
    CHECK(contains(table, "data/0@s_ref"));

    CompareOptions only;
    only.only = {"/stats/*"};
    FileComparison const s = compare_files(a, b, only);
    CHECK(s.ok());
    for (auto const& i : s.items) CHECK(i.path.rfind("stats", 0) == 0);

    only.only = {"nothing/matches"};
    CHECK(contains(refusal(a, b, only), "matches --only"));
}

TEST_CASE("compare refuses files that are not gtrack outputs and files of different structure")
{
    TempDir dir;
    auto const a = write_file(dir, "a.h5", {});
    Planted plain;
    plain.provenance = false;
    auto const not_gtrack = write_file(dir, "plain.h5", plain);
    std::string msg = refusal(a, not_gtrack);
    CHECK(contains(msg, "plain.h5' is not a gtrack output file"));
    CHECK(contains(msg, "/provenance"));

    Planted extra;
    extra.extra_dataset = true;
    msg = refusal(a, write_file(dir, "extra.h5", extra));
    CHECK(contains(msg, "different structures"));
    CHECK(contains(msg, "data/0/extra (float64[1]) is only in"));

    Planted shorter;
    shorter.rows = 5;
    msg = refusal(a, write_file(dir, "short.h5", shorter));
    CHECK(contains(msg, "stats/sigma_x is float64[6] in"));
    CHECK(contains(msg, "but float64[5] in"));

    // Not HDF5 at all, or missing: refused, naming the file.
    std::ofstream(dir.file("text.h5")) << "not hdf5\n";
    CHECK(contains(refusal(a, dir.file("text.h5")), "cannot compare '" + dir.file("text.h5") + "'"));
    CHECK(contains(refusal(dir.file("missing.h5"), a), "missing.h5"));
}

TEST_CASE("gtrack compare: exit status 0 within tolerance, 1 outside, 2 refused")
{
    TempDir dir;
    auto const a = write_file(dir, "a.h5", {});
    Planted p;
    p.sigma_x_factor = 1 + 2e-12;
    auto const b = write_file(dir, "b.h5", p);
    Planted plain;
    plain.provenance = false;
    auto const c = write_file(dir, "plain.h5", plain);

    CommandResult r = run_gtrack("compare " + a + " " + b + " --rtol 1e-12");
    CHECK(r.status == 1);
    CHECK(contains(r.output, "verdict: FAIL"));
    r = run_gtrack("compare " + a + " " + b + " --rtol 3e-12");
    CHECK(r.status == 0);
    CHECK(contains(r.output, "verdict: PASS"));
    r = run_gtrack("compare " + a + " " + c);
    CHECK(r.status == 2);
    CHECK(contains(r.output, "not a gtrack output file"));
    r = run_gtrack("compare " + a + " " + b + " --rtol minus-one");
    CHECK(r.status != 0);
    CHECK(contains(r.output, "expected a number >= 0"));
}

TEST_CASE("tolerance: zero is bitwise; rtol and atol; NaN agrees only with NaN")
{
    Tolerance const exact;
    CHECK(exact.accepts(1.0, 1.0));
    CHECK(!exact.accepts(0.0, -0.0));  // bitwise: the sign of zero counts
    CHECK(!exact.accepts(1.0, std::nextafter(1.0, 2.0)));
    CHECK(exact.accepts(std::nan(""), std::nan("")));  // same bits
    Tolerance const rel{1e-12, 0};
    CHECK(rel.accepts(1.0, 1.0 + 0.9e-12));
    CHECK(!rel.accepts(1.0, 1.0 + 1.1e-12));
    CHECK(rel.accepts(0.0, -0.0));
    CHECK(!rel.accepts(1.0, std::nan("")));
    CHECK(rel.accepts(std::nan("1"), std::nan("2")));
    Tolerance const abs{0, 1e-15};
    CHECK(abs.accepts(0.0, 0.9e-15));
    CHECK(!abs.accepts(0.0, 1.1e-15));
    CHECK(relative_difference(2.0, 1.0) == 0.5);
    CHECK(std::isinf(absolute_difference(1.0, std::nan(""))));
}

TEST_CASE("tolerance rules: later rules refine earlier ones; files and options are checked")
{
    TempDir dir;
    std::ofstream(dir.file("tol.toml"))
        << "# regression tolerances\n"
           "[[tolerance]]\nmatch = \"*\"\nrtol = 1e-12\n"
           "[[tolerance]]\nmatch = \"/stats/*\"\nrtol = 1e-10\natol = 1e-20\n";
    ToleranceRules r;
    r.read_file(dir.file("tol.toml"));
    r.add_option("--atol", "stats/sigma_x=1e-18");
    CHECK(r.for_name("data/0/particles/beam/position/x").rtol == 1e-12);
    CHECK(r.for_name("stats/mean_x").rtol == 1e-10);
    CHECK(r.for_name("stats/mean_x").atol == 1e-20);
    CHECK(r.for_name("stats/sigma_x").atol == 1e-18);
    CHECK(r.for_name("stats/sigma_x").rtol == 1e-10);
    CHECK(ToleranceRules{}.for_name("x").bitwise());

    CHECK_THROWS_WITH_AS(r.add_option("--rtol", "x=-1"), doctest::Contains("expected a number >= 0"),
                         std::invalid_argument);
    CHECK_THROWS_AS(r.add_option("--rtol", "=1"), std::invalid_argument);
    std::ofstream(dir.file("bad.toml")) << "[[tolerance]]\nmatch = \"*\"\nrtoll = 1e-12\n";
    CHECK_THROWS_WITH_AS(r.read_file(dir.file("bad.toml")),
                         doctest::Contains("bad.toml:3:9: tolerance[0].rtoll: unknown key"),
                         std::runtime_error);
    std::ofstream(dir.file("nomatch.toml")) << "[[tolerance]]\nrtol = 1e-12\n";
    CHECK_THROWS_WITH_AS(r.read_file(dir.file("nomatch.toml")), doctest::Contains("'match' is required"),
                         std::runtime_error);
}
