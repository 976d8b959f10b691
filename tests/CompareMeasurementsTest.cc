// gtrack compare and the measurements of the run (io/Measurement.hh, docs/output.md): what the files
// mark (a timing column, a schedule figure held as an attribute, a whole group) is reported apart and
// never fails a comparison unless --strict, a mark in either file is enough (an old reference without
// marks against a new output), a measurement in one file only is no structural difference, and a
// physics dataset that moves still fails beside them.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "CommandTestSupport.hh"
#include "IoTestSupport.hh"
#include "TextTestSupport.hh"
#include "compare/FileComparison.hh"
#include "io/Measurement.hh"
#include "io/OutputFile.hh"
#include "io/Provenance.hh"
#include "io/TableWriter.hh"

using namespace gt;
using gt::test::contains;
using gt::test::TempDir;

namespace {

struct Run {
    double t_solve = 0.25;         //!< a wall-clock time: differs in every run
    std::uint64_t held_back = 3;   //!< a schedule figure: differs with the rank count
    double field_energy = 1.5e-9;  //!< physics
    bool marks = true;             //!< false: a file written before the marks existed
    bool profile = false;          //!< a /profile group (marked whole), as --profile writes
};

std::string write_run(TempDir const& dir, std::string const& name, Run const& r)
{
    std::string const path = dir.file(name);
    OutputFile out(path);
    Table sc;
    sc.add_column("field_energy", "J", std::vector<double>{r.field_energy, 2 * r.field_energy});
    sc.add_column("t_solve", "s", std::vector<double>{r.t_solve, r.t_solve + 0.1});
    if (r.marks) sc.mark_measurement("t_solve", measurement::timing);
    write_table(out, "space_charge", sc);
    out.create_group("detector");
    out.set_attribute("detector", "hits", std::uint64_t(42));
    out.set_attribute("detector", "held_back", r.held_back);
    if (r.marks) out.mark_measured_attribute("detector", "held_back", measurement::schedule);
    if (r.profile) {
        Table p;
        p.add_column("seconds", "s", std::vector<double>{0.125});
        write_table(out, "profile", p);
        out.mark_measurement("profile", measurement::timing);
    }
    Provenance prov;
    prov.start_time = iso8601_utc_now();
    write_provenance(out, prov);
    out.commit();
    return path;
}

ItemComparison const& item(FileComparison const& c, std::string const& path)
{
    for (auto const& i : c.items)
        if (i.path == path) return i;
    FAIL("no item " << path);
    return c.items.front();
}

}  // namespace

TEST_CASE("compare: a timing and a schedule figure that differ are measurements, reported apart, no failure")
{
    TempDir dir;
    auto const a = write_run(dir, "a.h5", {});
    Run later;
    later.t_solve = 0.31;
    later.held_back = 7;
    auto const b = write_run(dir, "b.h5", later);

    FileComparison const c = compare_files(a, b, {});
    CHECK(c.ok());
    CHECK(c.differing() == 0);
    CHECK(item(c, "space_charge/t_solve").measurement == "timing");
    CHECK(item(c, "space_charge/t_solve").diff.differing == 2);
    CHECK(item(c, "detector@held_back").measurement == "schedule");
    CHECK(item(c, "detector@hits").measurement.empty());
    CHECK(item(c, "space_charge/field_energy").measurement.empty());
    std::string const report = comparison_report(c);
    CHECK(contains(report, "verdict: PASS"));
    CHECK(contains(report, "measurements of the run"));
    CHECK(contains(report, "space_charge/t_solve"));

    CompareOptions strict;
    strict.strict = true;
    FileComparison const s = compare_files(a, b, strict);
    CHECK(!s.ok());
    CHECK(s.failed_paths() == std::vector<std::string>{"detector@held_back", "space_charge/t_solve"});
}

TEST_CASE("compare: a physics change fails beside the measurements, and names the dataset")
{
    TempDir dir;
    auto const a = write_run(dir, "a.h5", {});
    Run changed;
    changed.t_solve = 0.5;
    changed.field_energy = 1.5e-9 * (1 + 1e-12);
    auto const b = write_run(dir, "b.h5", changed);
    FileComparison const c = compare_files(a, b, {});
    CHECK(!c.ok());
    CHECK(c.failed_paths() == std::vector<std::string>{"space_charge/field_energy"});
    CHECK(contains(comparison_report(c), "verdict: FAIL (1 outside tolerance)"));
}

TEST_CASE("compare: a mark in either file is enough; a measurement in one file only is no difference")
{
    TempDir dir;
    Run old;
    old.marks = false;  // a reference written before the marks
    auto const reference = write_run(dir, "reference.h5", old);
    Run now;
    now.t_solve = 9.0;
    now.held_back = 11;
    now.profile = true;  // and a /profile group the reference does not have
    auto const output = write_run(dir, "output.h5", now);

    for (auto const& [x, y] : {std::pair{reference, output}, std::pair{output, reference}}) {
        FileComparison const c = compare_files(x, y, {});
        CHECK(c.ok());
        CHECK(item(c, "space_charge/t_solve").measurement == "timing");
        CHECK(item(c, "detector@held_back").measurement == "schedule");
        REQUIRE(c.measurements_unmatched.size() >= 1);
        CHECK(contains(c.measurements_unmatched.front(), "profile"));
    }
    CompareOptions strict;
    strict.strict = true;
    bool refused = false;
    try {
        compare_files(reference, output, strict);
    } catch (ComparisonRefused const& e) {
        refused = contains(e.what(), "profile");
    }
    CHECK(refused);

    // Without marks on either side, the schedule figure is physics as before.
    auto const old_b = write_run(dir, "old_b.h5", [] {
        Run r;
        r.marks = false;
        r.held_back = 11;
        return r;
    }());
    CHECK(!compare_files(reference, old_b, {}).ok());
}

TEST_CASE("gtrack compare: a changed timing passes with no options, --strict fails on it")
{
    TempDir dir;
    auto const a = write_run(dir, "a.h5", {});
    Run later;
    later.t_solve = 0.75;
    auto const b = write_run(dir, "b.h5", later);
    auto r = gt::test::run_gtrack("compare " + a + " " + b);
    CHECK(r.status == 0);
    CHECK(contains(r.output, "verdict: PASS"));
    r = gt::test::run_gtrack("compare --strict " + a + " " + b);
    CHECK(r.status == 1);
    CHECK(contains(r.output, "space_charge/t_solve"));
}
