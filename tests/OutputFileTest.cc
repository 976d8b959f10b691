// The output file: temporary name, rename on commit, removal on failure and on signals, clear errors,
// the typed helpers, and provenance round trips.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "IoTestSupport.hh"
#include "io/H5Access.hh"
#include "io/OutputFile.hh"
#include "io/Provenance.hh"
#include "TextTestSupport.hh"

using namespace gt;
using gt::test::file_exists;
using gt::test::TempDir;

namespace {

std::string read_bytes(std::string const& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

using gt::test::io_error_of;

using gt::test::contains;

}  // namespace

TEST_CASE("commit renames the temporary to the final name")
{
    TempDir dir;
    std::string const final_path = dir.file("run.h5");
    std::vector<double> const values = {1.0, 2.5, -3.0};
    {
        OutputFile out(final_path);
        CHECK(out.temp_path() == final_path + ".tmp-" + std::to_string(::getpid()));
        CHECK(file_exists(out.temp_path()));
        CHECK_FALSE(file_exists(final_path));
        out.write_dataset("a/b/values", values);
        out.commit();
        CHECK(out.committed());
        CHECK_FALSE(file_exists(out.temp_path()));
        CHECK(file_exists(final_path));
    }
    // Destroying a committed file must not remove the final one.
    CHECK(dir.entries() == std::vector<std::string>{"run.h5"});
    h5::File f = h5::open_file_readonly(final_path);
    CHECK(h5::read_doubles(f, "/a/b/values") == values);
}

TEST_CASE("an exception before commit leaves neither the temporary nor a final file")
{
    TempDir dir;
    std::string const final_path = dir.file("run.h5");
    std::string temp;
    try {
        OutputFile out(final_path);
        temp = out.temp_path();
        out.write_dataset("x", std::vector<double>{1, 2, 3});
        h5::Group open_group = out.create_group("still/open");  // an open handle must not keep the file
        REQUIRE(file_exists(temp));
        throw std::runtime_error("tracking failed");
    } catch (std::runtime_error const& e) {
        CHECK(std::string(e.what()) == "tracking failed");
    }
    CHECK_FALSE(temp.empty());
    CHECK_FALSE(file_exists(temp));
    CHECK_FALSE(file_exists(final_path));
    CHECK(dir.entries().empty());
}

TEST_CASE("an existing final file is untouched until commit, then replaced")
{
    TempDir dir;
    std::string const final_path = dir.file("run.h5");
    {
        std::ofstream(final_path) << "previous run's result";
    }
    {
        OutputFile out(final_path);
        out.write_dataset("x", std::vector<std::int64_t>{7});
        out.set_attribute("/", "note", "new");
        CHECK(read_bytes(final_path) == "previous run's result");
        // destroyed without commit: the old file stays
    }
    CHECK(read_bytes(final_path) == "previous run's result");
    {
        OutputFile out(final_path);
        out.write_dataset("x", std::vector<std::int64_t>{7});
        CHECK(read_bytes(final_path) == "previous run's result");
        out.commit();
    }
    h5::File f = h5::open_file_readonly(final_path);
    CHECK(h5::read_int64s(f, "x") == std::vector<std::int64_t>{7});
    CHECK(dir.entries() == std::vector<std::string>{"run.h5"});
}

TEST_CASE("commit closes handles still open and keeps what was written through them")
{
    TempDir dir;
    std::string const final_path = dir.file("run.h5");
    {
        OutputFile out(final_path);
        h5::Group g = out.create_group("kept/open");
        h5::write_dataset(g, "v", std::span<double const>(std::vector<double>{4, 5}));
        h5::write_attribute(g, "who", "open handle");
        out.commit();
        // g is closed by the file now; its destructor must be harmless.
    }
    h5::File f = h5::open_file_readonly(final_path);
    CHECK(h5::read_doubles(f, "/kept/open/v") == std::vector<double>{4, 5});
    h5::Group g = h5::open_group(f, "/kept/open");
    CHECK(h5::read_string_attribute(g, "who") == "open handle");
}

TEST_CASE("writing into a missing or unusable directory is a clear error")
{
    TempDir dir;
    std::string const missing = dir.file("no-such-dir") + "/run.h5";
    std::string const message = io_error_of([&] { OutputFile out(missing); });
    CHECK(contains(message, missing));
    CHECK(contains(message, "No such file or directory"));

    std::ofstream(dir.file("plain")) << "a file, not a directory";
    std::string const under_file = dir.file("plain") + "/run.h5";
    CHECK(contains(io_error_of([&] { OutputFile out(under_file); }), "is not a directory"));

    std::filesystem::create_directory(dir.file("sub"));
    CHECK(contains(io_error_of([&] { OutputFile out(dir.file("sub")); }), "it is a directory"));
    CHECK(contains(io_error_of([&] { OutputFile out(""); }), "empty"));

    // Permissions do not bind root, so the read-only case is checked only where they apply.
    if (::geteuid() != 0) {
        std::filesystem::create_directory(dir.file("ro"));
        ::chmod(dir.file("ro").c_str(), 0500);
        std::string const ro = io_error_of([&] { OutputFile out(dir.file("ro") + "/run.h5"); });
        CHECK(contains(ro, "not writable"));
        CHECK(contains(ro, "Permission denied"));
    }
    CHECK(dir.entries().size() == 2);  // "plain" and "sub": nothing else was created
}

TEST_CASE("a second output to the same file in one process is refused, not clobbered")
{
    TempDir dir;
    OutputFile first(dir.file("run.h5"));
    first.write_dataset("x", std::vector<double>{1});
    std::string const message = io_error_of([&] { OutputFile second(dir.file("run.h5")); });
    CHECK(contains(message, "already exists"));
    CHECK(contains(message, first.temp_path()));
    first.commit();
    h5::File f = h5::open_file_readonly(dir.file("run.h5"));
    CHECK(h5::read_doubles(f, "x") == std::vector<double>{1});
}

namespace {
char g_marker[4096];  // where the test's own handler leaves its trace (async-signal-safe: open, _exit)
void program_handler(int)
{
    int const fd = ::open(g_marker, O_CREAT | O_WRONLY, 0600);
    if (fd >= 0) ::close(fd);
    ::_exit(42);
}
}  // namespace

TEST_CASE("SIGINT and SIGTERM remove the temporary, then the signal takes its previous course")
{
    for (int sig : {SIGINT, SIGTERM}) {
        for (bool program_has_handler : {false, true}) {
            CAPTURE(sig);
            CAPTURE(program_has_handler);
            TempDir dir;
            std::string const final_path = dir.file("run.h5");
            std::string const marker = dir.file("handler-ran");
            std::snprintf(g_marker, sizeof g_marker, "%s", marker.c_str());
            pid_t const child = ::fork();
            REQUIRE(child >= 0);
            if (child == 0) {
                // The child never returns into doctest: every path ends in _exit or the signal. Its
                // output goes nowhere, and doctest's own crash handler is replaced first: the
                // signal is this test's intended outcome, not a crash to report.
                int const devnull = ::open("/dev/null", O_WRONLY);
                ::dup2(devnull, STDOUT_FILENO);
                ::dup2(devnull, STDERR_FILENO);
                ::signal(sig, program_has_handler ? program_handler : SIG_DFL);
                try {
                    OutputFile out(final_path);
                    out.write_dataset("x", std::vector<double>(1000, 1.0));
                    if (!file_exists(out.temp_path())) ::_exit(2);
                    ::raise(sig);
                } catch (...) {
                    ::_exit(3);
                }
                ::_exit(4);  // the signal did not end the process
            }
            int status = 0;
            REQUIRE(::waitpid(child, &status, 0) == child);
            if (program_has_handler) {
                // Ours removed the file, then the program's handler ran (and chose to exit 42).
                CHECK(WIFEXITED(status));
                if (WIFEXITED(status)) CHECK(WEXITSTATUS(status) == 42);
                CHECK(file_exists(marker));
                std::filesystem::remove(marker);
            } else {
                CHECK(WIFSIGNALED(status));
                if (WIFSIGNALED(status)) CHECK(WTERMSIG(status) == sig);
                if (WIFEXITED(status)) CHECK(WEXITSTATUS(status) == 0);  // shows which path the child took
            }
            CHECK_FALSE(file_exists(final_path + ".tmp-" + std::to_string(child)));
            CHECK_FALSE(file_exists(final_path));
            CHECK(dir.entries().empty());
        }
    }
}

TEST_CASE("typed helpers: nested groups, datasets and attributes read back exactly")
{
    TempDir dir;
    std::string const path = dir.file("helpers.h5");
    std::vector<double> const d = {0.1, -0.0, 1e-310, 6.02214076e23};
    std::vector<std::int32_t> const i32 = {-5, 0, 2147483647};
    std::vector<std::int64_t> const i64 = {-9000000000000000000, 42};
    std::vector<std::uint64_t> const u64 = {0, 18446744073709551615ull};
    std::vector<double> const matrix = {1, 2, 3, 4, 5, 6};
    std::string const big(200000, 'k');  // beyond the 64 KiB compact-attribute limit
    std::vector<std::string> const names = {"alpha", "", "a longer string"};
    {
        OutputFile out(path);
        h5::Group g = out.create_group("a/b/c");
        h5::Group again = out.create_group("a/b/c");  // existing groups are reused
        out.write_dataset("a/b/c/d", d);
        out.write_dataset("ints/i32", i32);
        out.write_dataset("ints/i64", i64);
        out.write_dataset("ints/u64", u64);
        out.write_dataset("empty", std::vector<double>{});
        out.write_dataset_2d("m", matrix, 2, 3);
        out.set_attribute("a/b", "unit", "m");
        out.set_attribute("a/b", "unit", "mm");  // replaced
        out.set_attribute("a/b/c/d", "scale", 2.5);
        out.set_attribute("/", "count", std::uint64_t{18446744073709551615ull});
        out.set_attribute("/", "signed", std::int64_t{-3});
        out.set_attribute("", "small", std::int32_t{-7});
        out.set_attribute("/", "vector", std::span<double const>(d));
        out.set_attribute("/", "names", std::span<std::string const>(names));
        out.set_attribute("/", "no_names", std::span<std::string const>());
        out.set_attribute("/", "deck", big);
        out.commit();
    }
    h5::File f = h5::open_file_readonly(path);
    auto const back = h5::read_doubles(f, "a/b/c/d");
    REQUIRE(back.size() == d.size());
    CHECK(std::memcmp(back.data(), d.data(), d.size() * sizeof(double)) == 0);  // -0.0 and denormals too
    auto const i32_back = h5::read_int64s(f, "ints/i32");
    CHECK(std::vector<std::int32_t>(i32_back.begin(), i32_back.end()) == i32);
    CHECK(h5::read_int64s(f, "ints/i64") == i64);
    CHECK(h5::read_uint64s(f, "ints/u64") == u64);
    CHECK(h5::read_doubles(f, "empty").empty());
    auto const m = h5::read_matrix(f, "m");
    CHECK(m.rows == 2);
    CHECK(m.cols == 3);
    CHECK(m.values == matrix);
    CHECK(h5::stored_type(f, "ints/u64").type_class == H5T_INTEGER);
    CHECK_FALSE(h5::stored_type(f, "ints/u64").is_signed);
    CHECK(h5::stored_type(f, "ints/i64").is_signed);
    {
        h5::Group ab = h5::open_group(f, "a/b");
        CHECK(h5::read_string_attribute(ab, "unit") == "mm");
        h5::Dataset ds = h5::open_dataset(f, "a/b/c/d");
        CHECK(h5::read_double_attribute(ds, "scale") == 2.5);
    }
    CHECK(h5::read_uint64_attribute(f, "count") == 18446744073709551615ull);
    CHECK(h5::read_int64_attribute(f, "signed") == -3);
    CHECK(h5::read_int64_attribute(f, "small") == -7);
    CHECK(h5::read_double_array_attribute(f, "vector").size() == d.size());
    CHECK(h5::read_string_array_attribute(f, "names") == names);
    CHECK(h5::read_string_array_attribute(f, "no_names").empty());
    CHECK(h5::read_string_attribute(f, "deck") == big);
    CHECK(h5::is_group(f, "a/b/c"));
    CHECK_FALSE(h5::is_group(f, "a/b/c/d"));
    CHECK_FALSE(h5::exists(f, "a/nothing/here"));
    CHECK(h5::list_children(h5::open_group(f, "ints")) == std::vector<std::string>{"i32", "i64", "u64"});
}

TEST_CASE("a failed HDF5 call is an IoError naming the call and the object path")
{
    TempDir dir;
    OutputFile out(dir.file("run.h5"));
    out.write_dataset("group/x", std::vector<double>{1});
    std::string const twice = io_error_of([&] { out.write_dataset("group/x", std::vector<double>{2}); });
    CHECK(contains(twice, "H5Dcreate2"));
    CHECK(contains(twice, "/group/x"));
    CHECK(contains(twice, out.temp_path()));

    std::string const missing_attr = io_error_of([&] {
        h5::Group g = h5::open_group(out.id(), "group");
        (void)h5::read_double_attribute(g, "nope");
    });
    CHECK(contains(missing_attr, "attribute 'nope' is missing"));
    CHECK(contains(missing_attr, "/group"));

    CHECK_THROWS_AS(out.write_dataset_2d("m", std::vector<double>{1, 2, 3}, 2, 2), IoError);
    // A dataset where a group is needed: the path and HDF5's reason come back, nothing is printed.
    CHECK(contains(io_error_of([&] { out.create_group("group/x/deeper"); }), "/group/x"));
}

TEST_CASE("opening a file that is missing or not HDF5 is a clear error")
{
    TempDir dir;
    std::string const missing = dir.file("absent.h5");
    std::string const m = io_error_of([&] { h5::open_file_readonly(missing); });
    CHECK(contains(m, missing));
    CHECK(contains(m, "No such file or directory"));
    std::ofstream(dir.file("text.h5")) << "not hdf5 at all";
    std::string const t = io_error_of([&] { h5::open_file_readonly(dir.file("text.h5")); });
    CHECK(contains(t, "is not an HDF5 file"));
    CHECK(contains(t, dir.file("text.h5")));
}

TEST_CASE("provenance round-trips, and a file without it is reported")
{
    TempDir dir;
    Provenance p;
    p.gtrack_version = "0.1.0";
    p.git_hash = "0123456789ab-dirty";
    p.build_options = "Release, GNU 12.2.0, CUDA OFF, OpenMP ON";
    p.deck_path = "inputs/fodo.toml";
    p.deck_text = "[run]\nname = \"fodo\"\n# ünïcode survives as bytes\n" + std::string(100000, '#');
    p.command_line = "gtrack run inputs/fodo.toml --set beam.macroparticles=1000";
    p.backend = "cpu";
    p.device_name = "no GPU";
    p.start_time = iso8601_utc_now();
    p.end_time = "2025-01-31T12:00:00Z";
    p.seed = 18446744073709551557ull;
    p.overrides = {"beam.macroparticles=1000", "lattice.turns=3"};
    {
        OutputFile out(dir.file("run.h5"));
        Provenance first = p;
        first.end_time = "";
        write_provenance(out, first);
        write_provenance(out, p);  // the run rewrites it at the end with the end time
        out.commit();
    }
    CHECK(read_provenance(dir.file("run.h5")) == p);
    CHECK(p.start_time.size() == 20);
    CHECK(p.start_time[10] == 'T');
    CHECK(p.start_time.back() == 'Z');

    Provenance empty;  // empty strings and no overrides round-trip too
    {
        OutputFile out(dir.file("empty.h5"));
        write_provenance(out, empty);
        out.commit();
    }
    CHECK(read_provenance(dir.file("empty.h5")) == empty);

    {
        OutputFile out(dir.file("bare.h5"));
        out.write_dataset("x", std::vector<double>{1});
        out.commit();
    }
    std::string const m = io_error_of([&] { read_provenance(dir.file("bare.h5")); });
    CHECK(contains(m, dir.file("bare.h5")));
    CHECK(contains(m, "/provenance"));
}
